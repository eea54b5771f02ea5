import { applicationModel } from '../../../shared/application/application-model';
import type { Condition, ConditionExpr, FormModel, OptionItem } from '../../../shared/form/model';
import { walkModel } from '../../../shared/form/traverse';

/*
 * The assignment rules' condition builder for the common cases: the program applied to, the
 * state or territory of the permanent address, or both. What it builds is the form engine's
 * condition, so the server matches it with the same code as every condition of the model; a
 * condition written another way (in the file, by hand) is kept as it is and shown as such.
 */

export const PROGRAM_KEY = 'applied_major';
export const STATE_KEY = 'state';

export interface ConditionChoices {
  programs: string[];
  states: string[];
  /** A condition the builder cannot show; kept unchanged while programs and states are empty. */
  other: ConditionExpr | null;
}

export const EVERY_APPLICATION: ConditionChoices = { programs: [], states: [], other: null };

/** A field's options in a model, without the empty choice of a select. */
export function modelOptions(model: FormModel, answerKey: string): OptionItem[] {
  let found: readonly OptionItem[] = [];
  walkModel(
    model,
    {
      item(item) {
        if (found.length === 0 && item.kind === 'field' && item.key === answerKey && item.options)
          found = item.options;
      },
    },
    null,
  );
  return found.filter((option) => option.value !== '');
}

export const programOptions = (): OptionItem[] => modelOptions(applicationModel, PROGRAM_KEY);
export const stateOptions = (): OptionItem[] => modelOptions(applicationModel, STATE_KEY);

const isIn = (valueKey: string, target: readonly string[]): Condition => ({
  valueKey,
  operator: 'in',
  target: [...target],
});

/** The condition stored for the choices: null matches every application. */
export function conditionOf(choices: ConditionChoices): ConditionExpr | null {
  const parts: Condition[] = [];
  if (choices.programs.length > 0) parts.push(isIn(PROGRAM_KEY, choices.programs));
  if (choices.states.length > 0) parts.push(isIn(STATE_KEY, choices.states));
  if (parts.length === 0) return choices.other;
  return parts.length === 1 ? (parts[0] ?? null) : { all: parts };
}

/** `in` (or `equals`) over one of the builder's keys, as a list of strings. */
function listOf(condition: ConditionExpr, valueKey: string): string[] | null {
  if (!('valueKey' in condition) || condition.valueKey !== valueKey) return null;
  const { operator, target } = condition;
  if (operator === 'equals' && (typeof target === 'string' || typeof target === 'number'))
    return [String(target)];
  if (operator !== 'in' || !Array.isArray(target)) return null;
  return target.map(String);
}

/** The builder's choices for a stored condition; what it cannot show stays in `other`. */
export function choicesOf(condition: ConditionExpr | null): ConditionChoices {
  if (condition === null) return EVERY_APPLICATION;
  const parts = 'all' in condition ? condition.all : [condition];
  let programs: string[] | null = null;
  let states: string[] | null = null;
  for (const part of parts) {
    const program: string[] | null = programs === null ? listOf(part, PROGRAM_KEY) : null;
    const state: string[] | null = states === null ? listOf(part, STATE_KEY) : null;
    if (program) programs = program;
    else if (state) states = state;
    else return { programs: [], states: [], other: condition };
  }
  return { programs: programs ?? [], states: states ?? [], other: null };
}

/** The condition in words, for the rule's summary. */
export function conditionSentence(
  choices: ConditionChoices,
  labels: { programs: readonly OptionItem[]; states: readonly OptionItem[] },
): string {
  const named = (values: readonly string[], options: readonly OptionItem[]) =>
    values.map((value) => options.find((option) => option.value === value)?.label ?? value);
  const parts: string[] = [];
  if (choices.programs.length > 0)
    parts.push(`program is ${named(choices.programs, labels.programs).join(' or ')}`);
  if (choices.states.length > 0)
    parts.push(`state or territory is ${named(choices.states, labels.states).join(' or ')}`);
  if (parts.length > 0) return `Applications whose ${parts.join(' and ')}.`;
  if (choices.other) return 'Applications matching a condition set in the tenant file.';
  return 'Every application.';
}
