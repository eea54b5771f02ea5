import { evaluate, isAnswered } from './conditions';
import type { Answers, FormModel, FormState, Rule } from './model';
import { type ResolvedField, resolveModel } from './resolve';

export interface ValidationContext {
  /** The day of validation, `YYYY-MM-DD`: dates are judged relative to it. */
  today: string;
}

export type ValidationErrors = Record<string, string[]>;

export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD`. */
export function isValidIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    year >= 1000
  );
}

function shiftYears(isoDate: string, years: number): string {
  const year = Number(isoDate.slice(0, 4)) + years;
  return `${String(year).padStart(4, '0')}${isoDate.slice(4)}`;
}

function yearOf(value: string): number | null {
  const match = /\b(\d{4})\b/.exec(value);
  return match ? Number(match[1]) : null;
}

function fill(message: string, place: ResolvedField, year?: number): string {
  return message
    .replaceAll('{instance}', place.instance?.label ?? '')
    .replaceAll('{year}', year === undefined ? '' : String(year));
}

function failure(
  rule: Rule,
  place: ResolvedField,
  answers: Answers,
  context: ValidationContext,
): string | null {
  if (rule.instances && !rule.instances.includes(place.instance?.index ?? -1)) return null;
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

/** One field at a time: every message of its rules, without duplicates (spec 000 section 5). */
export function validateField(
  place: ResolvedField,
  answers: Answers,
  context: ValidationContext,
): string[] {
  if (!place.visible) return [];
  const messages: string[] = [];
  for (const rule of place.field.rules ?? []) {
    const message = failure(rule, place, answers, context);
    if (message !== null) {
      const filled = fill(message, place);
      if (!messages.includes(filled)) messages.push(filled);
    }
  }
  return messages;
}

/** Errors of every shown field; hidden fields are never validated. The server runs this at submit. */
export function validateAnswers(
  model: FormModel,
  state: FormState,
  context: ValidationContext,
): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const place of resolveModel(model, state)) {
    const messages = validateField(place, state.answers, context);
    if (messages.length === 0) continue;
    const list = errors[place.key] ?? [];
    for (const message of messages) if (!list.includes(message)) list.push(message);
    errors[place.key] = list;
  }
  return errors;
}
