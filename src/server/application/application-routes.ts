import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  addAnotherSchema,
  lastPageSchema,
  tabsSchema,
  validationsSchema,
  webStatusSchema,
} from '../../shared/api/application';
import {
  ALREADY_SUBMITTED_MESSAGE,
  ERROR_SUMMARY_TITLE,
  SUBMITTED_MESSAGE,
} from '../../shared/api/application-messages';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import { answerKeySpecs, parseAnswerPatch } from '../../shared/form/answer-keys';
import { containersOf } from '../../shared/form/containers';
import { courseworkTotalsOf, enteredCoursework } from '../../shared/form/coursework-grids';
import type { FormModel } from '../../shared/form/model';
import { clearHiddenAnswers } from '../../shared/form/resolve';
import { todayIso, validateAnswers } from '../../shared/form/validate';
import { SESSION_ENDED_MESSAGE, type Sessions } from '../accounts/sessions';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { bindActorToLog } from '../http/request-actor';
import type { ZodTypeProvider } from '../http/zod-validation';
import type { SubmitReceipts } from '../receipts/receipts-service';
import type { AnswerSave, ApplicationsStore } from './applications-store';
import { createStatementBatches } from './statement-batches';
import { createSubmitBatches } from './submit-batches';

export interface ApplicationOptions {
  store: ApplicationsStore;
  /**
   * The store on the connection submit reads and writes through, so it never queues behind the
   * saves (`DatabaseHandle.reserved`); without it, `store`.
   */
  submitStore?: ApplicationsStore;
  sessions: Sessions;
  model: FormModel;
  /** The tenant's rules for the transfer GPA: which grades a coursework grid accepts. */
  courseworkRules: CourseworkRules;
  /** The day saves and submit validate against; a function so tests can fix it. */
  today?: () => string;
  /** Called after a successful submit, not awaited by its answer (the application PDF starts). */
  onSubmitted?: (accountId: string) => Promise<void>;
  /** Drafts each submit's receipt (numbered by the submit's statement) and mails it after commit. */
  receipts?: SubmitReceipts;
  /**
   * Save statements on their way at once (the pool's connections): more saves than that wait,
   * and go together in one statement. One unless given.
   */
  saveStatements?: number;
}

/** Reads before giving up on an application that changes under every submit attempt. */
const SUBMIT_ATTEMPTS = 5;

const submittedConflict = () => new HttpError(409, ALREADY_SUBMITTED_MESSAGE);

/**
 * The application's life cycle: answers merged per key, tabs, add-another counts, the last page,
 * web status, validation reports and the one submit. After submit every change is refused.
 */
export const applicationRoutes: FastifyPluginAsync<ApplicationOptions> = async (
  parent,
  options,
) => {
  const { model } = options;
  const { store } = options;
  const submitStore = options.submitStore ?? store;
  const submits = createSubmitBatches((items) => submitStore.submit(items));
  // Submit's reads go together too: at a burst, one statement instead of one each.
  const submitReads = createStatementBatches(
    (tokens: readonly string[]) => submitStore.readForSubmits(options.sessions, tokens),
    (token) => token,
  );
  // Saves go alone while the pool has a connection free, and together when it has none.
  const saves = createStatementBatches(
    (items: readonly AnswerSave[]) => store.saveAnswersTogether(options.sessions, items),
    (item) => item.token,
    options.saveStatements ?? 1,
  );
  const startingPdfs = new Set<Promise<void>>();
  // A shutdown lets the PDFs of the last submits be requested before the database closes.
  parent.addHook('onClose', async () => {
    await Promise.all(startingPdfs);
  });
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const specs = answerKeySpecs(model);
  const { repeats, tabs } = containersOf(model);
  const today = options.today ?? (() => todayIso());
  const currentYear = () => Number(today().slice(0, 4));

  /** Runs a change of the application; refused once it is submitted. */
  async function change(changed: Promise<boolean>): Promise<void> {
    if (!(await changed)) throw submittedConflict();
  }

  app.put('/api/answer', async (request, reply) => {
    const token = options.sessions.token(request);
    if (!token) return refuseSession(reply);
    const keepExisting =
      (request.query as Record<string, string | undefined>).keep_existing === 'true';
    const parsed = parseAnswerPatch(specs, request.body, {
      currentYear: currentYear(),
      today: today(),
      coursework: options.courseworkRules,
    });
    if (!parsed.ok) throw new HttpError(400, INVALID_REQUEST_MESSAGE, parsed.errors);
    const saved = await saves.send({ token, patch: parsed.patch, keepExisting });
    if (saved) {
      bindActorToLog(request, reply, { accountId: saved.accountId });
      await options.sessions.touchIfStale(token, saved.lastSeenAt);
    } else {
      // Nothing updated: no live session (401), a submitted application (409), or an account
      // without an application row yet, which `change` creates.
      const accountId = await options.sessions.authenticate(request);
      if (!accountId) return refuseSession(reply);
      bindActorToLog(request, reply, { accountId });
      await change(store.mergeAnswers(accountId, parsed.patch, keepExisting));
    }
    return { message: 'Saved.' };
  });

  /**
   * One read and one statement, each shared with the submits arriving with it: the read
   * (session, application, documents) is validated and fingerprinted with nothing locked and no
   * connection held, and the statement applies only if the application is still as read. A change in between (another tab saving, a conversion
   * finishing) makes it read and validate again.
   */
  app.post('/api/submit', async (request, reply) => {
    const token = options.sessions.token(request);
    if (!token) return refuseSession(reply);
    for (let attempt = 1; ; attempt++) {
      const read = await submitReads.send(token);
      if (!read) return refuseSession(reply);
      const { accountId, application } = read;
      bindActorToLog(request, reply, { accountId });
      if (attempt === 1) await options.sessions.touchIfStale(token, read.lastSeenAt);
      if (application?.submitted) throw submittedConflict();
      const formState = {
        answers: application?.answers ?? {},
        addAnother: application?.addAnother ?? {},
        tabs: application?.tabs ?? {},
        isLoggedIn: true,
      };
      // Hidden answers are cleared by the server too, with the same rules as the browser. The
      // model resolved for the answers left serves the validation and the coursework totals.
      const { patch: cleared, resolved } = clearHiddenAnswers(model, formState);
      const answers = { ...formState.answers, ...cleared };
      const documents = new Set(read.documents.map((document) => document.answerKey));
      const errors = validateAnswers(
        model,
        { ...formState, answers },
        { today: today(), documents, coursework: options.courseworkRules },
        resolved,
      );
      if (Object.keys(errors).length > 0) {
        return reply.status(422).send({ message: ERROR_SUMMARY_TITLE, errors });
      }
      if (!application) {
        await store.createIfMissing(accountId);
        continue;
      }
      const draft = options.receipts
        ? await options.receipts.draft({
            accountId,
            answers,
            tabs: application.tabs,
            addAnother: application.addAnother,
            documents: read.documents,
          })
        : null;
      const totals = courseworkTotalsOf(
        enteredCoursework(model, { ...formState, answers }, resolved),
        options.courseworkRules,
      );
      const submitted = await submits.submit({
        accountId,
        version: application.version,
        // Only what changed travels: the statement lays it over the answers as read.
        answers: cleared,
        draft,
        coursework: {
          gpa: totals.gpa,
          transferUnits: totals.transferableUnits,
          inProgressUnits: totals.inProgressUnits,
        },
      });
      if (!submitted) {
        if (attempt >= SUBMIT_ATTEMPTS) throw new Error('the application kept changing at submit');
        continue;
      }
      if (draft && submitted.receipt) {
        options.receipts?.mailAfterCommit(
          {
            number: submitted.receipt.number,
            submitted_at: submitted.submittedAt.toISOString(),
            fingerprint: draft.fingerprint,
          },
          read.email,
          `${request.protocol}://${request.host}`,
        );
      }
      // The application PDF is a job for later: its request need not hold the applicant's answer.
      const started = options.onSubmitted?.(accountId).catch(() => undefined);
      if (started) {
        startingPdfs.add(started);
        void started.finally(() => startingPdfs.delete(started));
      }
      return { message: SUBMITTED_MESSAGE };
    }
  });

  function refuseSession(reply: FastifyReply): never {
    options.sessions.clearCookies(reply);
    throw new HttpError(401, SESSION_ENDED_MESSAGE);
  }

  await app.register(async (signedIn) => {
    const app = signedIn.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));
    app.put('/api/last-page', { schema: { body: lastPageSchema } }, async (request) => {
      await change(store.setLastPage(request.accountId, request.body.last_page));
      return { message: 'Saved.' };
    });

    app.get('/api/tabs', async (request) => (await store.state(request.accountId)).tabs);

    app.put('/api/tabs', { schema: { body: tabsSchema } }, async (request) => {
      const { tab_id: tabId, chosen_tab: chosen } = request.body;
      const group = tabs.get(tabId);
      if (!group)
        throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
          tab_id: [`There is no tab group "${tabId}".`],
        });
      if (!group.tabs.some((tab) => tab.id === chosen)) {
        throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
          chosen_tab: [`Tab group "${tabId}" has no tab "${chosen}".`],
        });
      }
      await change(store.chooseTab(request.accountId, tabId, chosen));
      return { message: 'Saved.' };
    });

    app.get(
      '/api/add-another',
      async (request) => (await store.state(request.accountId)).addAnother,
    );

    app.put('/api/add-another', { schema: { body: addAnotherSchema } }, async (request) => {
      const { button_id: buttonId, num_components: count } = request.body;
      const repeat = repeats.get(buttonId);
      if (!repeat)
        throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
          button_id: [`There is no add-another button "${buttonId}".`],
        });
      if (count > repeat.instances.length) {
        throw new HttpError(400, INVALID_REQUEST_MESSAGE, {
          num_components: [`"${buttonId}" allows at most ${repeat.instances.length}.`],
        });
      }
      await change(store.setAddAnotherCount(request.accountId, buttonId, count));
      return { message: 'Saved.' };
    });

    app.post('/api/web-status', { schema: { body: webStatusSchema } }, async (request) => {
      const { web_status: status } = request.body;
      const current = await store.state(request.accountId);
      if (status === 'submitted') {
        // Only a successful submit records it; repeating it afterwards is harmless.
        if (!current.submitted)
          throw new HttpError(409, 'Submit the application to mark it submitted.');
        return { web_status: status };
      }
      if (current.submitted) throw submittedConflict();
      const sequence = status === 'validating' ? ['started', 'validating'] : ['started'];
      await store.recordStatuses(request.accountId, sequence);
      return { web_status: status };
    });

    app.post('/api/validations', { schema: { body: validationsSchema } }, async (request) => {
      await store.recordValidationReport(request.accountId, request.body.errors);
      return { message: 'Saved.' };
    });
  });
};
