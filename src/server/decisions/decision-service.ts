import type { ReleasedDecision } from '../../shared/api/status';
import { STATUS_MESSAGES } from '../../shared/api/status';
import { type DecisionCode, letterTemplateOf } from '../../shared/decisions/decision-config';
import {
  fillLetter,
  formatDeadline,
  letterValues,
  replyDeadlineAt,
} from '../../shared/decisions/letter';
import { COMPLETION_ROUTE } from '../../shared/routes';
import type { ListViewer } from '../../shared/staff/application-list-api';
import {
  type BatchResult,
  DECISION_MESSAGES,
  type DecisionCodeView,
  type StaffDecision,
} from '../../shared/staff/decision-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { parseSelectionQueryString } from '../applications-list/application-selection';
import { selectionCondition } from '../applications-list/application-selection-store';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Env } from '../config/env';
import type { AppDatabase } from '../db/database';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import type { JobLog } from '../jobs/job-runner';
import { startPeriodic } from '../jobs/periodic';
import { brandedMail } from '../mail/account-messages';
import type { Mailer, MailMessage } from '../mail/mailer';
import {
  applicationSubmitted,
  batchSelection,
  type DecisionRow,
  decisionOf,
  lockDueDecisions,
  markReleased,
  type Recorder,
  releasedDecisionOf,
  saveDecision,
  saveDecisions,
  saveReply,
  scheduleRelease,
  scheduleReleases,
} from './decisions-store';
import { letterHtml } from './letter-html';

/** How often servers that run jobs look for scheduled releases that are due. */
export const RELEASE_INTERVAL_MS = 30_000;
/** Decisions released per transaction: a batch of 5,000 is released in steps, not one lock. */
const RELEASE_BATCH = 100;
/** A batch changes at most this many applications at once. */
export const BATCH_MAX = 5_000;

/** Who releases a decision: the release runs on a timer, not for a request. */
export const RELEASE_ACTOR: AuditActor = { type: 'system', label: 'decision release' };

export const DECISION_MAIL_SUBJECT = 'A decision on your application is available';

/** Used only if the tenant has since removed the decision's code: the release still says what it is. */
const FALLBACK_LETTER =
  'Dear {{first_name}},\n\nThe decision on your application to {{partner_name}} for {{term}}: **{{decision}}**.';

export interface DecisionServiceDeps {
  db: AppDatabase;
  tenant: TenantConfig;
  mailer: Mailer;
  audit: AuditTrail;
  env: Pick<Env, 'PUBLIC_URL'>;
  log?: JobLog;
}

export interface StaffCaller {
  actor: AuditActor;
  recorder: Recorder;
  ip: string | null;
  /** Who the list is for: its reading filters match only what they may see. */
  viewer?: ListViewer;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The offer's last moment: the end of the configured day in the office's time zone. */
export function replyDeadlineOf(config: TenantConfig['decisions']): Date | null {
  return config.reply_deadline ? replyDeadlineAt(config.reply_deadline, config.time_zone) : null;
}

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { [field]: [message] });
}

/**
 * Decisions: recorded and changed by staff until released; released at once or when due (by
 * whichever server claims the row first); answered by the applicant when they are offers.
 * Nothing of a decision reaches the applicant before it is released.
 */
export function createDecisionService(deps: DecisionServiceDeps) {
  const { db, tenant, mailer, audit } = deps;
  const codes = new Map(tenant.decisions.codes.map((code) => [code.code, code]));
  const codeOf = (code: string): DecisionCode | undefined => codes.get(code);
  const labelOf = (code: string) => codeOf(code)?.label ?? code;
  const mail = brandedMail(tenant);

  function staffView(row: DecisionRow): StaffDecision {
    return {
      code: row.code,
      label: labelOf(row.code),
      recorded_by: row.recordedByLabel,
      recorded_at: row.recordedAt.toISOString(),
      release_at: iso(row.releaseAt),
      released_at: iso(row.releasedAt),
      reply: row.reply ?? null,
      replied_at: iso(row.repliedAt),
      reply_deadline: iso(row.replyDeadline),
    };
  }

  /** Only for a released row: the applicant's whole view of a decision. */
  function releasedView(row: DecisionRow): ReleasedDecision {
    if (!row.releasedAt) throw new Error('an unreleased decision never reaches the applicant');
    return {
      label: labelOf(row.code),
      released_at: row.releasedAt.toISOString(),
      letter_html: letterHtml(
        row.letter ?? '',
        row.replyDeadline
          ? {
              at: row.replyDeadline,
              text: formatDeadline(row.replyDeadline, tenant.decisions.time_zone),
            }
          : undefined,
      ),
      offer: codeOf(row.code)?.offer ?? false,
      reply_deadline: iso(row.replyDeadline),
      reply: row.reply ?? null,
      replied_at: iso(row.repliedAt),
    };
  }

  function releaseMail(to: string): MailMessage {
    const base = deps.env.PUBLIC_URL?.replace(/\/+$/, '');
    // Says only that there is a decision: mail can be read by others, and a letter deserves
    // to be read where the applicant chooses to sign in.
    return mail(
      to,
      DECISION_MAIL_SUBJECT,
      [
        `A decision on your application to ${tenant.partner_name} is now available.`,
        'Sign in to your application account to read it.',
      ],
      base ? { label: 'Sign in to read it', url: `${base}${COMPLETION_ROUTE}` } : undefined,
    );
  }

  async function releaseDue(options: { now?: Date; only?: readonly string[] } = {}) {
    let released = 0;
    for (;;) {
      const messages: MailMessage[] = [];
      const claimed = await db.transaction(async (tx) => {
        const due = await lockDueDecisions(
          tx,
          RELEASE_BATCH,
          options.now ?? null,
          options.only ?? null,
        );
        for (const row of due) {
          const code = codeOf(row.code);
          if (!code) deps.log?.warn({ code: row.code }, 'released a decision of an unknown code');
          const letter = fillLetter(
            code ? letterTemplateOf(code, tenant.decisions) : FALLBACK_LETTER,
            letterValues({
              answers: row.answers,
              decisionLabel: labelOf(row.code),
              confirmationNumber: row.confirmationNumber,
              replyDeadline: replyDeadlineOf(tenant.decisions),
              timeZone: tenant.decisions.time_zone,
              partnerName: tenant.partner_name,
            }),
          );
          const at = await markReleased(tx, row.accountId, {
            letter,
            replyDeadline: code?.offer ? replyDeadlineOf(tenant.decisions) : null,
            at: options.now ?? null,
          });
          if (!at) continue;
          await audit.record(
            {
              actor: RELEASE_ACTOR,
              action: 'decision.released',
              applicationId: row.accountId,
              detail: { code: row.code },
            },
            tx,
          );
          messages.push(releaseMail(row.email));
          released += 1;
        }
        return due.length;
      });
      // After the commit: a rolled-back release must not have told anyone.
      for (const message of messages) mailer.send(message);
      if (claimed < RELEASE_BATCH) return released;
    }
  }

  async function selectionOf(query: string, kind: 'record' | 'release', viewer?: ListViewer) {
    const parsed = parseSelectionQueryString(query, undefined, viewer);
    const selection = await selectionCondition(db, parsed.request);
    const found = selection
      ? await batchSelection(db, selection.where, kind, BATCH_MAX + 1)
      : { matched: 0, submitted: 0, ids: [] };
    if (found.submitted === 0) throw invalid('query', DECISION_MESSAGES.batchEmpty);
    if (found.ids.length > BATCH_MAX) throw invalid('query', DECISION_MESSAGES.batchTooMany);
    return { parsed, found };
  }

  function releaseTime(at: string | undefined): Date | null {
    if (at === undefined) return null;
    const when = new Date(at);
    if (when.getTime() <= Date.now()) throw invalid('at', DECISION_MESSAGES.releaseInPast);
    return when;
  }

  function knownCode(code: string): DecisionCode {
    const found = codeOf(code);
    if (!found) throw invalid('code', DECISION_MESSAGES.code);
    return found;
  }

  return {
    labelOf,
    staffView,

    codes(): DecisionCodeView[] {
      return tenant.decisions.codes.map(({ code, label, offer }) => ({ code, label, offer }));
    },

    async staffDecisionOf(accountId: string): Promise<StaffDecision | null> {
      const row = await decisionOf(db, accountId);
      return row ? staffView(row) : null;
    },

    async record(accountId: string, code: string, caller: StaffCaller): Promise<StaffDecision> {
      return db.transaction(async (tx) => {
        const application = await applicationSubmitted(tx, accountId);
        if (!application) throw new HttpError(404, NOT_FOUND_MESSAGE);
        if (!application.submitted) throw new HttpError(409, DECISION_MESSAGES.notSubmitted);
        knownCode(code);
        const current = await decisionOf(tx, accountId, { lock: true });
        if (current?.releasedAt) throw new HttpError(409, DECISION_MESSAGES.released);
        if (current?.code === code) return staffView(current);
        const saved = await saveDecision(tx, accountId, code, caller.recorder);
        if (!saved) throw new HttpError(409, DECISION_MESSAGES.released);
        await audit.record(
          {
            actor: caller.actor,
            action: current ? 'decision.changed' : 'decision.recorded',
            applicationId: accountId,
            detail: current ? { code, previous: current.code } : { code },
            ip: caller.ip,
          },
          tx,
        );
        return staffView(saved);
      });
    },

    async release(
      accountId: string,
      at: string | undefined,
      caller: StaffCaller,
    ): Promise<StaffDecision> {
      const when = releaseTime(at);
      await db.transaction(async (tx) => {
        if (!(await applicationSubmitted(tx, accountId))) {
          throw new HttpError(404, NOT_FOUND_MESSAGE);
        }
        const current = await decisionOf(tx, accountId, { lock: true });
        if (!current) throw new HttpError(409, DECISION_MESSAGES.noDecision);
        if (current.releasedAt) throw new HttpError(409, DECISION_MESSAGES.releaseTwice);
        await scheduleRelease(tx, accountId, when);
        await audit.record(
          {
            actor: caller.actor,
            action: 'decision.release_scheduled',
            applicationId: accountId,
            detail: {
              code: current.code,
              at: when ? when.toISOString() : 'now',
              previous: iso(current.releaseAt),
            },
            ip: caller.ip,
          },
          tx,
        );
      });
      if (!when) await releaseDue({ only: [accountId] });
      const row = await decisionOf(db, accountId);
      if (!row) throw new HttpError(404, NOT_FOUND_MESSAGE);
      return staffView(row);
    },

    async recordBatch(query: string, code: string, caller: StaffCaller): Promise<BatchResult> {
      knownCode(code);
      const { parsed, found } = await selectionOf(query, 'record', caller.viewer);
      const changed = await db.transaction(async (tx) => {
        const ids = await saveDecisions(tx, found.ids, code, caller.recorder);
        await audit.record(
          {
            actor: caller.actor,
            action: 'decision.recorded',
            detail: {
              batch: true,
              code,
              query: parsed.queryString,
              filters: parsed.filters,
              count: ids.length,
              skipped: found.matched - ids.length,
            },
            ip: caller.ip,
          },
          tx,
        );
        return ids;
      });
      return { count: changed.length, skipped: found.matched - changed.length };
    },

    async releaseBatch(
      query: string,
      at: string | undefined,
      caller: StaffCaller,
    ): Promise<BatchResult> {
      const when = releaseTime(at);
      const { parsed, found } = await selectionOf(query, 'release', caller.viewer);
      const changed = await db.transaction(async (tx) => {
        const ids = await scheduleReleases(tx, found.ids, when);
        await audit.record(
          {
            actor: caller.actor,
            action: 'decision.release_scheduled',
            detail: {
              batch: true,
              at: when ? when.toISOString() : 'now',
              query: parsed.queryString,
              filters: parsed.filters,
              count: ids.length,
              skipped: found.matched - ids.length,
            },
            ip: caller.ip,
          },
          tx,
        );
        return ids;
      });
      if (!when) await releaseDue();
      return { count: changed.length, skipped: found.matched - changed.length };
    },

    /** The applicant's decision: null until it is released, whatever is recorded. */
    async releasedDecision(accountId: string): Promise<ReleasedDecision | null> {
      const row = await releasedDecisionOf(db, accountId);
      return row ? releasedView(row) : null;
    },

    /** The released letter (Markdown) for its PDF; null before release. */
    async releasedLetter(accountId: string): Promise<{ letter: string; releasedAt: Date } | null> {
      const row = await releasedDecisionOf(db, accountId);
      return row?.releasedAt ? { letter: row.letter ?? '', releasedAt: row.releasedAt } : null;
    },

    async reply(
      accountId: string,
      reply: 'accepted' | 'declined',
      ip: string | null,
    ): Promise<ReleasedDecision> {
      return db.transaction(async (tx) => {
        const row = await releasedDecisionOf(tx, accountId, { lock: true });
        if (!row) throw new HttpError(404, STATUS_MESSAGES.noDecision);
        if (!codeOf(row.code)?.offer) throw new HttpError(409, STATUS_MESSAGES.replyNotOffer);
        if (row.reply) throw new HttpError(409, STATUS_MESSAGES.replyTwice);
        if (row.replyDeadline && Date.now() > row.replyDeadline.getTime()) {
          throw new HttpError(409, STATUS_MESSAGES.replyClosed);
        }
        const saved = await saveReply(tx, accountId, reply);
        if (!saved) throw new HttpError(409, STATUS_MESSAGES.replyTwice);
        await audit.record(
          {
            actor: { type: 'applicant', id: accountId },
            action: 'decision.replied',
            applicationId: accountId,
            detail: { code: row.code, reply },
            ip,
          },
          tx,
        );
        return releasedView(saved);
      });
    },

    releaseDue,

    /**
     * Releases what is due now (a release that fell due while no server ran happens here) and
     * then every `intervalMs`, one run at a time.
     */
    startReleases(log: JobLog, intervalMs = RELEASE_INTERVAL_MS): { stop(): Promise<void> } {
      return startPeriodic(log, 'releasing decisions failed', intervalMs, async () => {
        await releaseDue();
      });
    },
  };
}

export type DecisionService = ReturnType<typeof createDecisionService>;
