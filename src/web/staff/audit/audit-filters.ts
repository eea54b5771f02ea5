import { z } from 'zod';
import { AUDIT_FILTER_NAMES, type AuditFilters } from './audit-calls';

const DATE_MESSAGE = 'Use a date such as 2026-09-01.';
const APPLICATION_MESSAGE =
  'Enter an application id, such as 0b0e4a52-6f0c-4d3e-9a43-8d5f5f1c2e11.';
export const DATE_ORDER_MESSAGE = 'The "to" date must be on or after the "from" date.';

const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`);
const optionalDate = z
  .string()
  .trim()
  .refine((value) => value === '' || z.iso.date().safeParse(value).success, DATE_MESSAGE);

/**
 * The audit filters as the form holds them: text, empty meaning "any". The rules are those of
 * the server's auditQuerySchema, which reads the same values from the address.
 */
export const auditFilterForm = z
  .strictObject({
    actor: optionalText(254),
    application: z
      .string()
      .trim()
      .refine((value) => value === '' || z.uuid().safeParse(value).success, APPLICATION_MESSAGE),
    action: optionalText(60),
    from: optionalDate,
    to: optionalDate,
  })
  .superRefine((form, context) => {
    if (form.from && form.to && form.to < form.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: DATE_ORDER_MESSAGE });
    }
  });

export type AuditFilterValues = Record<(typeof AUDIT_FILTER_NAMES)[number], string>;

/** The filters the address carries; anything else in it is ignored. */
export function filtersFromSearch(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTER_NAMES) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

export function filterValues(filters: AuditFilters): AuditFilterValues {
  return {
    actor: filters.actor ?? '',
    application: filters.application ?? '',
    action: filters.action ?? '',
    from: filters.from ?? '',
    to: filters.to ?? '',
  };
}

/** The address's search for the given form values: only the filters that are set. */
export function searchForValues(values: AuditFilterValues): Record<string, string> {
  const search: Record<string, string> = {};
  for (const name of AUDIT_FILTER_NAMES) {
    const value = values[name].trim();
    if (value) search[name] = value;
  }
  return search;
}

/** A detail value as text: strings as they are, anything else as JSON. */
export function detailText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** "staff.role_changed" as people read it: "staff role changed". */
export function actionLabel(action: string): string {
  return action.replace(/[._]/g, ' ');
}

/** How many applications an entry about many covered, by where each action keeps the count. */
const COUNT_KEYS: Record<string, string> = {
  'application.search': 'found',
  'applications.export_csv': 'rows',
  'applications.export_courses_csv': 'rows',
  'applications.export_zip': 'rows',
  'applications.export_zip_download': 'rows',
  // A batch's decisions and releases (an entry about one application has its id instead).
  'decision.recorded': 'count',
  'decision.release_scheduled': 'count',
  // A list's assignment: the applications given reads (its count is of the reads).
  'review.assigned': 'applications',
};

/**
 * The Application column of an entry about no one application: what a search, an export or a
 * batch decision covered ("42 applications"), or null when the entry concerns no application.
 */
export function coveredText(action: string, detail: Record<string, unknown> | null): string | null {
  const key = COUNT_KEYS[action];
  const count = key ? detail?.[key] : undefined;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return null;
  return `${count.toLocaleString('en-US')} application${count === 1 ? '' : 's'}`;
}
