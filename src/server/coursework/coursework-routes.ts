import type { FastifyPluginAsync } from 'fastify';
import {
  COURSEWORK_ANSWER_MAX_LENGTH,
  COURSEWORK_ANSWER_MESSAGES,
  parseCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import {
  COURSEWORK_UPDATE_MESSAGES,
  courseworkUpdateProblems,
  currentCourseworkAnswers,
  describeCourseworkUpdate,
} from '../../shared/coursework/coursework-update';
import {
  COURSEWORK_UPDATES_URL,
  COURSEWORK_URL,
  type CourseworkOverview,
  courseworkUpdateBodySchema,
} from '../../shared/coursework/coursework-update-api';
import type { FormModel } from '../../shared/form/model';
import { todayIso } from '../../shared/form/validate';
import type { Sessions } from '../accounts/sessions';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { Limit, RateLimiter } from '../rate-limit/rate-limiter';
import {
  courseworkElsewhere,
  courseworkOverview,
  currentTotals,
  shownCourseworkGrids,
  storedGrid,
} from './coursework-overview';
import type { CourseworkUpdatesStore } from './coursework-updates-store';

/** A grid is at most 64,000 characters; written as JSON, each may take up to six bytes. */
export const COURSEWORK_UPDATE_BODY_LIMIT = 6 * COURSEWORK_ANSWER_MAX_LENGTH + 1024;

/** Far more than a term's grades need, far fewer than would fill the table. */
export const COURSEWORK_UPDATE_LIMIT: Limit = {
  name: 'coursework-update:account',
  max: 60,
  windowSeconds: 3600,
};

export interface CourseworkRoutesOptions {
  sessions: Sessions;
  store: CourseworkUpdatesStore;
  model: FormModel;
  /** The tenant's rules for the transfer GPA (`tenant.coursework`). */
  courseworkRules: CourseworkRules;
  limiter: RateLimiter;
  /** Told after each update is committed (transfer credit is evaluated again). */
  onUpdated?: (accountId: string) => Promise<void>;
  /** The day updates are checked against; a function so tests can fix it. */
  today?: () => string;
}

/**
 * Coursework after submit (issue 27): the applicant reads the coursework as it stands and adds
 * to it (a term's grades in January, a new term) as dated updates. The submitted answers, and so
 * the receipt's fingerprint, are never written; the totals are recomputed and each update is
 * recorded in the audit trail by the applicant.
 */
export const courseworkRoutes: FastifyPluginAsync<CourseworkRoutesOptions> = async (
  parent,
  options,
) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { store, model, courseworkRules: rules } = options;
  const today = options.today ?? (() => todayIso());
  app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));

  app.get(COURSEWORK_URL, async (request, reply): Promise<CourseworkOverview> => {
    const [application, updates] = await Promise.all([
      store.application(request.accountId),
      store.updatesOf(request.accountId),
    ]);
    reply.header('cache-control', 'no-store');
    return courseworkOverview(model, rules, application, updates);
  });

  app.post(
    COURSEWORK_UPDATES_URL,
    { bodyLimit: COURSEWORK_UPDATE_BODY_LIMIT, schema: { body: courseworkUpdateBodySchema } },
    async (request, reply): Promise<CourseworkOverview> => {
      const { accountId } = request;
      const { key, value } = request.body;
      await options.limiter.consume([{ limit: COURSEWORK_UPDATE_LIMIT, subject: accountId }]);
      const refuse = (message: string, field = key): never => {
        throw new HttpError(400, INVALID_REQUEST_MESSAGE, { [field]: [message] });
      };
      const parsed = parseCourseworkAnswer(value);
      if (!parsed.ok) return refuse(parsed.message, 'value');
      const proposed = parsed.answer;
      if (!proposed) return refuse(COURSEWORK_ANSWER_MESSAGES.notCoursework, 'value');

      const overview = await store.transaction(async (tx) => {
        // Locked: a second update of this applicant waits for this one and builds on it.
        const application = await store.application(accountId, tx, { lock: true });
        if (!application?.submittedAt)
          throw new HttpError(409, COURSEWORK_UPDATE_MESSAGES.notSubmitted);
        const grids = shownCourseworkGrids(model, application);
        if (!grids.some((grid) => grid.key === key))
          return refuse(COURSEWORK_UPDATE_MESSAGES.notAGrid, 'key');
        const updates = await store.updatesOf(accountId, tx);
        const current = currentCourseworkAnswers(application.answers, updates);
        const was = storedGrid(current[key]);
        const problems = courseworkUpdateProblems(
          was ?? { system: proposed.system, terms: [] },
          proposed,
          {
            rules,
            today: today(),
            elsewhere: courseworkElsewhere(grids, current, key),
          },
        );
        if (problems.length > 0)
          throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
            [key]: problems.map((problem) => problem.named),
          });
        const lines = describeCourseworkUpdate(was, proposed);
        if (lines.length === 0)
          throw new HttpError(400, COURSEWORK_UPDATE_MESSAGES.nothingChanged, {
            [key]: [COURSEWORK_UPDATE_MESSAGES.nothingChanged],
          });
        const createdAt = await store.addUpdate(accountId, { key, answer: value }, tx);
        const after = [...updates, { key, answer: value, createdAt }];
        const totals = currentTotals(model, rules, application, after);
        await store.saveTotals(
          accountId,
          {
            gpa: totals.gpa,
            transferUnits: totals.transferableUnits,
            inProgressUnits: totals.inProgressUnits,
          },
          tx,
        );
        // The trail keeps no coursework: the grid and its lines stay with the application.
        await request.audit.record(
          {
            actor: { type: 'applicant', id: accountId },
            action: 'coursework.updated',
            applicationId: accountId,
            detail: { answer_key: key, changes: lines.length },
          },
          tx,
        );
        return courseworkOverview(model, rules, application, after);
      });
      await options.onUpdated?.(accountId);
      reply.header('cache-control', 'no-store');
      return overview;
    },
  );
};
