import type { FastifyPluginAsync } from 'fastify';
import { applicationViewRoutes } from '../application-view/application-view-routes';
import { savedViewRoutes } from '../application-view/saved-view-routes';
import { applicationListRoutes } from '../applications-list/applications-list-routes';
import { auditRoutes } from '../audit/audit-routes';
import { checklistRoutes } from '../checklist/checklist-routes';
import { decisionRoutes } from '../decisions/decision-routes';
import { exportRoutes } from '../exports/exports-routes';
import { receiptStaffRoutes } from '../receipts/receipt-staff-routes';
import { serviceLinkRoutes } from '../service/service-link-routes';
import { oidcRoutes } from './oidc/oidc-routes';
import { staffAdminRoutes } from './staff-admin-routes';
import { staffAuthRoutes } from './staff-auth-routes';
import type { StaffContext } from './staff-context';

/** The admissions office's side: staff sign-in, staff management, the audit log, staff links. */
export const staffPlugin: FastifyPluginAsync<StaffContext> = async (app, context) => {
  // Every request starts with no staff member; the session guard sets one on staff routes.
  app.decorateRequest('staff', null);
  await app.register(staffAuthRoutes, context);
  await app.register(oidcRoutes, context);
  await app.register(staffAdminRoutes, context);
  await app.register(auditRoutes, context);
  await app.register(serviceLinkRoutes, context);
  await app.register(applicationListRoutes, context);
  await app.register(exportRoutes, context);
  await app.register(checklistRoutes, context);
  await app.register(applicationViewRoutes, context);
  await app.register(savedViewRoutes, context);
  await app.register(decisionRoutes, context);
  await app.register(receiptStaffRoutes, context);
};
