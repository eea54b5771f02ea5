import type { FastifyPluginAsync } from 'fastify';
import { servicePdfUrl } from '../../shared/api/service';
import {
  applicationIdParams,
  type CreatedServiceLink,
  createServiceLinkSchema,
  type ServiceLinkSummary,
  STAFF_API,
  serviceLinkParams,
} from '../../shared/staff/staff-api';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import { siteUrl } from '../http/site-url';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffSessions, staffOf } from '../staff/staff-sessions';
import type { StaffStore } from '../staff/staff-store';
import { serviceLink } from './service-token-command';
import {
  applicationExists,
  listServiceLinks,
  mintServiceToken,
  revokeServiceLink,
  serviceLinkSummary,
} from './service-tokens';

export const APPLICATION_NOT_FOUND_MESSAGE = 'No application has this id.';
export const SERVICE_LINK_NOT_FOUND_MESSAGE = 'This application has no link with this id.';

const DAY_MS = 86_400_000;

export interface ServiceLinkRoutesOptions {
  db: AppDatabase;
  env: Pick<Env, 'PUBLIC_URL'>;
  sessions: StaffSessions;
  /** A link is made or revoked in the same transaction as its entry in the audit trail. */
  store: Pick<StaffStore, 'transaction'>;
}

/**
 * Read-only links as staff actions: list, create and revoke the links to an application (found
 * through the application list). A link is shown once, when made; only its hash is stored, and
 * making, revoking and every use of a link are in the audit trail.
 */
export const serviceLinkRoutes: FastifyPluginAsync<ServiceLinkRoutesOptions> = async (
  parent,
  context,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, store } = context;

  async function requireApplication(applicationId: string): Promise<void> {
    if (!(await applicationExists(db, applicationId))) {
      throw new HttpError(404, APPLICATION_NOT_FOUND_MESSAGE);
    }
  }

  app.get(
    `${STAFF_API}/applications/:applicationId/links`,
    {
      onRequest: sessions.guard('service_links.manage'),
      schema: { params: applicationIdParams },
    },
    async (request): Promise<ServiceLinkSummary[]> => {
      await requireApplication(request.params.applicationId);
      return listServiceLinks(db, request.params.applicationId);
    },
  );

  app.post(
    `${STAFF_API}/applications/:applicationId/links`,
    {
      onRequest: sessions.guard('service_links.manage'),
      schema: { params: applicationIdParams, body: createServiceLinkSchema },
    },
    async (request, reply): Promise<CreatedServiceLink> => {
      const staff = staffOf(request);
      const { applicationId } = request.params;
      await requireApplication(applicationId);
      const { days } = request.body;
      const minted = await store.transaction(async (tx) => {
        const link = await mintServiceToken(tx, applicationId, days * DAY_MS, staff.id);
        await request.audit.record(
          {
            action: 'service_link.created',
            applicationId,
            detail: { link_id: link.id, days, expires_at: link.expiresAt.toISOString() },
          },
          tx,
        );
        return link;
      });
      const base = siteUrl(context.env, request);
      reply.status(201);
      return {
        ...serviceLinkSummary({ ...minted, revokedAt: null, createdBy: staff.email }),
        url: serviceLink(base, minted.token),
        pdf_url: `${base}${servicePdfUrl(minted.token)}`,
      };
    },
  );

  app.post(
    `${STAFF_API}/applications/:applicationId/links/:linkId/revoke`,
    {
      onRequest: sessions.guard('service_links.manage'),
      schema: { params: serviceLinkParams },
    },
    async (request): Promise<ServiceLinkSummary> => {
      const { applicationId, linkId } = request.params;
      await requireApplication(applicationId);
      const revoked = await store.transaction(async (tx) => {
        const link = await revokeServiceLink(tx, applicationId, linkId);
        if (!link) return null;
        await request.audit.record(
          {
            action: 'service_link.revoked',
            applicationId,
            detail: { link_id: linkId },
          },
          tx,
        );
        return link;
      });
      if (!revoked) throw new HttpError(404, SERVICE_LINK_NOT_FOUND_MESSAGE);
      return revoked;
    },
  );
};
