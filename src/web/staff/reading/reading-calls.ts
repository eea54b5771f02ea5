import { z } from 'zod';
import {
  CONFLICT_KINDS,
  type createConflictSchema,
  REVIEW_API,
  reviewRuleSchema,
  type saveRulesSchema,
} from '../../../shared/review/review-api';
import { conditionSchema } from '../../../shared/review/review-config';
import { deleteJson, getJson, postJson, putJson } from '../../data/http-client';
import { listReply } from '../committee/committee-calls';

/*
 * The reading settings' calls (src/shared/review/review-api.ts has the paths). Replies whose
 * schema the contract does not name yet are read leniently: what is there is shown.
 */

/** A stored rule as the server sends it: the saved shape, with anything else it adds ignored. */
const storedRuleSchema = z.looseObject({
  name: z.string(),
  match: conditionSchema.nullable().catch(null),
  reader_ids: z.array(z.string()).catch([]),
  cap: z.number().int().nullable().catch(null),
  enabled: z.boolean().catch(true),
});
export type StoredRule = z.infer<typeof storedRuleSchema>;

export const conflictViewSchema = z.looseObject({
  id: z.string(),
  reader_id: z.string(),
  reader_name: z.string().nullable().optional(),
  kind: z.enum(CONFLICT_KINDS),
  value: z.string(),
  note: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
});
export type ConflictView = z.infer<typeof conflictViewSchema>;

/** Agreement between first and second reads in a cycle; any figure may be absent. */
export const agreementRowSchema = z.looseObject({
  cycle: z.string(),
  count: z.number().nullable().optional(),
  mean_difference: z.number().nullable().optional(),
  within_gap_share: z.number().nullable().optional(),
});
export type AgreementRow = z.infer<typeof agreementRowSchema>;

export const readingCalls = {
  rules: () => getJson<unknown>(REVIEW_API.rules).then(listReply(storedRuleSchema, 'rules')),
  saveRules: (body: z.infer<typeof saveRulesSchema>) => putJson<unknown>(REVIEW_API.rules, body),
  conflicts: () =>
    getJson<unknown>(REVIEW_API.conflicts).then(listReply(conflictViewSchema, 'conflicts')),
  addConflict: (body: z.input<typeof createConflictSchema>) =>
    postJson<unknown>(REVIEW_API.conflicts, body),
  deleteConflict: (conflictId: string) =>
    deleteJson<unknown>(`${REVIEW_API.conflicts}/${encodeURIComponent(conflictId)}`),
  agreement: () =>
    getJson<unknown>(REVIEW_API.agreement).then(
      listReply(agreementRowSchema, 'cycles', 'agreement', 'items'),
    ),
};

export const readingKeys = {
  rules: ['staff', 'reading', 'rules'] as const,
  conflicts: ['staff', 'reading', 'conflicts'] as const,
  agreement: ['staff', 'reading', 'agreement'] as const,
};

/** The rule as saved: checked by the shared schema before it is sent. */
export const ruleForSave = reviewRuleSchema;

/** A share (0 to 1, or already a percentage) as a percentage. */
export function percentText(share: number | null | undefined): string {
  if (share === null || share === undefined) return '';
  const percent = share <= 1 ? share * 100 : share;
  return `${Math.round(percent)}%`;
}
