import { MAX_COURSES, MAX_TERMS } from '../coursework/coursework';
import {
  courseworkCounts,
  courseworkEntryProblems,
  parseCourseworkAnswer,
} from '../coursework/coursework-answer';
import { type CourseworkRules, DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-grading';
import {
  TOO_MANY_COURSES_MESSAGE,
  TOO_MANY_TERMS_MESSAGE,
} from '../coursework/coursework-validation';
import { ANSWER_MESSAGES, type CheckContext, fieldSpec, valueProblem } from './answer-keys';
import { evaluate, isAnswered } from './conditions';
import { isValidIsoDate } from './iso-date';
import type { Answers, FormModel, FormState, Rule } from './model';
import { type ResolvedField, resolveModel } from './resolve';

export interface ValidationContext {
  /** The day of validation, `YYYY-MM-DD`: dates and year lists are judged relative to it. */
  today: string;
  /**
   * The file questions with a converted document. Without it documents are not checked: the
   * browser before the list of documents has loaded (the server always checks them).
   */
  documents?: ReadonlySet<string>;
  /** The tenant's grade rules for coursework grids; the defaults without it. */
  coursework?: CourseworkRules;
}

export type ValidationErrors = Record<string, string[]>;

/**
 * A field where it stands, all validation needs: its full key, its repeat instance (named in
 * messages, chosen by instance rules) and the resolver of its conditions' `$` keys. Whether it is
 * shown is the caller's: hidden fields are never validated.
 */
export type FieldAt = Pick<ResolvedField, 'key' | 'field' | 'instance' | 'resolveKey'>;

export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function shiftYears(isoDate: string, years: number): string {
  const year = Number(isoDate.slice(0, 4)) + years;
  return `${String(year).padStart(4, '0')}${isoDate.slice(4)}`;
}

function yearOf(value: string): number | null {
  const match = /\b(\d{4})\b/.exec(value);
  return match ? Number(match[1]) : null;
}

function fill(message: string, place: FieldAt, year?: number): string {
  return message
    .replaceAll('{instance}', place.instance?.label ?? '')
    .replaceAll('{year}', year === undefined ? '' : String(year));
}

/** Whether a rule holds for this place's repeat instance (rules may name some instances only). */
function coversInstance(rule: Rule, place: Pick<ResolvedField, 'instance'>): boolean {
  return !rule.instances || rule.instances.includes(place.instance?.index ?? -1);
}

function failure(
  rule: Rule,
  place: FieldAt,
  answers: Answers,
  context: ValidationContext,
): string | null {
  if (!coversInstance(rule, place)) return null;
  const value = answers[place.key];
  const text = typeof value === 'string' ? value.trim() : '';
  const holds = (when: Parameters<typeof evaluate>[0]) => evaluate(when, answers, place.resolveKey);
  switch (rule.type) {
    case 'required':
      return holds(rule.when) && !isAnswered(typeof value === 'string' ? value.trim() : value)
        ? rule.message
        : null;
    case 'mustBeChecked':
      return value === true ? null : rule.message;
    case 'anyAnswered':
      return holds(rule.when) &&
        !rule.keys.some((key) => isAnswered(answers[place.resolveKey(key)]))
        ? rule.message
        : null;
    default:
      break;
  }
  if (text === '') return null;
  switch (rule.type) {
    case 'pattern':
      return holds(rule.when) && !new RegExp(rule.pattern, rule.flags).test(text)
        ? rule.message
        : null;
    case 'minLength':
      return holds(rule.when) && text.length < rule.min ? rule.message : null;
    case 'digits':
      return /^\d+$/.test(text) ? null : rule.message;
    case 'date':
      return isValidIsoDate(text) ? null : rule.message;
    case 'minAgeYears':
      return isValidIsoDate(text) && shiftYears(text, rule.years) > context.today
        ? rule.message
        : null;
    case 'notBeforeYearsAgo':
      return isValidIsoDate(text) && text < shiftYears(context.today, -rule.years)
        ? rule.message
        : null;
    case 'yearRange': {
      const year = yearOf(text);
      const current = Number(context.today.slice(0, 4));
      if (year === null) return null;
      const min = current - rule.minYearsAgo;
      const max = current + rule.maxYearsAhead;
      if (year < min) return fill(rule.minMessage, place, min);
      if (year > max) return fill(rule.maxMessage, place, max);
      return null;
    }
  }
}

/**
 * Whether a shown field must be answered now, read from the same rules the validation runs: a
 * `required` rule whose `when` holds for these answers and whose instances include this place's,
 * or a box that must be ticked. "At least one of these" rules (`anyAnswered`) bind a group, not
 * one field, so they leave each field unmarked; the group's help says so.
 */
export function isRequired(
  place: Pick<FieldAt, 'field' | 'instance' | 'resolveKey'> & { visible?: boolean },
  answers: Answers,
): boolean {
  if (place.visible === false) return false;
  return (place.field.rules ?? []).some((rule) => {
    if (!coversInstance(rule, place)) return false;
    if (rule.type === 'mustBeChecked') return true;
    return rule.type === 'required' && evaluate(rule.when, answers, place.resolveKey);
  });
}

/**
 * The check of a save (`valueProblem`) for an answer where it stands now: a conditional dropdown
 * against its controller's current answer, a year against this year's list, and an answered file
 * question against its converted document. Answers stored before a check existed, or whose option
 * has gone since (a new cycle's terms), are caught here.
 */
export function storedAnswerProblem(
  place: FieldAt,
  answers: Answers,
  context: ValidationContext,
): string | null {
  const value = answers[place.key];
  if (value === undefined) return null;
  const { field } = place;
  const controllerAnswer = field.optionsFrom
    ? String(answers[place.resolveKey(field.optionsFrom.controllerKey)] ?? '')
    : undefined;
  const check: CheckContext = {
    currentYear: Number(context.today.slice(0, 4)),
    today: context.today,
    ...(context.coursework ? { coursework: context.coursework } : {}),
  };
  const problem = valueProblem(fieldSpec(field, controllerAnswer), value, check);
  if (problem) return problem;
  const undocumented =
    field.widget === 'file' && isAnswered(value) && context.documents?.has(place.key) === false;
  return undocumented ? ANSWER_MESSAGES.missingDocument : null;
}

/**
 * One shown field at a time: the check of its stored answer, then every message of its rules,
 * without duplicates (spec 000 section 5).
 */
export function validateField(
  place: FieldAt,
  answers: Answers,
  context: ValidationContext,
): string[] {
  const messages: string[] = [];
  const stored = storedAnswerProblem(place, answers, context);
  if (stored !== null) messages.push(stored);
  else if (place.field.widget === 'coursework')
    messages.push(...courseworkMessages(place, answers, context));
  for (const rule of place.field.rules ?? []) {
    const message = failure(rule, place, answers, context);
    if (message !== null) {
      const filled = fill(message, place);
      if (!messages.includes(filled)) messages.push(filled);
    }
  }
  return messages;
}

/** What a finished grid still needs, each message naming its row (stored problems come first). */
function courseworkMessages(
  place: FieldAt,
  answers: Answers,
  context: ValidationContext,
): string[] {
  const value = answers[place.key];
  if (typeof value !== 'string') return [];
  const parsed = parseCourseworkAnswer(value);
  if (!parsed.ok || !parsed.answer) return [];
  return courseworkEntryProblems(parsed.answer, {
    rules: context.coursework ?? DEFAULT_COURSEWORK_RULES,
    today: context.today,
    stage: 'submit',
  }).map((problem) => problem.named);
}

/** The limits on all grids together, told at the last grid that has coursework. */
function courseworkLimitErrors(
  shown: readonly Pick<ResolvedField, 'key' | 'field'>[],
  answers: Answers,
): ValidationErrors {
  let courses = 0;
  let terms = 0;
  let lastKey: string | null = null;
  for (const place of shown) {
    if (place.field.widget !== 'coursework') continue;
    const value = answers[place.key];
    const parsed = typeof value === 'string' ? parseCourseworkAnswer(value) : null;
    if (!parsed?.ok || !parsed.answer) continue;
    const counts = courseworkCounts(parsed.answer);
    courses += counts.courses;
    terms += counts.terms;
    lastKey = place.key;
  }
  if (lastKey === null) return {};
  const messages = [
    ...(courses > MAX_COURSES ? [TOO_MANY_COURSES_MESSAGE] : []),
    ...(terms > MAX_TERMS ? [TOO_MANY_TERMS_MESSAGE] : []),
  ];
  return messages.length > 0 ? { [lastKey]: messages } : {};
}

/** Errors of every shown field; hidden fields are never validated. The server runs this at submit. */
export function validateAnswers(
  model: FormModel,
  state: FormState,
  context: ValidationContext,
  /** `resolveModel(model, state)` when the caller has it already. */
  resolved: readonly ResolvedField[] = resolveModel(model, state),
): ValidationErrors {
  const errors: ValidationErrors = {};
  const shown = resolved.filter((place) => place.visible);
  for (const place of shown) {
    const messages = validateField(place, state.answers, context);
    if (messages.length === 0) continue;
    const list = errors[place.key] ?? [];
    for (const message of messages) if (!list.includes(message)) list.push(message);
    errors[place.key] = list;
  }
  for (const [key, messages] of Object.entries(courseworkLimitErrors(shown, state.answers))) {
    const list = errors[key] ?? [];
    for (const message of messages) if (!list.includes(message)) list.push(message);
    errors[key] = list;
  }
  return errors;
}
