import type { FastifyPluginAsync } from 'fastify';
import {
  DECISION_LETTER_PDF_URL,
  DECISION_REPLY_URL,
  DECISION_URL,
  decisionReplySchema,
  type ReleasedDecision,
  STATUS_MESSAGES,
} from '../../shared/api/status';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { Sessions } from '../accounts/sessions';
import { HttpError } from '../http/http-error';
import { sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import { lazy } from '../runtime/lazy';
import type { DecisionService } from './decision-service';

/** pdf-lib and the fonts load with the first letter downloaded, not with the server. */
const letterRenderer = lazy(() => import('./letter-render'));

export interface ApplicantDecisionOptions {
  tenant: TenantConfig;
  sessions: Sessions;
  decisions: Pick<DecisionService, 'releasedDecision' | 'releasedLetter' | 'reply'>;
}

/**
 * The applicant's decision once released: its letter (HTML and PDF) and, for an offer, the one
 * reply by the deadline. Before release these answer exactly as if no decision existed.
 */
export const applicantDecisionRoutes: FastifyPluginAsync<ApplicantDecisionOptions> = async (
  parent,
  options,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { decisions } = options;
  app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));

  app.get(DECISION_URL, async (request, reply): Promise<ReleasedDecision | null> => {
    reply.header('cache-control', 'no-store');
    return decisions.releasedDecision(request.accountId);
  });

  app.get(DECISION_LETTER_PDF_URL, async (request, reply) => {
    const released = await decisions.releasedLetter(request.accountId);
    if (!released) throw new HttpError(404, STATUS_MESSAGES.noDecision);
    const pdf = await (await letterRenderer()).letterPdf(released.letter, {
      institution: options.tenant.partner_name,
      releasedAt: released.releasedAt,
    });
    return sendPdf(reply, pdf, 'decision-letter.pdf');
  });

  app.post(
    DECISION_REPLY_URL,
    { schema: { body: decisionReplySchema } },
    async (request, reply): Promise<ReleasedDecision> => {
      reply.header('cache-control', 'no-store');
      return decisions.reply(request.accountId, request.body.reply, request.ip);
    },
  );
};
