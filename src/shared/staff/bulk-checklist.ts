import { z } from 'zod';
import type { FormModel } from '../form/model';
import { walkModel } from '../form/traverse';
import { CHECKLIST_ITEM_KEY_PATTERN } from './application-api';
import {
  APPLICATION_CHECKLIST_SOURCES,
  CHECKLIST_LABELS,
  type ChecklistSources,
  type TenantChecklistItem,
} from './checklist';
import { STAFF_API } from './staff-api';

/*
 * One checklist item marked for many applications at once: a list's query (as exports and batch
 * decisions take it) or a selection of rows, with the count the member confirmed, so a list that
 * changed between the confirmation and the request is refused rather than marked.
 */

/** The most applications one request marks: one transaction, a few seconds at most. */
export const BULK_CHECKLIST_MAX = 5_000;

export const BULK_CHECKLIST_API = {
  mark: `${STAFF_API}/checklist/bulk`,
  items: `${STAFF_API}/checklist/items`,
} as const;

export const BULK_CHECKLIST_MESSAGES = {
  oneOf: 'Give either the list (query) or the selected applications (application_ids), not both.',
  ids: 'application_ids is a list of application ids.',
  tooManyIds: `Select at most ${BULK_CHECKLIST_MAX.toLocaleString('en-US')} applications.`,
  tooMany: `A bulk mark holds at most ${BULK_CHECKLIST_MAX.toLocaleString('en-US')} applications. Narrow the filters.`,
  item: 'Choose a checklist item.',
  received: 'received is true or false.',
  expectedCount: 'expected_count is the number of applications you confirmed.',
  empty: 'No applications match: nothing to mark.',
  noSuchItem: 'None of these applications has this checklist item.',
  countChanged: (now: number, expected: number) =>
    `The list now holds ${now.toLocaleString('en-US')} applications, not ${expected.toLocaleString('en-US')}. Check the list and confirm again.`,
} as const;

/** POST /staff/api/checklist/bulk */
export const bulkChecklistSchema = z
  .strictObject({
    /** The list's query string (filters, search, sort), as the exports take it. */
    query: z.string({ error: BULK_CHECKLIST_MESSAGES.oneOf }).max(2000).optional(),
    application_ids: z
      .array(z.uuid(BULK_CHECKLIST_MESSAGES.ids), { error: BULK_CHECKLIST_MESSAGES.ids })
      .min(1, BULK_CHECKLIST_MESSAGES.ids)
      .max(BULK_CHECKLIST_MAX, BULK_CHECKLIST_MESSAGES.tooManyIds)
      .optional(),
    item_key: z
      .string({ error: BULK_CHECKLIST_MESSAGES.item })
      .regex(CHECKLIST_ITEM_KEY_PATTERN, BULK_CHECKLIST_MESSAGES.item),
    received: z.boolean({ error: BULK_CHECKLIST_MESSAGES.received }),
    expected_count: z
      .number({ error: BULK_CHECKLIST_MESSAGES.expectedCount })
      .int(BULK_CHECKLIST_MESSAGES.expectedCount)
      .min(1, BULK_CHECKLIST_MESSAGES.expectedCount)
      .max(BULK_CHECKLIST_MAX, BULK_CHECKLIST_MESSAGES.tooMany),
  })
  .superRefine((body, context) => {
    if ((body.query === undefined) === (body.application_ids === undefined))
      context.addIssue({ code: 'custom', path: ['query'], message: BULK_CHECKLIST_MESSAGES.oneOf });
  });
export type BulkChecklistInput = z.input<typeof bulkChecklistSchema>;
export type BulkChecklistRequest = z.output<typeof bulkChecklistSchema>;

/** What a bulk mark did: applications changed, already in that state, without the item. */
export const bulkChecklistResultSchema = z.object({
  marked: z.number().int(),
  already: z.number().int(),
  not_applicable: z.number().int(),
});
export type BulkChecklistResult = z.infer<typeof bulkChecklistResultSchema>;

/** One item a bulk mark may name, as the panel offers it. */
export const bulkChecklistItemSchema = z.object({ key: z.string(), label: z.string() });
export type BulkChecklistItem = z.infer<typeof bulkChecklistItemSchema>;
export const bulkChecklistItemsSchema = z.object({ items: z.array(bulkChecklistItemSchema) });

/**
 * Every item an application of this model can have, with a label that fits all of them: the
 * file questions, one official transcript per college the form lets an applicant name (its
 * college differs between applications, so the label names its place), the fee (or its
 * waiver) and the tenant's items. The same keys deriveChecklistItems gives.
 */
export function bulkChecklistItems(
  model: FormModel,
  tenantItems: readonly TenantChecklistItem[] = [],
  sources: ChecklistSources = APPLICATION_CHECKLIST_SOURCES,
): BulkChecklistItem[] {
  const documents = new Map<string, string>();
  let colleges = 0;
  walkModel(
    model,
    {
      item(item, place) {
        if (item.kind === 'field' && item.widget === 'file') {
          const key = `document:${place.prefix}${item.key}`;
          if (!documents.has(key)) documents.set(key, item.label);
        }
        if (item.kind === 'repeat' && item.id === sources.collegesRepeatId)
          colleges = Math.max(colleges, item.instances.length);
      },
    },
    null,
  );
  const ordinal = ['first', 'second', 'third', 'fourth', 'fifth'];
  return [
    ...[...documents].map(([key, label]) => ({ key, label })),
    ...Array.from({ length: colleges }, (_, index) => ({
      key: `transcript:${index + 1}`,
      label: `Official transcript (${ordinal[index] ?? `college ${index + 1}`} college)`,
    })),
    { key: 'fee', label: `${CHECKLIST_LABELS.fee} (or its waiver)` },
    ...tenantItems.map((item) => ({ key: `tenant:${item.id}`, label: item.label })),
  ];
}
