import { countryOptions, stateProvinceOptions } from '../application/option-lists';
import { type Answers, DESC_SUFFIX, type OptionItem } from '../form/model';
import { LOOKUP_FIELD_MAX_LENGTH, type LookupCategory, type LookupRecordField } from './lookup-api';
import type { LookupRecord } from './lookup-schemas';

/**
 * A text field that searches a lookup list (spec 001 sections 3 and 7): what the applicant types
 * is the field's own answer, and picking a result also fills `fills`. The keys are written as the
 * field's own key is (before a repeat instance's prefix).
 */
export interface LookupBinding {
  category: LookupCategory;
  fills: Readonly<Partial<Record<LookupRecordField, string>>>;
}

/** Fields answered from a list of choices: their answer is a code, with its label in `_desc`. */
const CHOICES: Partial<Record<LookupRecordField, readonly OptionItem[]>> = {
  state: stateProvinceOptions,
  country: countryOptions,
};

function clip(value: string, field: LookupRecordField): string {
  return [...value.trim()].slice(0, LOOKUP_FIELD_MAX_LENGTH[field]).join('');
}

/**
 * The answers a picked record gives: every key the binding fills, so nothing of an earlier pick
 * is left behind. A state or country the option lists do not offer stays unanswered rather than
 * holding a code the form cannot show.
 */
export function answersFromRecord(
  record: LookupRecord,
  binding: LookupBinding,
  prefix: string,
): Answers {
  const answers: Answers = {};
  for (const [field, key] of Object.entries(binding.fills) as Array<[LookupRecordField, string]>) {
    const answerKey = `${prefix}${key}`;
    const choices = CHOICES[field];
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
