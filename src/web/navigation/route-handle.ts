/** Static data on a route: its title feeds the document title ("About You | {partner_name}"). */
export interface RouteHandle {
  title: string;
  /**
   * A page's own skip link, drawn first of all (before "Skip to main content"): the id of what
   * it moves focus to and its words, such as the list's "Skip to results".
   */
  skipTo?: { id: string; label: string };
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { title?: unknown }).title === 'string'
  );
}
