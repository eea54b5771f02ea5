import {
  type CourseworkAnswer,
  collegeCourseworkOf,
  parseCourseworkAnswer,
} from '../coursework/coursework-answer';
import type { CourseworkRules } from '../coursework/coursework-grading';
import { type CourseworkTotals, computeCourseworkTotals } from '../coursework/coursework-totals';
import type { Answers, FormModel, FormState } from './model';
import { type ResolvedField, type ResolvedInstance, resolveModel } from './resolve';

/** One shown coursework grid with an answer: whose it is and what it holds. */
export interface EnteredCoursework {
  /** The grid's full answer key: `college1_coursework`. */
  key: string;
  /** The college as the grid's `collegeKeys` name it: CEEB code, else name. */
  college: string;
  instance: ResolvedInstance | null;
  answer: CourseworkAnswer;
}

/** Which college a grid belongs to, read from its first answered college key. */
function collegeOf(keys: readonly string[], answers: Answers, resolveKey: (key: string) => string) {
  for (const key of keys) {
    const value = answers[resolveKey(key)];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return '';
}

/**
 * Every shown grid's coursework in the model's order: what the totals, the read-only view, the
 * PDF and exports read. Hidden grids (a college removed or not named) have none, as at submit.
 */
export function enteredCoursework(
  model: FormModel,
  state: FormState,
  /** `resolveModel(model, state)` when the caller has it already. */
  resolved: readonly ResolvedField[] = resolveModel(model, state),
): EnteredCoursework[] {
  const entered: EnteredCoursework[] = [];
  for (const place of resolved) {
    const grid = place.field.coursework;
    if (!grid || !place.visible) continue;
    const value = state.answers[place.key];
    if (typeof value !== 'string') continue;
    const parsed = parseCourseworkAnswer(value);
    if (!parsed.ok || !parsed.answer) continue;
    entered.push({
      key: place.key,
      college: collegeOf(grid.collegeKeys, state.answers, place.resolveKey),
      instance: place.instance,
      answer: parsed.answer,
    });
  }
  return entered;
}

/** The transfer GPA and units of what is entered, college by college in `entered`'s order. */
export function courseworkTotalsOf(
  entered: readonly EnteredCoursework[],
  rules: CourseworkRules,
): CourseworkTotals {
  return computeCourseworkTotals(
    entered.map((grid) => collegeCourseworkOf(grid.college, grid.answer)),
    rules,
  );
}
