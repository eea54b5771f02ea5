import { describe, expect, it } from 'vitest';
import { applicationModel } from '../application/application-model';
import { answerKeySpecs, parseAnswerPatch } from '../form/answer-keys';
import { resolveModel } from '../form/resolve';
import {
  answersFromLabel,
  answersFromRecord,
  choicesOfModel,
  type LookupBinding,
  ownRecordField,
} from './lookup-answers';
import { LOOKUP_FIELD_MAX_LENGTH, type LookupRecordField } from './lookup-api';
import type { LookupRecord } from './lookup-schemas';

const schoolBinding: LookupBinding = {
  category: 'hs_ceeb',
  fills: {
    name: 'name',
    address_line_1: 'address_line_1',
    city: 'city',
    state: 'state',
    zip: 'zip',
    ceeb: 'ceeb',
    country: 'country',
  },
};

/** The application's own state and country lists, read from its model as the form does. */
const choicesOf = choicesOfModel(applicationModel);

const record: LookupRecord = {
  id: '333435',
  name: 'Stuyvesant High School',
  address_line_1: '',
  city: 'NEW YORK',
  state: 'NY',
  zip: '10282',
  ceeb: '333435',
  country: 'USA',
};

describe('answers from a picked record', () => {
  it('fills every bound key under the prefix, with labels for the state and the country', () => {
    expect(answersFromRecord(record, schoolBinding, 'hs_2_', choicesOf)).toEqual({
      hs_2_name: 'Stuyvesant High School',
      hs_2_address_line_1: '',
      hs_2_city: 'NEW YORK',
      hs_2_state: 'NY',
      hs_2_state_desc: 'New York',
      hs_2_zip: '10282',
      hs_2_ceeb: '333435',
      hs_2_country: 'USA',
      hs_2_country_desc: 'United States of America',
    });
  });

  it('leaves a state or country the lists do not offer unanswered', () => {
    const answers = answersFromRecord(
      { ...record, state: 'FM', country: 'XX' },
      schoolBinding,
      '',
      choicesOf,
    );
    expect(answers).toMatchObject({ state: '', state_desc: '', country: '', country_desc: '' });
  });

  it('fills only the keys the binding names (an address has no name or code)', () => {
    const address: LookupBinding = {
      category: 'address',
      fills: { address_line_1: 'mailing_address_line_1', city: 'mailing_city' },
    };
    expect(answersFromRecord(record, address, '', choicesOf)).toEqual({
      mailing_address_line_1: '',
      mailing_city: 'NEW YORK',
    });
  });

  it('never gives a value longer than the answer allows', () => {
    const long = answersFromRecord(
      { ...record, city: 'x'.repeat(80) },
      schoolBinding,
      '',
      choicesOf,
    );
    expect(long.city).toHaveLength(LOOKUP_FIELD_MAX_LENGTH.city);
  });

  it('keeps the chosen label in the typed field when the record cannot be read', () => {
    expect(answersFromLabel(' Lincoln High ', 'hs_name', 'name')).toEqual({
      hs_name: 'Lincoln High',
    });
    expect(answersFromLabel('y'.repeat(150), 'address_line_1', 'address_line_1')).toEqual({
      address_line_1: 'y'.repeat(100),
    });
  });

  it('knows which field the applicant types into', () => {
    expect(ownRecordField(schoolBinding, 'name')).toBe('name');
    expect(
      ownRecordField(
        { category: 'address', fills: { address_line_1: 'mailing_address_line_1' } },
        'mailing_address_line_1',
      ),
    ).toBe('address_line_1');
  });
});

describe('lookup fields of the application', () => {
  const everything = { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true };
  const places = resolveModel(applicationModel, everything).filter((place) => place.field.lookup);
  const specs = answerKeySpecs(applicationModel);

  it('search schools in every school block and addresses in every address block', () => {
    const byCategory = (category: string) =>
      places.filter((place) => place.field.lookup?.category === category).map((place) => place.key);
    expect(byCategory('hs_ceeb')).toEqual(['hs_name', 'hs_2_name', 'hs_3_name']);
    expect(byCategory('college_ceeb')).toEqual(
      expect.arrayContaining(['college_name', 'college_3_name', 'parent_college_name']),
    );
    expect(byCategory('address')).toEqual(
      expect.arrayContaining(['address_line_1', 'mailing_address_line_1', 'other_address_line_1']),
    );
  });

  it('give answers a save accepts, whatever codes an imported list holds', () => {
    for (const place of places) {
      const binding = place.field.lookup as LookupBinding;
      const prefix = place.key.slice(0, place.key.length - place.field.key.length);
      for (const [state, country] of [
        ['NY', 'USA'],
        ['ON', 'CAN'],
        ['FM', 'FSM'],
        ['ZZ', 'ATL'],
        ['', ''],
      ] as const) {
        const answers = answersFromRecord(
          { ...record, state, country },
          binding,
          prefix,
          choicesOf,
        );
        expect(parseAnswerPatch(specs, answers), `${place.key} ${state} ${country}`).toMatchObject({
          ok: true,
        });
      }
    }
  });

  it('fill answer keys that exist and hold what a record can give', () => {
    for (const place of places) {
      const binding = place.field.lookup as LookupBinding;
      const prefix = place.key.slice(0, place.key.length - place.field.key.length);
      expect(Object.values(binding.fills), place.key).toContain(place.field.key);
      for (const [field, key] of Object.entries(binding.fills)) {
        const spec = specs.get(`${prefix}${key}`);
        expect(spec, `${place.key} fills ${prefix}${key}`).toBeDefined();
        if (field === 'state' || field === 'country') {
          expect(specs.get(`${prefix}${key}_desc`), `${prefix}${key}_desc`).toBeDefined();
        } else {
          expect(spec?.maxLength, `${prefix}${key}`).toBeGreaterThanOrEqual(
            LOOKUP_FIELD_MAX_LENGTH[field as LookupRecordField],
          );
        }
      }
    }
  });
});
