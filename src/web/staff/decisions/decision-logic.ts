import { formatDeadline as sayDeadline } from '../../../shared/decisions/letter';
import type {
  BatchResult,
  DecisionCodeView,
  StaffDecision,
} from '../../../shared/staff/decision-api';
import { LIST_FILTERS, type ListFilterRow } from '../../../shared/staff/list-filters';
import type { ListQuery } from '../../../shared/staff/list-query';
import type { FilterLabels } from '../common/list-filter-choices';

/*
 * The sentences and conversions of decisions in the console, kept apart from the components so
 * they are tested without a browser.
 */

export const RELEASE_TIME_MISSING = 'Enter the date and time of the release.';

/** Minutes to add to local time to reach UTC, as Date.getTimezoneOffset answers (UTC-5: 300). */
export type TimezoneOffsetOf = (date: Date) => number;

const browserOffset: TimezoneOffsetOf = (date) => date.getTimezoneOffset();

const two = (value: number) => String(value).padStart(2, '0');

/**
 * A datetime-local value (`2027-03-15T17:00`, the reader's own clock) as ISO 8601 with the
 * browser's offset for that date (`2027-03-15T17:00:00-04:00`), so the server releases at the
 * moment the reader meant whatever zone it runs in, summer time included. Null for anything
 * that is not a whole date and time.
 */
export function localInputToIso(
  value: string,
  offsetOf: TimezoneOffsetOf = browserOffset,
): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  ) {
    return null;
  }
  const local = new Date(year, month - 1, day, hour, minute, second);
  // new Date rolls 31 February over into March: such a date was never a real one.
  if (local.getFullYear() !== year || local.getMonth() !== month - 1 || local.getDate() !== day) {
    return null;
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ahead = -offsetOf(local);
  const sign = ahead < 0 ? '-' : '+';
  const size = Math.abs(ahead);
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}${sign}${two(Math.floor(size / 60))}:${two(size % 60)}`;
}

/** A moment as a datetime-local value on the reader's clock: the picker's earliest choice. */
export function localInputOf(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

type Format = (iso: string) => string;

/** Where the decision stands: not released, scheduled, or released. */
export function releaseStateText(
  decision: Pick<StaffDecision, 'release_at' | 'released_at'>,
  format: Format,
): string {
  if (decision.released_at) return `Released ${format(decision.released_at)}`;
  if (decision.release_at) return `Release scheduled for ${format(decision.release_at)}`;
  return 'Not released';
}

export function isReleased(decision: Pick<StaffDecision, 'released_at'> | null): boolean {
  return decision?.released_at != null;
}

/**
 * The applicant's answer to an offer, or what is still awaited; null when the decision is not
 * an offer, or not released yet (nothing can be answered before), and nothing was answered.
 */
export function replyText(
  decision: Pick<StaffDecision, 'released_at' | 'reply' | 'replied_at' | 'reply_deadline'>,
  offer: boolean,
  format: Format,
  formatDate: Format,
): string | null {
  if (decision.reply) {
    const what = decision.reply === 'accepted' ? 'Offer accepted' : 'Offer declined';
    return decision.replied_at ? `${what} ${format(decision.replied_at)}` : what;
  }
  if (decision.released_at === null) return null;
  if (!offer && decision.reply_deadline === null) return null;
  return decision.reply_deadline
    ? `No reply yet (deadline ${formatDate(decision.reply_deadline)})`
    : 'No reply yet';
}

/**
 * The reply deadline as the reader reads it: date, time and their zone, named. It is the end of a
 * day in the office's zone, which a date alone would show as the next day east of it.
 */
export function formatDeadline(iso: string): string {
  return sayDeadline(iso) || iso;
}

/** What the status line says after a batch: how many changed, and how many were left alone. */
export function batchResultText(
  result: BatchResult,
  action: 'record' | 'release' | 'schedule',
): string {
  const done =
    action === 'record'
      ? `Recorded for ${result.count.toLocaleString('en-US')}`
      : action === 'release'
        ? `Released for ${result.count.toLocaleString('en-US')}`
        : `Release scheduled for ${result.count.toLocaleString('en-US')}`;
  if (result.skipped === 0) return `${done}.`;
  const why =
    action === 'record'
      ? 'not submitted or already released'
      : 'no decision recorded or already released';
  return `${done}; ${result.skipped.toLocaleString('en-US')} left alone: ${why}.`;
}

/** "Record for 12 submitted applications": the count the list shows now. */
export function batchRecordLabel(count: number | null): string {
  if (count === null) return 'Record for the submitted applications of this list';
  return `Record for ${count.toLocaleString('en-US')} submitted application${count === 1 ? '' : 's'}`;
}

/** A list row's decision: its label, marked while applicants cannot see it yet. */
export function decisionCellText(row: {
  decision?: string | null;
  decision_label?: string | null;
  decision_released?: boolean | null;
}): { label: string; unreleased: boolean } | null {
  if (!row.decision) return null;
  return { label: row.decision_label || row.decision, unreleased: row.decision_released !== true };
}

/** The codes a reply may hold, read with care: a code without an id is left out. */
export function decisionCodesOf(reply: unknown): DecisionCodeView[] {
  const list =
    typeof reply === 'object' && reply !== null && !Array.isArray(reply)
      ? (reply as { codes?: unknown }).codes
      : reply;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item): DecisionCodeView[] => {
    if (typeof item !== 'object' || item === null) return [];
    const code = (item as Record<string, unknown>).code;
    const label = (item as Record<string, unknown>).label;
    if (typeof code !== 'string' || code === '') return [];
    return [
      {
        code,
        label: typeof label === 'string' && label !== '' ? label : code,
        offer: (item as Record<string, unknown>).offer === true,
      },
    ];
  });
}

/**
 * The search and filters a batch acts on, in words, for the confirmation: a decision for every
 * application of an unfiltered list should not be a surprise.
 */
export function filtersSentence(query: ListQuery, labels: FilterLabels): string {
  const parts: string[] = [];
  const q = query.q.trim();
  if (q !== '') parts.push(`search “${q}”`);
  const given: Readonly<Record<string, unknown>> = query;
  for (const row of LIST_FILTERS as readonly ListFilterRow[]) {
    const name = row.label.toLowerCase();
    switch (row.kind) {
      case 'choice':
      case 'choices': {
        const values = given[row.name];
        if (!Array.isArray(values) || values.length === 0) break;
        const known = labels[row.name];
        // A value the lists do not know (an address edited by hand) is named as it was given;
        // fixed choices are common words, the others names.
        const label = (value: string) => {
          const found = known?.get(value);
          if (found === undefined) return value;
          return row.options.from === 'fixed' ? found.toLowerCase() : found;
        };
        parts.push(`${name}: ${values.map(String).map(label).join(' or ')}`);
        break;
      }
      case 'date_range':
        for (const [param, label] of [
          [`${row.name}_from`, row.fromLabel],
          [`${row.name}_to`, row.toLabel],
        ] as const) {
          const value = given[param];
          if (typeof value === 'string' && value !== '') {
            parts.push(`${label.toLowerCase()} ${value}`);
          }
        }
        break;
      case 'yes_no':
        if (given[row.name] === 'true') parts.push(row.yesSentence);
        if (given[row.name] === 'false') parts.push(row.noSentence);
        break;
      case 'at_least': {
        const value = given[row.name];
        if (typeof value === 'string' && value !== '') parts.push(`${row.sentence} ${value}`);
        break;
      }
    }
  }
  return parts.length === 0
    ? 'No search or filters: every application.'
    : `${capital(parts.join('; '))}.`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The submitted applications of a list: the list's own query with its status narrowed to
 * submitted, since a decision is recorded for those only. A status filter without submitted
 * leaves none, which the count then says.
 */
export function submittedQueryOf(query: ListQuery): ListQuery | null {
  if (query.status.length > 0 && !query.status.includes('submitted')) return null;
  return { ...query, status: ['submitted'], page: 1, page_size: 1 };
}
