import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuditTrail } from '../audit/audit-trail';
import { registerRequestAudit } from '../audit/request-audit';
import { type OidcRoutesOptions, oidcRoutes } from './oidc/oidc-routes';
import { type StaffAdminRoutesOptions, staffAdminRoutes } from './staff-admin-routes';
import { type StaffAuthRoutesOptions, staffAuthRoutes } from './staff-auth-routes';
import { staffActor } from './staff-sessions';

/**
 * Decorations every request carries, made on the app itself so that every capability's plugin
 * sees them. A request starts with no staff member (the session guard sets one on staff routes),
 * and what it records in the audit trail is recorded as that member, from the request's address.
 */
export function registerStaffRequests(
  app: FastifyInstance,
  audit: Pick<AuditTrail, 'record'>,
): void {
  app.decorateRequest('staff', null);
  registerRequestAudit(app, audit, (request) => (request.staff ? staffActor(request.staff) : null));
}

export type StaffPluginOptions = StaffAuthRoutesOptions &
  OidcRoutesOptions &
  StaffAdminRoutesOptions;

/**
 * The staff kernel's own routes: sign-in with a password or single sign-on, and staff
 * management. Each other staff capability is a plugin of its own folder that app.ts registers
 * with its session guard (`StaffSessions.guard`) and what else it uses.
 */
export const staffPlugin: FastifyPluginAsync<StaffPluginOptions> = async (app, options) => {
  await app.register(staffAuthRoutes, options);
  await app.register(oidcRoutes, options);
  await app.register(staffAdminRoutes, options);
};
