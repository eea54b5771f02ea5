import { describe, expect, it } from 'vitest';
import { regionField } from '../test/fixture-model';
import { EMPTY_OPTION, offeredOptions, yearOptions } from './choices';
import type { Field } from './model';

const values = (list: ReadonlyArray<{ value: string }>) => list.map((option) => option.value);

describe('year lists', () => {
  it('count years into the past from the current year by default', () => {
    expect(yearOptions({ count: 3, direction: 'past' }, 2026)).toEqual([
      EMPTY_OPTION,
      { value: '2026', label: '2026' },
      { value: '2025', label: '2025' },
      { value: '2024', label: '2024' },
    ]);
  });

  it('count years into the future from a given start', () => {
    expect(values(yearOptions({ start: 2030, count: 3, direction: 'future' }, 2026))).toEqual([
      '',
      '2030',
      '2031',
      '2032',
    ]);
  });

  it('give only the empty entry for no years', () => {
    expect(yearOptions({ count: 0, direction: 'past' }, 2026)).toEqual([EMPTY_OPTION]);
  });
});

describe('the options a field offers', () => {
  const region = regionField;

  it('follow the current year for a year list', () => {
    const year: Field = {
      kind: 'field',
      key: 'start',
      widget: 'year',
      label: 'Year',
      years: { count: 2, direction: 'past' },
    };
    expect(values(offeredOptions(year, 2027))).toEqual(['', '2027', '2026']);
  });

  it('follow the controller of a conditional dropdown, or hold every list without one', () => {
    expect(values(offeredOptions(region, 2026, 'CAN'))).toEqual(['', 'ON']);
    expect(values(offeredOptions(region, 2026, 'MEX'))).toEqual([]);
    expect(values(offeredOptions(region, 2026))).toEqual(['', 'FL', '', 'ON']);
  });

  it('offer nothing for a controller answer that names a property of every object', () => {
    for (const answer of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(values(offeredOptions(region, 2026, answer)), answer).toEqual([]);
    }
  });
});
