import type { Block, ConditionExpr, Field, RepeatInstance, Rule, YearList } from '../form/model';
import type { ListCategory } from '../lookup/lookup-api';
import {
  countryOptions,
  monthOptions,
  STATE_COUNTRIES,
  stateProvinceOptions,
  yesNoOptions,
} from './option-lists';

/** Builders for the pieces several questions share: yes/no radios, addresses, school searches. */

/** A one-line text question. */
export function text(key: string, label: string, extra: Partial<Field> = {}): Field {
  return { kind: 'field', key, widget: 'text', label, ...extra };
}

/** A text area question (limited by `characterLimit`). */
export function textarea(key: string, label: string, extra: Partial<Field> = {}): Field {
  return { kind: 'field', key, widget: 'textarea', label, ...extra };
}

/**
 * The numbered instances of an add-another block: `hs_` "High School 1", then `hs_2_` "High School
 * 2" and on. The first keeps the plain prefix, as the answer keys always had.
 */
export function numberedInstances(base: string, label: string, count: number): RepeatInstance[] {
  return Array.from({ length: count }, (_, index) => ({
    prefix: index === 0 ? `${base}_` : `${base}_${index + 1}_`,
    label: `${label} ${index + 1}`,
  }));
}

/** (NXX) NXX-XXXX: the area code and the exchange start with 2 to 9 (spec 001 section 5). */
export const PHONE_PATTERN = '^\\([2-9]\\d{2}\\) [2-9]\\d{2}-\\d{4}$';
/** Something@something.tld, without spaces: the mail itself is the real test of an address. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$';
/** Spec 001 section 5, for every address in the United States or Canada. */
export const ZIP_MIN_LENGTH = 5;
export const ZIP_MESSAGE = 'ZIP/Postal Code must be at least 5 characters.';

/** Years offered for the start of studies: this year and the 60 before. */
export const STUDY_YEARS: YearList = { count: 61, direction: 'past' };

/** Years offered for the end of studies: also next year, for studies still under way. */
export function studyEndYears(currentYear: number): YearList {
  return { start: currentYear + 1, count: 62, direction: 'past' };
}

export function required(message: string, when?: ConditionExpr): Rule {
  return when ? { type: 'required', message, when } : { type: 'required', message };
}

export const equals = (valueKey: string, target: string): ConditionExpr => ({
  valueKey,
  operator: 'equals',
  target,
});

export const isIn = (valueKey: string, target: readonly string[]): ConditionExpr => ({
  valueKey,
  operator: 'in',
  target,
});

export const answered = (valueKey: string): ConditionExpr => ({ valueKey, operator: 'answered' });

/** A yes/no radio group; `extra` adds help, rules, conditions or content shown for one answer. */
export function yesNo(key: string, label: string, extra: Partial<Field> = {}): Field {
  return { kind: 'field', key, widget: 'radio', label, options: yesNoOptions, ...extra };
}

/** A yes/no question whose 'Y' answer asks for an explanation in `{key}_comment`. */
export function yesNoWithComment(
  key: string,
  label: string,
  comment: { label: string; message: string; help?: string },
  extra: Partial<Field> = {},
): Field {
  return yesNo(key, label, {
    ...extra,
    optionContent: {
      Y: [
        {
          kind: 'field',
          key: `${key}_comment`,
          widget: 'textarea',
          label: comment.label,
          ...(comment.help ? { help: comment.help } : {}),
          rules: [required(comment.message)],
        },
      ],
    },
  });
}

interface AddressMessages {
  line1: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

interface AddressOptions {
  id: string;
  title: string;
  description?: string;
  /** Before every key: '' for the permanent address, 'mailing_' for the mailing address. */
  keyPrefix: string;
  /** '$' inside a repeat, so that conditions read the same instance's country. */
  conditionPrefix?: '' | '$';
  /** A required address (spec 001 section 5); without messages the address is optional. */
  messages?: AddressMessages;
  /** The autocomplete section, e.g. 'section-mailing'; none for another person's address. */
  autoComplete?: string;
  showWhen?: ConditionExpr;
}

/**
 * The address widget (spec 001 section 3): address_line_1, address_line_2, city, state, zip and
 * country under a prefix. The state is asked for addresses in the United States or Canada (and
 * before a country is chosen); a state chosen before another country is cleared with it.
 */
export function addressBlock(options: AddressOptions): Block {
  const key = (name: string) => `${options.keyPrefix}${name}`;
  const countryKey = `${options.conditionPrefix ?? ''}${key('country')}`;
  const inStateCountry = { valueKey: countryKey, operator: 'in', target: STATE_COUNTRIES } as const;
  const messages = options.messages;
  const auto = (token: string) =>
    options.autoComplete === undefined
      ? {}
      : { autoComplete: options.autoComplete ? `${options.autoComplete} ${token}` : token };
  return {
    kind: 'block',
    id: options.id,
    title: options.title,
    ...(options.description ? { description: options.description } : {}),
    ...(options.showWhen ? { showWhen: options.showWhen } : {}),
    layout: 'address',
    items: [
      {
        kind: 'field',
        key: key('address_line_1'),
        widget: 'text',
        label: 'Street address',
        maxLength: 100,
        // Suggests the city, state and ZIP code for what is typed; the street is always typed.
        lookup: {
          category: 'address',
          fills: {
            address_line_1: key('address_line_1'),
            city: key('city'),
            state: key('state'),
            zip: key('zip'),
            country: key('country'),
          },
        },
        ...auto('address-line1'),
        ...(messages ? { rules: [required(messages.line1)] } : {}),
      },
      {
        kind: 'field',
        key: key('address_line_2'),
        widget: 'text',
        label: 'Apartment, suite or unit',
        maxLength: 100,
        ...auto('address-line2'),
      },
      {
        kind: 'field',
        key: key('city'),
        widget: 'text',
        label: 'City',
        ...auto('address-level2'),
        ...(messages ? { rules: [required(messages.city)] } : {}),
      },
      {
        kind: 'field',
        key: key('state'),
        widget: 'select',
        label: 'State, territory or province',
        options: stateProvinceOptions,
        showWhen: { any: [inStateCountry, { valueKey: countryKey, operator: 'notAnswered' }] },
        ...auto('address-level1'),
        ...(messages ? { rules: [required(messages.state, inStateCountry)] } : {}),
      },
      {
        kind: 'field',
        key: key('zip'),
        widget: 'text',
        label: 'ZIP/Postal Code',
        maxLength: 10,
        ...auto('postal-code'),
        ...(messages
          ? {
              rules: [
                required(messages.zip, inStateCountry),
                {
                  type: 'minLength',
                  min: ZIP_MIN_LENGTH,
                  message: ZIP_MESSAGE,
                  when: inStateCountry,
                },
              ],
            }
          : {}),
      },
      {
        kind: 'field',
        key: key('country'),
        widget: 'select',
        label: 'Country',
        options: countryOptions,
        ...auto('country-name'),
        ...(messages ? { rules: [required(messages.country)] } : {}),
      },
    ],
  };
}

export const CEEB_HELP =
  "The CEEB code is the College Board's code for a school (also called the ACT or school code). " +
  "Search for the school by name and we fill it in; leave it empty if the school isn't listed.";

interface SchoolSearchOptions {
  id: string;
  /** The list searched: colleges or high schools. */
  category: ListCategory;
  title?: string;
  /** Before the keys: '' inside the high-school and college repeats, 'college_' for a family member. */
  keyPrefix: string;
  /** The CEEB code's key (a family member's is plain `ceeb`). */
  ceebKey?: string;
  nameLabel: string;
  nameRules?: readonly Rule[];
  showWhen?: ConditionExpr;
}

/**
 * The school search widget (spec 001 section 3): name, address_line_1, city, state, zip, ceeb and
 * country. Picking a school from the lookup fills them all; a school not in the list can be typed.
 */
export function schoolSearchBlock(options: SchoolSearchOptions): Block {
  const key = (name: string) => `${options.keyPrefix}${name}`;
  const ceebKey = options.ceebKey ?? key('ceeb');
  return {
    kind: 'block',
    id: options.id,
    ...(options.title ? { title: options.title } : {}),
    ...(options.showWhen ? { showWhen: options.showWhen } : {}),
    layout: 'schoolSearch',
    items: [
      {
        kind: 'field',
        key: key('name'),
        widget: 'text',
        label: options.nameLabel,
        maxLength: 100,
        lookup: {
          category: options.category,
          fills: {
            name: key('name'),
            address_line_1: key('address_line_1'),
            city: key('city'),
            state: key('state'),
            zip: key('zip'),
            ceeb: ceebKey,
            country: key('country'),
          },
        },
        ...(options.nameRules ? { rules: options.nameRules } : {}),
      },
      {
        kind: 'field',
        key: key('address_line_1'),
        widget: 'text',
        label: 'School street address',
        maxLength: 100,
      },
      { kind: 'field', key: key('city'), widget: 'text', label: 'School city' },
      {
        kind: 'field',
        key: key('state'),
        widget: 'select',
        label: 'School state, territory or province',
        options: stateProvinceOptions,
      },
      {
        kind: 'field',
        key: key('zip'),
        widget: 'text',
        label: 'School ZIP/Postal Code',
        maxLength: 10,
      },
      {
        kind: 'field',
        key: ceebKey,
        widget: 'text',
        label: 'CEEB code',
        help: CEEB_HELP,
        maxLength: 10,
      },
      {
        kind: 'field',
        key: key('country'),
        widget: 'select',
        label: 'School country',
        options: countryOptions,
      },
    ],
  };
}

/** A month and a year answered together: `{base}_month` ('1' to '12') and `{base}_year`. */
export function monthYearFields(
  base: string,
  labels: { month: string; year: string },
  rules: { month?: readonly Rule[]; year?: readonly Rule[] } = {},
  years: YearList = STUDY_YEARS,
): Field[] {
  return [
    {
      kind: 'field',
      key: `${base}_month`,
      widget: 'month',
      label: labels.month,
      options: monthOptions,
      ...(rules.month ? { rules: rules.month } : {}),
    },
    {
      kind: 'field',
      key: `${base}_year`,
      widget: 'year',
      label: labels.year,
      years,
      ...(rules.year ? { rules: rules.year } : {}),
    },
  ];
}
