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
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import { type StaffContext, siteUrl } from '../staff/staff-context';
import { staffActor, staffOf } from '../staff/staff-sessions';
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

/**
 * Read-only links as staff actions: list, create and revoke the links to an application (found
 * through the application list). A link is shown once, when made; only its hash is stored, and
 * making, revoking and every use of a link are in the audit trail.
 */
export const serviceLinkRoutes: FastifyPluginAsync<StaffContext> = async (parent, context) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, audit, store } = context;

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
        await audit.record(
          {
            actor: staffActor(staff),
            action: 'service_link.created',
            applicationId,
            detail: { link_id: link.id, days, expires_at: link.expiresAt.toISOString() },
            ip: request.ip,
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
      const staff = staffOf(request);
      const { applicationId, linkId } = request.params;
      await requireApplication(applicationId);
      const revoked = await store.transaction(async (tx) => {
        const link = await revokeServiceLink(tx, applicationId, linkId);
        if (!link) return null;
        await audit.record(
          {
            actor: staffActor(staff),
            action: 'service_link.revoked',
            applicationId,
            detail: { link_id: linkId },
            ip: request.ip,
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
