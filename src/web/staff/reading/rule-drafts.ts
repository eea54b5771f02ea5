import { type ReviewRule, reviewRuleSchema } from '../../../shared/review/review-api';
import type { StoredRule } from './reading-calls';
import { type ConditionChoices, choicesOf, conditionOf } from './rule-condition';

/** A rule while it is edited: the condition as the builder's choices, the cap as typed. */
export interface RuleDraft {
  /** Only for the page, to keep each rule's fields when rules move. */
  localId: string;
  name: string;
  choices: ConditionChoices;
  readerIds: string[];
  cap: string;
  enabled: boolean;
}

export function draftOf(rule: StoredRule, localId: string): RuleDraft {
  return {
    localId,
    name: rule.name,
    choices: choicesOf(rule.match),
    readerIds: [...rule.reader_ids],
    cap: rule.cap === null ? '' : String(rule.cap),
    enabled: rule.enabled,
  };
}

export function emptyDraft(localId: string): RuleDraft {
  return {
    localId,
    name: '',
    choices: { programs: [], states: [], other: null },
    readerIds: [],
    cap: '',
    enabled: true,
  };
}

/** The rules in their order, checked by the shared schema; else each rule's messages. */
export function rulesOf(
  drafts: readonly RuleDraft[],
): { ok: true; rules: ReviewRule[] } | { ok: false; errors: Record<string, string[]> } {
  const rules: ReviewRule[] = [];
  const errors: Record<string, string[]> = {};
  for (const draft of drafts) {
    const cap = draft.cap.trim();
    const capValue = cap === '' ? null : /^\d{1,5}$/.test(cap) ? Number(cap) : Number.NaN;
    const messages: string[] = [];
    const capWrong = capValue !== null && !(capValue >= 1 && capValue <= 10_000);
    if (capWrong) messages.push('Enter a cap from 1 to 10,000, or leave it empty.');
    const result = reviewRuleSchema.safeParse({
      name: draft.name,
      match: conditionOf(draft.choices),
      reader_ids: draft.readerIds,
      // A wrong cap has its own message above; the schema is asked about the rest.
      cap: capWrong ? null : capValue,
      enabled: draft.enabled,
    });
    if (result.success) rules.push(result.data);
    else messages.push(...new Set(result.error.issues.map((issue) => issue.message)));
    if (messages.length > 0) errors[draft.localId] = messages;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, rules };
}

/** The list with one rule moved by `by` places (-1 up, 1 down); unchanged at either end. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}
