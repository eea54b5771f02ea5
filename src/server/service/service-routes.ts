import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { answerKeyParamsSchema } from '../../shared/api/document-schemas';
import {
  SERVICE_LINK_REFUSED_MESSAGE,
  SERVICE_PDF_PATH,
  SERVICE_READ_ONLY_MESSAGE,
  SERVICE_TOKEN_PARAM,
  SERVICE_VIEW_PATH,
  type ServiceView,
} from '../../shared/api/service';
import type { Answers, FormModel } from '../../shared/form/model';
import type { ApplicationsStore } from '../application/applications-store';
import { type ApplicationPdfs, awaitApplicationPdf } from '../application-pdf/application-pdfs';
import { sendApplicationPdf } from '../application-pdf/send-application-pdf';
import type { AppDatabase } from '../db/database';
import type { DocumentsStore } from '../documents/documents-store';
import { fileQuestionKeys } from '../documents/file-question-keys';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { bindActorToLog } from '../http/request-actor';
import { pdfDownloadName, sendPdf } from '../http/send-pdf';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { StorageDriver } from '../storage/storage';
import { serviceTokenId, serviceTokenLink } from './service-tokens';

export interface ServiceRoutesOptions {
  db: AppDatabase;
  documents: DocumentsStore;
  applications: ApplicationsStore;
  model: FormModel;
  storage: StorageDriver;
  pdfs: ApplicationPdfs;
}

/** Staff pages hold an applicant's data: never kept by a browser or a proxy. */
const NO_STORE = 'private, no-store';

/**
 * The service user's routes (`/service/*`): a token from the staff console or from
 * `npm run service-token` reads exactly one application and its converted documents. Nothing here
 * changes anything, and the token opens nothing outside these routes: `/api/*` knows only session
 * cookies.
 */
export const serviceRoutes: FastifyPluginAsync<ServiceRoutesOptions> = async (parent, options) => {
  const { db, storage, documents, applications } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const fileKeys = fileQuestionKeys(options.model);

  /**
   * The application the request's link reaches, with the use recorded in the audit trail: which
   * link, what it opened, from which address. A refused link reaches nothing and records nothing.
   */
  async function applicationOf(
    request: FastifyRequest,
    reply: FastifyReply,
    use: { what: 'view' | 'document' | 'pdf'; answer_key?: string },
  ): Promise<string> {
    const token = (request.query as Record<string, unknown> | undefined)?.[SERVICE_TOKEN_PARAM];
    const link = typeof token === 'string' ? await serviceTokenLink(db, token) : null;
    if (typeof token !== 'string' || !link) throw new HttpError(401, SERVICE_LINK_REFUSED_MESSAGE);
    bindActorToLog(request, reply, { serviceTokenId: serviceTokenId(token) });
    await request.audit.record({
      actor: { type: 'service_link', id: link.linkId },
      action: 'service_link.used',
      applicationId: link.accountId,
      detail: use,
    });
    return link.accountId;
  }

  app.get(SERVICE_VIEW_PATH, async (request, reply) => {
    const accountId = await applicationOf(request, reply, { what: 'view' });
    const application = await applications.findForReading(accountId);
    const view: ServiceView = {
      answer: (application?.answers ?? {}) as Answers,
      add_another: application?.addAnother ?? {},
      document_answer: await documents.completedAnswers(accountId),
      tabs: application?.tabs ?? {},
    };
    reply.header('cache-control', NO_STORE);
    return view;
  });

  app.get(
    '/service/document/:key/pdf',
    { schema: { params: answerKeyParamsSchema } },
    async (request, reply) => {
      const answerKey = request.params.key;
      const accountId = await applicationOf(request, reply, {
        what: 'document',
        answer_key: answerKey,
      });
      if (!fileKeys.has(answerKey)) throw new HttpError(404, NOT_FOUND_MESSAGE);
      const row = await documents.completedPdf(accountId, answerKey);
      const pdf = row ? await storage.get(row.pdfKey) : null;
      if (!row || !pdf) throw new HttpError(404, NOT_FOUND_MESSAGE);
      return sendPdf(reply, pdf, pdfDownloadName(row.fileName));
    },
  );

  app.get(SERVICE_PDF_PATH, async (request, reply) => {
    const accountId = await applicationOf(request, reply, { what: 'pdf' });
    return sendApplicationPdf(reply, await awaitApplicationPdf(options.pdfs, accountId));
  });

  // A staff link only reads: any attempt to change something here is refused outright.
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/service/*',
    handler: async () => {
      throw new HttpError(405, SERVICE_READ_ONLY_MESSAGE, undefined, { allow: 'GET, HEAD' });
    },
  });
};
