/** The console's application pages, under /staff/applications/:id. */
export const STAFF_APPLICATIONS_ROUTE = '/staff/applications';

/** An application's page in the console, carrying the list the reader came from. */
export function applicationPath(id: string, listQuery: string): string {
  const path = `${STAFF_APPLICATIONS_ROUTE}/${encodeURIComponent(id)}`;
  return listQuery ? `${path}?${listQuery}` : path;
}
