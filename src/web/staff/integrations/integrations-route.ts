/** The console's page of integrators' API clients; its own module, so the navigation loads no more. */
export const STAFF_INTEGRATIONS_ROUTE = '/staff/integrations';
