import { describe, expect, it } from 'vitest';
import { EMPTY_OPTION } from '../form/choices';
import * as lists from './option-lists';
import {
  CANADA,
  canadianProvinceOptions,
  countryOptions,
  countryOptionsWithoutUS,
  entryTermOptions,
  MAJOR,
  majorOptions,
  monthOptions,
  optionLabel,
  SPECIAL_MAJOR_CODES,
  STATE_COUNTRIES,
  stateProvinceOptions,
  UNITED_STATES,
  usStateOptions,
  yesNoOptions,
} from './option-lists';

type Option = { value: string; label: string };
const isOptionList = (value: unknown): value is Option[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every(
    (item) => typeof item === 'object' && item !== null && 'value' in item && 'label' in item,
  );

const exportedLists = Object.entries(lists).filter((entry): entry is [string, Option[]] =>
  isOptionList(entry[1]),
);
const values = (list: readonly Option[]) => list.map((option) => option.value);

describe('option lists', () => {
  it('give every choice a unique value and a label', () => {
    expect(exportedLists.length).toBeGreaterThan(20);
    for (const [name, list] of exportedLists) {
      expect(new Set(values(list)).size, name).toBe(list.length);
      for (const option of list)
        if (option.value !== '')
          expect(option.label.trim(), `${name} ${option.value}`).not.toBe('');
    }
  });

  it("start select lists with the empty '--' entry, and radio lists without one", () => {
    const radios = [
      'yesNoOptions',
      'ethnicityOptions',
      'communicationPreferenceOptions',
      'transferCreditOptions',
      'creditStatusOptions',
      'diplomaOptions',
      'counselorWaiverOptions',
    ];
    for (const [name, list] of exportedLists) {
      if (radios.includes(name))
        expect(
          list.some((o) => o.value === ''),
          name,
        ).toBe(false);
      else expect(list[0], name).toEqual(EMPTY_OPTION);
    }
    expect(EMPTY_OPTION).toEqual({ value: '', label: '--' });
    expect(yesNoOptions).toEqual([
      { value: 'Y', label: 'Yes' },
      { value: 'N', label: 'No' },
    ]);
  });
});

describe('countries', () => {
  it('hold the 249 ISO 3166-1 countries by alpha-3 code, the United States first', () => {
    expect(countryOptions).toHaveLength(250);
    expect(countryOptions[1]).toEqual({ value: 'USA', label: 'United States of America' });
    expect(optionLabel(countryOptions, 'CAN')).toBe('Canada');
    expect(optionLabel(countryOptions, 'MEX')).toBe('Mexico');
    expect(optionLabel(countryOptions, 'GBR')).toBe(
      'United Kingdom of Great Britain and Northern Ireland',
    );
    for (const code of values(countryOptions).slice(1)) expect(code).toMatch(/^[A-Z]{3}$/);
    const rest = countryOptions.slice(2).map((option) => option.label);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('leave the United States out of the list without it, and nothing else', () => {
    expect(countryOptionsWithoutUS).toHaveLength(249);
    expect(values(countryOptionsWithoutUS)).not.toContain('USA');
    expect(countryOptionsWithoutUS[0]).toEqual(EMPTY_OPTION);
    expect(new Set(values(countryOptionsWithoutUS))).toEqual(
      new Set(values(countryOptions).filter((code) => code !== 'USA')),
    );
  });

  it('name the countries whose addresses need a state and a ZIP/Postal Code', () => {
    expect(STATE_COUNTRIES).toEqual([UNITED_STATES, CANADA]);
    expect([UNITED_STATES, CANADA]).toEqual(['USA', 'CAN']);
  });
});

describe('states and provinces', () => {
  it('hold the states and DC, the territories, the armed-forces areas and the provinces', () => {
    expect(usStateOptions).toHaveLength(1 + 51 + 5 + 3);
    expect(canadianProvinceOptions).toHaveLength(1 + 13);
    expect(stateProvinceOptions).toHaveLength(1 + 51 + 5 + 3 + 13);
    for (const code of [
      'FL',
      'DC',
      'PR',
      'GU',
      'VI',
      'AS',
      'MP',
      'AA',
      'AE',
      'AP',
      'ON',
      'QC',
      'YT',
    ])
      expect(values(stateProvinceOptions), code).toContain(code);
    for (const code of values(stateProvinceOptions).slice(1)) expect(code).toMatch(/^[A-Z]{2}$/);
  });
});

describe('months', () => {
  it('number the months 1 to 12 from January', () => {
    expect(monthOptions).toHaveLength(13);
    expect(monthOptions[1]).toEqual({ value: '1', label: 'January' });
    expect(monthOptions[12]).toEqual({ value: '12', label: 'December' });
  });
});

describe('the application lists', () => {
  it('offer every program code with special rules', () => {
    expect(SPECIAL_MAJOR_CODES).toEqual(['6', '7', '313', '748', '338', 'J100']);
    for (const code of Object.values(MAJOR))
      expect(optionLabel(majorOptions, code), code).not.toBe('');
  });

  it('offer entry terms from this fall to next fall', () => {
    expect(entryTermOptions(2026)).toEqual([
      EMPTY_OPTION,
      { value: 'FA2026', label: 'Fall 2026' },
      { value: 'WI2027', label: 'Winter 2027' },
      { value: 'SU2027', label: 'Summer 2027' },
      { value: 'FA2027', label: 'Fall 2027' },
    ]);
  });

  it('code citizenship types 1 to 4, and transfer credits T and F', () => {
    expect(values(lists.citizenshipTypeOptions)).toEqual(['', '1', '2', '3', '4']);
    expect(values(lists.transferCreditOptions)).toEqual(['T', 'F']);
  });
});
