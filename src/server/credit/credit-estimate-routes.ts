import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  type ApplicantRequirements,
  batchEstimateReleaseSchema,
  CREDIT_ESTIMATE_PDF_URL,
  CREDIT_ESTIMATE_URL,
  CREDIT_MESSAGES,
  CREDIT_REQUIREMENTS_URL,
  creditUrls,
  type ReleasedEstimate,
} from '../../shared/credit/credit-api';
import { applicationIdParams } from '../../shared/staff/staff-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { Sessions } from '../accounts/sessions';
import { HttpError } from '../http/http-error';
import { sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import { lazy } from '../runtime/lazy';
import type { StaffSessions } from '../staff/staff-sessions';
import { staffOf } from '../staff/staff-sessions';
import type { CreditEstimates, EstimateBatchResult, EstimateCaller } from './credit-estimates';

/** pdf-lib and the fonts load with the first estimate downloaded, not with the server. */
const estimateRenderer = lazy(() => import('./estimate-render'));

const NO_STORE = 'private, no-store';

export interface CreditEstimateRoutesOptions {
  tenant: TenantConfig;
  /** The applicants' sessions. */
  sessions: Sessions;
  staffSessions: StaffSessions;
  estimates: CreditEstimates;
}

function callerOf(request: FastifyRequest): EstimateCaller {
  const staff = staffOf(request);
  return { by: { id: staff.id, label: staff.displayName || staff.email }, audit: request.audit };
}

/**
 * The credit estimate: released by evaluators (one application or a list's filters), previewed
 * by staff as it would be released now, and read by the applicant once released. Before release
 * the applicant's routes answer exactly as if there were no estimate.
 */
export const creditEstimateRoutes: FastifyPluginAsync<CreditEstimateRoutesOptions> = async (
  parent,
  options,
) => {
  const { estimates, staffSessions, tenant } = options;

  // Staff: /staff/api/ routes, each with its guard.
  await parent.register(async (scope) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const evaluate = staffSessions.guard('credit.evaluate');

    app.post(
      creditUrls.release(':applicationId'),
      { onRequest: evaluate, schema: { params: applicationIdParams } },
      async (request, reply) => {
        reply.header('cache-control', NO_STORE);
        return estimates.release(request.params.applicationId, callerOf(request));
      },
    );

    app.post(
      creditUrls.batchRelease,
      { onRequest: evaluate, schema: { body: batchEstimateReleaseSchema } },
      async (request, reply): Promise<EstimateBatchResult> => {
        reply.header('cache-control', NO_STORE);
        return estimates.releaseBatch(request.body.query, callerOf(request));
      },
    );

    app.get(
      creditUrls.preview(':applicationId'),
      {
        onRequest: staffSessions.guard('applications.read'),
        schema: { params: applicationIdParams },
      },
      async (request, reply) => {
        const id = request.params.applicationId;
        const { evaluation, name } = await estimates.preview(id);
        await request.audit.record({ action: 'credit.estimate_preview', applicationId: id });
        const pdf = await (await estimateRenderer()).estimatePdf(evaluation, {
          institution: tenant.partner_name,
          applicantName: name,
          releasedAt: new Date(),
        });
        return sendPdf(reply, pdf, 'credit-estimate-preview.pdf', 'inline');
      },
    );
  });

  // The applicant: their own released estimate and the requirements shown to applicants.
  await parent.register(async (scope) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));

    app.get(CREDIT_ESTIMATE_URL, async (request, reply): Promise<ReleasedEstimate | null> => {
      reply.header('cache-control', 'no-store');
      return estimates.released(request.accountId);
    });

    app.get(CREDIT_ESTIMATE_PDF_URL, async (request, reply) => {
      const released = await estimates.releasedForPdf(request.accountId);
      if (!released) throw new HttpError(404, CREDIT_MESSAGES.noEstimate);
      const pdf = await (await estimateRenderer()).estimatePdf(released.evaluation, {
        institution: tenant.partner_name,
        applicantName: released.name,
        releasedAt: released.releasedAt,
      });
      return sendPdf(reply, pdf, 'credit-estimate.pdf');
    });

    app.get(CREDIT_REQUIREMENTS_URL, async (request, reply): Promise<ApplicantRequirements> => {
      reply.header('cache-control', 'no-store');
      return { requirements: await estimates.applicantRequirements(request.accountId) };
    });
  });
};
