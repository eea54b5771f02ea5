import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
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
import { answerKeySpecs, parseAnswerPatch } from '../../shared/form/answer-keys';
import { containersOf } from '../../shared/form/containers';
import type { Answers, FormModel } from '../../shared/form/model';
import { hiddenAnswersPatch } from '../../shared/form/resolve';
import { todayIso, validateAnswers } from '../../shared/form/validate';
import { SESSION_ENDED_MESSAGE, type Sessions } from '../accounts/sessions';
import type { AppDatabase } from '../db/database';
import { rowsOf } from '../db/database';
import { applications, sessions, validationReports, webStatuses } from '../db/schema';
import { completedDocumentAnswers } from '../documents/document-routes';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import { bindActorToLog } from '../http/request-actor';
import type { ZodTypeProvider } from '../http/zod-validation';

export interface ApplicationOptions {
  db: AppDatabase;
  sessions: Sessions;
  model: FormModel;
  /** The day submit validates against; a function so tests can fix it. */
  today?: () => string;
  /** Called after a successful submit (the application PDF starts); must not throw. */
  onSubmitted?: (accountId: string) => Promise<void>;
}

const submittedConflict = () => new HttpError(409, ALREADY_SUBMITTED_MESSAGE);

/**
 * The `answers = ...` assignment for a patch (JSON text). `||` merges per key: two browser tabs
 * saving different keys both keep their edits. Answers carried in from before sign-up
 * (`keepExisting`) never overwrite what the account already holds.
 */
export function answersMerge(patch: string, keepExisting: boolean): SQL {
  return keepExisting
    ? sql`answers = ${patch}::jsonb || (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
          from jsonb_each(${applications.answers}) where value not in ('""'::jsonb, 'false'::jsonb))`
    : sql`answers = ${applications.answers} || ${patch}::jsonb`;
}

/**
 * The hot path of saving: session check, merge and the submitted guard in one statement. Returns
 * the session's idle mark, or no row when there is no live session, the application is submitted
 * or the account has no application row yet. The benchmark sends this same statement directly.
 */
export function saveAnswersStatement(
  liveSessions: Pick<Sessions, 'liveSessionCondition'>,
  token: string,
  merged: SQL,
): SQL {
  return sql`
    update ${applications} set ${merged}, updated_at = now()
    from ${sessions}
    where ${liveSessions.liveSessionCondition(token)}
      and ${applications.accountId} = ${sessions.accountId} and ${applications.submittedAt} is null
    returning ${sessions.lastSeenAt} as last_seen_at, ${sessions.accountId} as account_id`;
}

/**
 * The application's life cycle: answers merged per key, tabs, add-another counts, the last page,
 * web status, validation reports and the one submit. After submit every change is refused.
 */
export const applicationRoutes: FastifyPluginAsync<ApplicationOptions> = async (
  parent,
  options,
) => {
  const { db, model } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const specs = answerKeySpecs(model);
  const { repeats, tabs } = containersOf(model);
  const today = options.today ?? (() => todayIso());
  const currentYear = () => Number(today().slice(0, 4));

  /**
   * Applies a change to the application row in one statement, creating the row if needed;
   * refused once the application is submitted.
   */
  async function change(
    accountId: string,
    set: ReturnType<typeof sql>,
    insert: Partial<typeof applications.$inferInsert>,
  ) {
    const rows = rowsOf<{ ok: number }>(
      await db.execute(sql`
      insert into ${applications} (account_id, answers, last_page, tabs, add_another)
      values (${accountId}, ${JSON.stringify(insert.answers ?? {})}::jsonb, ${insert.lastPage ?? null},
              ${JSON.stringify(insert.tabs ?? {})}::jsonb, ${JSON.stringify(insert.addAnother ?? {})}::jsonb)
      on conflict (account_id) do update set ${set}, updated_at = now()
      where ${applications.submittedAt} is null
      returning 1 as ok`),
    );
    if (rows.length === 0) throw submittedConflict();
  }

  app.put('/api/answer', async (request, reply) => {
    const token = options.sessions.token(request);
    if (!token) return refuseSession(reply);
    const keepExisting =
      (request.query as Record<string, string | undefined>).keep_existing === 'true';
    const parsed = parseAnswerPatch(specs, request.body, { currentYear: currentYear() });
    if (!parsed.ok) throw new HttpError(400, INVALID_REQUEST_MESSAGE, parsed.errors);
    const patch = JSON.stringify(parsed.patch);
    const merged = answersMerge(patch, keepExisting);
    const [saved] = rowsOf<{ last_seen_at: string | Date; account_id: string }>(
      await db.execute(saveAnswersStatement(options.sessions, token, merged)),
    );
    if (saved) {
      bindActorToLog(request, reply, { accountId: saved.account_id });
      await options.sessions.touchIfStale(token, new Date(saved.last_seen_at));
    } else {
      // Nothing updated: no live session (401), a submitted application (409), or an account
      // without an application row yet, which `change` creates.
      const accountId = await options.sessions.authenticate(request);
      if (!accountId) return refuseSession(reply);
      bindActorToLog(request, reply, { accountId });
      await change(accountId, merged, { answers: parsed.patch });
    }
    return { message: 'Saved.' };
  });

  function refuseSession(reply: FastifyReply): never {
    options.sessions.clearCookies(reply);
    throw new HttpError(401, SESSION_ENDED_MESSAGE);
  }

  await app.register(async (signedIn) => {
    const app = signedIn.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', options.sessions.requireSession.bind(options.sessions));
    app.put('/api/last-page', { schema: { body: lastPageSchema } }, async (request) => {
      await change(request.accountId, sql`last_page = ${request.body.last_page}`, {
        lastPage: request.body.last_page,
      });
      return { message: 'Saved.' };
    });

    app.get('/api/tabs', async (request) => (await state(request.accountId)).tabs);

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
      const entry = JSON.stringify({ [tabId]: chosen });
      await change(request.accountId, sql`tabs = ${applications.tabs} || ${entry}::jsonb`, {
        tabs: { [tabId]: chosen },
      });
      return { message: 'Saved.' };
    });

    app.get('/api/add-another', async (request) => (await state(request.accountId)).addAnother);

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
      const entry = JSON.stringify({ [buttonId]: count });
      await change(
        request.accountId,
        sql`add_another = ${applications.addAnother} || ${entry}::jsonb`,
        { addAnother: { [buttonId]: count } },
      );
      return { message: 'Saved.' };
    });

    app.post('/api/web-status', { schema: { body: webStatusSchema } }, async (request) => {
      const { web_status: status } = request.body;
      const current = await state(request.accountId);
      if (status === 'submitted') {
        // Only a successful submit records it; repeating it afterwards is harmless.
        if (!current.submitted)
          throw new HttpError(409, 'Submit the application to mark it submitted.');
        return { web_status: status };
      }
      if (current.submitted) throw submittedConflict();
      const sequence = status === 'validating' ? ['started', 'validating'] : ['started'];
      await recordStatuses(db, request.accountId, sequence);
      return { web_status: status };
    });

    app.post('/api/validations', { schema: { body: validationsSchema } }, async (request) => {
      await db
        .insert(validationReports)
        .values({ accountId: request.accountId, errors: request.body.errors });
      return { message: 'Saved.' };
    });

    app.post('/api/submit', async (request, reply) => {
      const outcome = await db.transaction(async (tx) => {
        await tx
          .insert(applications)
          .values({ accountId: request.accountId })
          .onConflictDoNothing();
        const [row] = await tx
          .select()
          .from(applications)
          .where(eq(applications.accountId, request.accountId))
          .for('update');
        if (!row || row.submittedAt) return { kind: 'submitted-before' as const };
        const formState = {
          answers: row.answers as Answers,
          addAnother: row.addAnother,
          tabs: row.tabs,
          isLoggedIn: true,
        };
        // Hidden answers are cleared by the server too, with the same rules as the browser.
        const cleared = hiddenAnswersPatch(model, formState);
        const answers = { ...formState.answers, ...cleared };
        const documents = new Set(
          Object.keys(await completedDocumentAnswers(tx, request.accountId)),
        );
        const errors = validateAnswers(
          model,
          { ...formState, answers },
          { today: today(), documents },
        );
        if (Object.keys(errors).length > 0) return { kind: 'invalid' as const, errors };
        await tx
          .update(applications)
          .set({ answers, submittedAt: sql`now()`, updatedAt: sql`now()` })
          .where(
            and(eq(applications.accountId, request.accountId), isNull(applications.submittedAt)),
          );
        await recordStatuses(tx, request.accountId, ['started', 'validating', 'submitted']);
        return { kind: 'submitted' as const };
      });
      if (outcome.kind === 'submitted-before') throw submittedConflict();
      if (outcome.kind === 'invalid') {
        return reply.status(422).send({ message: ERROR_SUMMARY_TITLE, errors: outcome.errors });
      }
      await options.onSubmitted?.(request.accountId);
      return { message: SUBMITTED_MESSAGE };
    });
  });

  async function state(accountId: string) {
    const [row] = await db
      .select({
        tabs: applications.tabs,
        addAnother: applications.addAnother,
        submittedAt: applications.submittedAt,
      })
      .from(applications)
      .where(eq(applications.accountId, accountId));
    return {
      tabs: row?.tabs ?? {},
      addAnother: row?.addAnother ?? {},
      submitted: Boolean(row?.submittedAt),
    };
  }
};

/** Statuses are recorded once each and in order: a later one brings the earlier ones with it. */
async function recordStatuses(
  db: Pick<AppDatabase, 'insert'>,
  accountId: string,
  statuses: string[],
): Promise<void> {
  for (const webStatus of statuses) {
    await db.insert(webStatuses).values({ accountId, webStatus }).onConflictDoNothing();
  }
}
