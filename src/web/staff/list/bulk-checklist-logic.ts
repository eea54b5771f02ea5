import { BULK_CHECKLIST_MAX, type BulkChecklistResult } from '../../../shared/staff/bulk-checklist';

/*
 * What the bulk checklist panel says: which applications a mark applies to, the question that
 * confirms it with the count, and what was done. Pure, so the sentences are tested here.
 */

const number = (value: number) => value.toLocaleString('en-US');
const applications = (count: number) =>
  `${number(count)} ${count === 1 ? 'application' : 'applications'}`;

export type BulkTarget = 'selected' | 'list';

/** The state a mark gives, in the panel's words. */
export const stateWord = (received: boolean) => (received ? 'received' : 'not received');

/** The question the confirmation asks: "Mark Official transcript received for 1,240 applications?" */
export function confirmQuestion(label: string, received: boolean, count: number): string {
  return `Mark ${label} ${stateWord(received)} for ${applications(count)}?`;
}

/** Why the whole list cannot be marked at once, or null when it can. */
export function listTargetProblem(total: number | null, exact: boolean): string | null {
  if (total === null) return 'The list is still loading.';
  if (total === 0) return 'No applications in this list.';
  if (!exact || total > BULK_CHECKLIST_MAX)
    return `A bulk mark holds at most ${number(BULK_CHECKLIST_MAX)} applications. Narrow the filters.`;
  return null;
}

/** The result, announced: what changed, what already was, what had no such item. */
export function resultSentence(result: BulkChecklistResult, label: string, received: boolean) {
  const parts = [`Marked ${label} ${stateWord(received)} for ${applications(result.marked)}.`];
  if (result.already > 0)
    parts.push(`${applications(result.already)} already ${result.already === 1 ? 'was' : 'were'}.`);
  if (result.not_applicable > 0)
    parts.push(
      `${applications(result.not_applicable)} ${result.not_applicable === 1 ? 'does' : 'do'} not have this item.`,
    );
  return parts.join(' ');
}

/** The choice of target, with its count: "The 3 selected", "All 1,240 in this list". */
export function targetLabel(target: BulkTarget, count: number | null): string {
  if (target === 'selected') return `The ${number(count ?? 0)} selected`;
  return count === null ? 'All in this list' : `All ${number(count)} in this list`;
}
