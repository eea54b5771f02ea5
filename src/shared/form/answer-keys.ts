import { DEFAULT_TEXT_MAX_LENGTH, DEFAULT_TEXTAREA_LIMIT } from '../constants';
import { isStorableText } from '../validation/storable-text';
import {
  type Answers,
  type AnswerValue,
  DESC_SUFFIX,
  type Field,
  type FormModel,
  storesDesc,
} from './model';
import { resolveModel } from './resolve';

export interface KeySpec {
  type: 'string' | 'boolean';
  maxLength: number;
}

const DESC_MAX_LENGTH = 200;
const BOOLEAN_WIDGETS = new Set(['checkbox', 'confirmCheckbox', 'confirmButton']);

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
    default:
      return field.maxLength ?? DEFAULT_TEXT_MAX_LENGTH;
  }
}

const everything = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };

/** The data model: every answer key the application may hold, in every instance, tab and case. */
export function answerKeySpecs(model: FormModel): Map<string, KeySpec> {
  const specs = new Map<string, KeySpec>();
  for (const place of resolveModel(model, everything)) {
    // A key in several places (grouped conditions) takes the most generous limit among them.
    const earlier = specs.get(place.key)?.maxLength ?? 0;
    specs.set(place.key, {
      type: BOOLEAN_WIDGETS.has(place.field.widget) ? 'boolean' : 'string',
      maxLength: Math.max(earlier, fieldMaxLength(place.field)),
    });
    if (storesDesc(place.field))
      specs.set(`${place.key}${DESC_SUFFIX}`, { type: 'string', maxLength: DESC_MAX_LENGTH });
  }
  return specs;
}

export const ANSWER_MESSAGES = {
  notObject: 'Send the answers as a JSON object of answer keys and values.',
  unknownKey: 'This is not a question of the application.',
  wrongType: (type: KeySpec['type']) =>
    type === 'boolean' ? 'This answer must be true, false or empty.' : 'This answer must be text.',
  tooLong: (max: number) => `This answer is longer than ${max} characters.`,
  badCharacters: 'This answer contains characters that cannot be stored.',
  tooMany: (max: number) => `Send at most ${max} answers at once.`,
} as const;

export type PatchResult =
  | { ok: true; patch: Answers }
  | { ok: false; errors: Record<string, string[]> };

/**
 * The server's parse of an answer patch (and the browser's check before sending): known keys only,
 * the right type, within the length. Nothing of a patch with an error is kept.
 */
export function parseAnswerPatch(
  specs: Map<string, KeySpec>,
  body: unknown,
  maxKeys = specs.size,
): PatchResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { _: [ANSWER_MESSAGES.notObject] } };
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > maxKeys)
    return { ok: false, errors: { _: [ANSWER_MESSAGES.tooMany(maxKeys)] } };
  const errors: Record<string, string[]> = {};
  const patch: Answers = {};
  for (const [key, value] of entries) {
    const spec = specs.get(key);
    if (!spec) {
      errors[key] = [ANSWER_MESSAGES.unknownKey];
      continue;
    }
    const problem = valueProblem(spec, value);
    if (problem) errors[key] = [problem];
    else patch[key] = value as AnswerValue;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, patch };
}

function valueProblem(spec: KeySpec, value: unknown): string | null {
  if (spec.type === 'boolean') {
    return typeof value === 'boolean' || value === '' ? null : ANSWER_MESSAGES.wrongType('boolean');
  }
  if (typeof value !== 'string') return ANSWER_MESSAGES.wrongType('string');
  if (!isStorableText(value)) return ANSWER_MESSAGES.badCharacters;
  if ([...value].length > spec.maxLength) return ANSWER_MESSAGES.tooLong(spec.maxLength);
  return null;
}
