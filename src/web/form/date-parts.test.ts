import { describe, expect, it } from 'vitest';
import { EMPTY_DATE_PARTS, partsOfIsoDate, readDateParts } from './date-parts';

const parts = (day: string, month: string, year: string) => ({ day, month, year });

describe('readDateParts', () => {
  it.each([
    [parts('4', '2', '2001'), '2001-02-04'],
    [parts('04', '02', '2001'), '2001-02-04'],
    [parts('004', '0002', '2001'), '2001-02-04'],
    [parts(' 4 ', '2 ', ' 2001'), '2001-02-04'],
    [parts('2 7', '0 3', '20 07'), '2007-03-27'],
    [parts('４', '２', '２００１'), '2001-02-04'],
    [parts('29', '2', '2024'), '2024-02-29'],
    [parts('31', '12', '1999'), '1999-12-31'],
  ])('reads %j as %s', (typed, isoDate) => {
    expect(readDateParts(typed)).toEqual({ kind: 'date', isoDate });
  });

  it.each([
    ['31 February', parts('31', '2', '2001')],
    ['29 February of a common year', parts('29', '2', '2023')],
    ['a 13th month', parts('1', '13', '2001')],
    ['day 0', parts('0', '2', '2001')],
    ['a two-digit year', parts('4', '2', '01')],
    ['a year still being typed', parts('04', '02', '200')],
    ['a five-digit year', parts('04', '02', '20011')],
    ['a year before 1000', parts('04', '02', '0200')],
    ['a missing day', parts('', '2', '2001')],
    ['a missing month', parts('4', '', '2001')],
    ['a missing year', parts('4', '2', '')],
    ['letters', parts('4', 'Feb', '2001')],
    ['a sign', parts('-4', '2', '2001')],
    ['a decimal', parts('4.0', '2', '2001')],
  ])('%s is not a date', (_what, typed) => {
    expect(readDateParts(typed)).toEqual({ kind: 'notADate' });
  });

  it('three empty boxes, or boxes holding only spaces, are no answer', () => {
    expect(readDateParts(EMPTY_DATE_PARTS)).toEqual({ kind: 'empty' });
    expect(readDateParts(parts(' ', '', '  '))).toEqual({ kind: 'empty' });
  });
});

describe('partsOfIsoDate', () => {
  it('fills the boxes from a stored answer, and reads back as the same answer', () => {
    expect(partsOfIsoDate('2001-02-04')).toEqual(parts('04', '02', '2001'));
    expect(readDateParts(partsOfIsoDate('2001-02-04'))).toEqual({
      kind: 'date',
      isoDate: '2001-02-04',
    });
  });

  it.each(['', 'not-a-date', '2001-02-31', '2001-2-4'])(
    'leaves the boxes empty for %j',
    (value) => {
      expect(partsOfIsoDate(value)).toEqual(EMPTY_DATE_PARTS);
    },
  );
});
