import type { LookupBinding } from '../form/lookup-binding';
import {
  type Answers,
  DESC_SUFFIX,
  type FormModel,
  type Item,
  type OptionItem,
} from '../form/model';
import { keyAt, rootPlace, walkItems } from '../form/traverse';
import { LOOKUP_FIELD_MAX_LENGTH, type LookupRecordField } from './lookup-api';
import type { LookupRecord } from './lookup-schemas';

// The binding is the engine's (a model names it); kept importable from here for the lookup's callers.
export type { LookupBinding } from '../form/lookup-binding';

/**
 * The options of the choice field a key answers (a state or a country list), from the model that
 * holds the lookup: a picked record's code is kept only if the field offers it. Undefined for a
 * key answered as text.
 */
export type ChoicesOf = (answerKey: string) => readonly OptionItem[] | undefined;

/** The choices of every field under some items, by full answer key (every repeat instance). */
export function choicesOfItems(items: readonly Item[]): ChoicesOf {
  const choices = new Map<string, readonly OptionItem[]>();
  walkItems(
    items,
    rootPlace(null),
    {
      item(item, place) {
        if (item.kind === 'field' && item.options)
          choices.set(keyAt(place, item.key), item.options);
      },
    },
    null,
  );
  return (answerKey) => choices.get(answerKey);
}

/** The choices of every field of a model, by full answer key. */
export function choicesOfModel(model: FormModel): ChoicesOf {
  return choicesOfItems(model.pages.flatMap((page) => page.items));
}

function clip(value: string, field: LookupRecordField): string {
  return [...value.trim()].slice(0, LOOKUP_FIELD_MAX_LENGTH[field]).join('');
}

/**
 * The answers a picked record gives: every key the binding fills, so nothing of an earlier pick
 * is left behind. A key answered from a list of choices (the state, the country) gets the code
 * and its label; a code the list does not offer stays unanswered rather than holding a code the
 * form cannot show.
 */
export function answersFromRecord(
  record: LookupRecord,
  binding: LookupBinding,
  prefix: string,
  choicesOf: ChoicesOf,
): Answers {
  const answers: Answers = {};
  for (const [field, key] of Object.entries(binding.fills) as Array<[LookupRecordField, string]>) {
    const answerKey = `${prefix}${key}`;
    const choices = choicesOf(answerKey);
    if (choices) {
      const option = choices.find(
        (choice) => choice.value !== '' && choice.value === record[field],
      );
      answers[answerKey] = option?.value ?? '';
      answers[`${answerKey}${DESC_SUFFIX}`] = option?.label ?? '';
    } else {
      answers[answerKey] = clip(record[field], field);
    }
  }
  return answers;
}

/** The record field the applicant types into: the school's name, or the first address line. */
export function ownRecordField(binding: LookupBinding, ownKey: string): LookupRecordField {
  const own = Object.entries(binding.fills).find(([, key]) => key === ownKey);
  return (own?.[0] as LookupRecordField | undefined) ?? 'name';
}

/**
 * Spec 000 section 7: when the record cannot be read, the chosen label is kept in the field the
 * applicant typed into (the name, or the first address line).
 */
export function answersFromLabel(label: string, ownKey: string, field: LookupRecordField): Answers {
  return { [ownKey]: clip(label, field) };
}
