/**
 * The id of the JSON data element in which the server writes the public tenant configuration into
 * the applicant's page (src/server/spa/spa-routes.ts), so the first page does not wait for a call
 * to /public/tenant after its code has run. A data element is never executed: the page's content
 * security policy is unchanged.
 */
export const TENANT_IN_PAGE_ID = 'tenant-config';

/** The configuration as the text of that element: `<` escaped, so no text closes the element. */
export function tenantInPageScript(publicTenant: unknown): string {
  const json = JSON.stringify(publicTenant).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${TENANT_IN_PAGE_ID}">${json}</script>`;
}
