import { DEFAULT_TEXT_MAX_LENGTH, DEFAULT_TEXTAREA_LIMIT } from '../constants';
import {
  COURSEWORK_ANSWER_MAX_LENGTH,
  courseworkEntryProblems,
  parseCourseworkAnswer,
} from '../coursework/coursework-answer';
import { type CourseworkRules, DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-grading';
import { isStorableText } from '../validation/storable-text';
import { type ChoiceSource, choiceOptions, choiceSource, isChoiceWidget } from './choices';
import { isValidIsoDate } from './iso-date';
import {
  type Answers,
  type AnswerValue,
  DESC_SUFFIX,
  type Field,
  type FormModel,
  storesDesc,
} from './model';
import { resolveModel } from './resolve';

/**
 * What a string answer may hold besides '' (which clears any answer but a file question's):
 * - `choice`: one of the values the widget offers;
 * - `date`: a real date as the date widget stores it, refused with the field's own date message;
 * - `file`: nothing a client sends: a completed conversion sets it and a delete clears it;
 * - `label`: the label of the option chosen for `answerKey` in the same patch;
 * - `coursework`: a coursework grid's JSON, with no entry the grid would refuse beside its row.
 */
export type AllowedValues =
  | ({ kind: 'choice' } & ChoiceSource)
  | { kind: 'date'; message: string }
  | { kind: 'file' }
  | { kind: 'label'; answerKey: string }
  | { kind: 'coursework' };

export interface KeySpec {
  type: 'string' | 'boolean';
  maxLength: number;
  /** Free text within the length when absent. */
  values?: AllowedValues;
}

/**
 * What the checks depend on besides the model: year lists follow the current year; coursework
 * follows the tenant's grade rules and the day (a term not yet started has no grade).
 */
export interface CheckContext {
  currentYear: number;
  /** `YYYY-MM-DD`; without it, the first of January of `currentYear`. */
  today?: string;
  coursework?: CourseworkRules;
}

const DESC_MAX_LENGTH = 200;
const BOOLEAN_WIDGETS = new Set(['checkbox', 'confirmCheckbox', 'confirmButton']);

export const ANSWER_MESSAGES = {
  notObject: 'Send the answers as a JSON object of answer keys and values.',
  unknownKey: 'This is not a question of the application.',
  wrongType: (type: KeySpec['type']) =>
    type === 'boolean' ? 'This answer must be true, false or empty.' : 'This answer must be text.',
  tooLong: (max: number) => `This answer is longer than ${max} characters.`,
  badCharacters: 'This answer contains characters that cannot be stored.',
  tooMany: (max: number) => `Send at most ${max} answers at once.`,
  notAnOption: 'Choose one of the options offered.',
  notADate: 'Enter a real date.',
  fileAnswer: 'Documents are answered by uploading the file.',
  missingDocument: 'We have no copy of this document. Upload it again.',
  labelWithoutAnswer: 'Send this label together with its answer.',
  labelMismatch: 'This label is not the label of the chosen option.',
} as const;

export function fieldMaxLength(field: Field): number {
  switch (field.widget) {
    case 'textarea':
      return field.characterLimit ?? DEFAULT_TEXTAREA_LIMIT;
    case 'date':
      return 10;
    case 'phone':
      return 14;
    case 'file':
      return 'ANSWERED'.length;
    case 'coursework':
      return COURSEWORK_ANSWER_MAX_LENGTH;
    default:
      return field.maxLength ?? DEFAULT_TEXT_MAX_LENGTH;
  }
}

function allowedValues(field: Field, controllerAnswer?: string): AllowedValues | undefined {
  if (field.widget === 'file') return { kind: 'file' };
  if (field.widget === 'coursework') return { kind: 'coursework' };
  if (field.widget === 'date') {
    const own = field.rules?.find((rule) => rule.type === 'date');
    return { kind: 'date', message: own?.message ?? ANSWER_MESSAGES.notADate };
  }
  if (isChoiceWidget(field.widget))
    return { kind: 'choice', ...choiceSource(field, controllerAnswer) };
  return undefined;
}

/**
 * The spec of one field. A conditional dropdown is judged against the list of its controller's
 * answer when one is given, else against every list it may show.
 */
export function fieldSpec(field: Field, controllerAnswer?: string): KeySpec {
  const values = allowedValues(field, controllerAnswer);
  return {
    type: BOOLEAN_WIDGETS.has(field.widget) ? 'boolean' : 'string',
    maxLength: fieldMaxLength(field),
    ...(values ? { values } : {}),
  };
}

/** A key in several places (grouped conditions) takes the most generous of them. */
function mergeValues(
  earlier: AllowedValues | undefined,
  later: AllowedValues | undefined,
): AllowedValues | undefined {
  if (!earlier || !later) return undefined;
  if (earlier.kind === 'choice' && later.kind === 'choice')
    return {
      kind: 'choice',
      options: [...earlier.options, ...later.options],
      years: [...earlier.years, ...later.years],
    };
  return earlier.kind === later.kind ? earlier : undefined;
}

const everything = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };

/**
 * The data model: every answer key the application may hold, in every instance, tab and case,
 * with its type, length and the values the model allows.
 */
export function answerKeySpecs(model: FormModel): Map<string, KeySpec> {
  const specs = new Map<string, KeySpec>();
  for (const place of resolveModel(model, everything)) {
    const spec = fieldSpec(place.field);
    const earlier = specs.get(place.key);
    const values = earlier ? mergeValues(earlier.values, spec.values) : spec.values;
    specs.set(place.key, {
      type: spec.type,
      maxLength: Math.max(earlier?.maxLength ?? 0, spec.maxLength),
      ...(values ? { values } : {}),
    });
    if (storesDesc(place.field))
      specs.set(`${place.key}${DESC_SUFFIX}`, {
        type: 'string',
        maxLength: DESC_MAX_LENGTH,
        values: { kind: 'label', answerKey: place.key },
      });
  }
  return specs;
}

/**
 * The one check of a value against its key's spec: type, length, storable characters and the
 * values the model allows. A label is checked with its answer by `parseAnswerPatch`.
 */
export function valueProblem(spec: KeySpec, value: unknown, context: CheckContext): string | null {
  if (spec.type === 'boolean') {
    return typeof value === 'boolean' || value === '' ? null : ANSWER_MESSAGES.wrongType('boolean');
  }
  if (typeof value !== 'string') return ANSWER_MESSAGES.wrongType('string');
  if (!isStorableText(value)) return ANSWER_MESSAGES.badCharacters;
  if ([...value].length > spec.maxLength) return ANSWER_MESSAGES.tooLong(spec.maxLength);
  if (value === '') return null;
  switch (spec.values?.kind) {
    case 'choice':
      return choiceOptions(spec.values, context.currentYear).some(
        (option) => option.value === value,
      )
        ? null
        : ANSWER_MESSAGES.notAnOption;
    case 'date':
      return isValidIsoDate(value) ? null : spec.values.message;
    case 'coursework':
      return courseworkValueProblem(value, context);
    default:
      return null;
  }
}

/** The first thing the grid would refuse, with its row named: `Fall 2024, course 3 (MATH 1A): …`. */
function courseworkValueProblem(value: string, context: CheckContext): string | null {
  const parsed = parseCourseworkAnswer(value);
  if (!parsed.ok) return parsed.message;
  if (!parsed.answer) return null;
  const [first] = courseworkEntryProblems(parsed.answer, {
    rules: context.coursework ?? DEFAULT_COURSEWORK_RULES,
    today: context.today ?? `${context.currentYear}-01-01`,
    stage: 'save',
  });
  return first?.named ?? null;
}

/** The labels a choice's answer may carry; null when the key has no list to read them from. */
function labelsOf(
  spec: KeySpec | undefined,
  value: unknown,
  context: CheckContext,
): string[] | null {
  if (value === '') return [''];
  if (spec?.values?.kind !== 'choice') return null;
  return choiceOptions(spec.values, context.currentYear)
    .filter((option) => option.value !== '' && option.value === value)
    .map((option) => option.label);
}

export type PatchResult =
  | { ok: true; patch: Answers }
  | { ok: false; errors: Record<string, string[]> };

export interface PatchOptions extends Partial<CheckContext> {
  maxKeys?: number;
}

/**
 * The server's parse of an answer patch: known keys only, each checked by `valueProblem`; no
 * file answer; a `{key}_desc` label only with its answer and matching it, and added from the
 * model when the answer comes without it, so a stored answer and its label always agree. Nothing
 * of a patch with an error is kept.
 */
export function parseAnswerPatch(
  specs: Map<string, KeySpec>,
  body: unknown,
  options: PatchOptions = {},
): PatchResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { _: [ANSWER_MESSAGES.notObject] } };
  }
  const context: CheckContext = {
    currentYear: options.currentYear ?? new Date().getFullYear(),
    ...(options.today ? { today: options.today } : {}),
    ...(options.coursework ? { coursework: options.coursework } : {}),
  };
  const maxKeys = options.maxKeys ?? specs.size;
  const sent = body as Record<string, unknown>;
  const entries = Object.entries(sent);
  if (entries.length > maxKeys)
    return { ok: false, errors: { _: [ANSWER_MESSAGES.tooMany(maxKeys)] } };
  const labelProblem = (spec: KeySpec, label: unknown): string | null => {
    if (spec.values?.kind !== 'label') return null;
    const { answerKey } = spec.values;
    if (!(answerKey in sent)) return ANSWER_MESSAGES.labelWithoutAnswer;
    const labels = labelsOf(specs.get(answerKey), sent[answerKey], context);
    return labels === null || labels.includes(label as string)
      ? null
      : ANSWER_MESSAGES.labelMismatch;
  };
  const errors: Record<string, string[]> = {};
  const patch: Answers = {};
  for (const [key, value] of entries) {
    const spec = specs.get(key);
    const problem = !spec
      ? ANSWER_MESSAGES.unknownKey
      : spec.values?.kind === 'file'
        ? ANSWER_MESSAGES.fileAnswer
        : (valueProblem(spec, value, context) ?? labelProblem(spec, value));
    if (problem) errors[key] = [problem];
    else patch[key] = value as AnswerValue;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  for (const [key, value] of Object.entries(patch)) {
    const labelKey = `${key}${DESC_SUFFIX}`;
    if (labelKey in sent || specs.get(labelKey)?.values?.kind !== 'label') continue;
    const [label] = labelsOf(specs.get(key), value, context) ?? [];
    if (label !== undefined) patch[labelKey] = label;
  }
  return { ok: true, patch };
}
