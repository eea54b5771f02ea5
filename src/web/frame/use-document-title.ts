import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useTenantConfig } from '../data/tenant';
import { isRouteHandle } from '../navigation/route-handle';

/** Sets the document title from the deepest matched route that names one. */
export function useDocumentTitle(): void {
  const tenant = useTenantConfig();
  const matches = useMatches();
  const handle = matches.findLast((match) => isRouteHandle(match.handle))?.handle;
  const pageTitle = isRouteHandle(handle) ? handle.title : undefined;

  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} | ${tenant.partner_name}` : tenant.partner_name;
  }, [pageTitle, tenant.partner_name]);
}
