import type { FastifyPluginAsync } from 'fastify';
import {
  type ApplicationListResponse,
  applicationListQuery,
  givenListFilters,
  listRequestOf,
} from '../../shared/staff/application-list-api';
import { type ApplicationSummary, STAFF_API } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AppDatabase } from '../db/database';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import { checkTenantListFilters } from './application-selection';
import { findApplicationsByEmail, listApplications } from './applications-list-store';
import { withDecisionLabels } from './list-decision-labels';
import { listViewerOf } from './list-viewer';

export interface ApplicationListRoutesOptions {
  db: AppDatabase;
  tenant: TenantConfig;
  sessions: StaffSessions;
}

/**
 * The staff console's list of applications: paged, sorted on any column, filtered, and searched
 * by name (typos and accents forgiven), address, phone, school or CEEB code. Given `email` alone
 * it is the home page's exact-address lookup. Every call is a read of applicant data, so every
 * call is in the audit trail with what was asked and how many applications answered.
 */
export const applicationListRoutes: FastifyPluginAsync<ApplicationListRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { db, sessions } = context;

  app.get(
    `${STAFF_API}/applications`,
    {
      onRequest: sessions.guard('applications.read'),
      schema: { querystring: applicationListQuery },
    },
    async (request): Promise<ApplicationListResponse | ApplicationSummary[]> => {
      const { query } = request;
      if (query.email !== undefined) {
        const found = await findApplicationsByEmail(db, query.email);
        await request.audit.record({
          action: 'application.search',
          applicationId: found.length === 1 ? found[0]?.id : null,
          detail: { email: query.email, found: found.length },
        });
        return found;
      }
      checkTenantListFilters(context.tenant, query);
      // Each member's own list: reads' scores only where the blind rule lets them see them, and
      // "new since I last looked" by their own opening of each application.
      const listRequest = listRequestOf(query, listViewerOf(staffOf(request)));
      const page = await listApplications(db, listRequest);
      await request.audit.record({
        action: 'application.search',
        detail: {
          q: listRequest.q,
          filters: givenListFilters(query),
          sort: listRequest.sort,
          direction: listRequest.direction,
          page: listRequest.page,
          page_size: listRequest.pageSize,
          rows: page.rows.length,
          found: page.total,
        },
      });
      return {
        applications: withDecisionLabels(context.tenant, page.rows),
        total: page.total,
        total_exact: page.totalExact,
        page: listRequest.page,
        page_size: listRequest.pageSize,
        sort: listRequest.sort,
        direction: listRequest.direction,
      };
    },
  );
};
