import { describe, expect, it } from 'vitest';
import {
  loadUsZipCodes,
  splitTypedAddress,
  type ZipCodeEntry,
  zipCodeAddressProvider,
} from './address-provider';

const STATES = new Set(['FL', 'IL', 'MA', 'NY']);

describe('splitTypedAddress', () => {
  it.each([
    ['33314', { street: '', place: '33314', state: '' }],
    ['333', { street: '', place: '333', state: '' }],
    ['Davie', { street: '', place: 'Davie', state: '' }],
    ['Davie FL', { street: '', place: 'Davie', state: 'FL' }],
    ['12 Main St, Davie', { street: '12 Main St', place: 'Davie', state: '' }],
    ['12 Main St, Davie, fl', { street: '12 Main St', place: 'Davie', state: 'FL' }],
    ['12 Main St, Apt 4, Davie FL', { street: '12 Main St, Apt 4', place: 'Davie', state: 'FL' }],
    ['12 Main St, 33314', { street: '12 Main St', place: '33314', state: '' }],
    ['12 Main St 33314', { street: '12 Main St', place: '33314', state: '' }],
    ['12 Main St', { street: '12 Main St', place: '', state: '' }],
    ['  12   Main St ,  Davie ', { street: '12 Main St', place: 'Davie', state: '' }],
    ['Fort Lauderdale, FL', { street: '', place: 'Fort Lauderdale', state: 'FL' }],
  ])('reads %j', (typed, expected) => {
    expect(splitTypedAddress(typed, STATES)).toEqual(expected);
  });
});

const entries: ZipCodeEntry[] = [
  { zip: '33314', city: 'Davie', state: 'FL' },
  { zip: '33324', city: 'Davie', state: 'FL' },
  { zip: '33301', city: 'Fort Lauderdale', state: 'FL' },
  { zip: '62701', city: 'Springfield', state: 'IL' },
  { zip: '01101', city: 'Springfield', state: 'MA' },
  { zip: '12345', city: 'Schenectady', state: 'NY' },
];

describe('the ZIP code address provider', () => {
  const provider = zipCodeAddressProvider(async () => entries);

  it('suggests the city and state of a ZIP code or its beginning, keeping the street', async () => {
    expect(await provider.suggest('12 Main St, 333', 5)).toEqual([
      {
        text: '12 Main St, Fort Lauderdale, FL 33301',
        id: 'zip:33301|12 Main St',
        sub_text: 'ZIP code',
      },
      { text: '12 Main St, Davie, FL 33314', id: 'zip:33314|12 Main St', sub_text: 'ZIP code' },
      { text: '12 Main St, Davie, FL 33324', id: 'zip:33324|12 Main St', sub_text: 'ZIP code' },
    ]);
    expect(await provider.suggest('333', 1)).toHaveLength(1);
    expect((await provider.suggest('3331', 5)).map((result) => result.id)).toEqual(['zip:33314']);
  });

  it('suggests cities by their beginning, the exact name first, filtered by a typed state', async () => {
    const cities = await provider.suggest('springfield', 5);
    expect(cities.map((result) => result.text)).toEqual([
      'Springfield, IL 62701',
      'Springfield, MA 01101',
    ]);
    expect((await provider.suggest('spring ma', 5)).map((result) => result.text)).toEqual([
      'Springfield, MA 01101',
    ]);
    // A city with several ZIP codes leaves the code to the applicant.
    expect(await provider.suggest('5 Oak Ave, dav', 5)).toEqual([
      {
        text: '5 Oak Ave, Davie, FL',
        id: 'city:FL:Davie|5 Oak Ave',
        sub_text: 'City; 2 ZIP codes',
      },
    ]);
  });

  it('suggests nothing for a street alone or an unknown place', async () => {
    expect(await provider.suggest('12 Main St', 5)).toEqual([]);
    expect(await provider.suggest('Atlantis', 5)).toEqual([]);
    expect(await provider.suggest('', 5)).toEqual([]);
  });

  it('reads back the address of a suggestion', async () => {
    expect(await provider.find('city:FL:Davie|5 Oak Ave')).toEqual({
      id: 'city:FL:Davie|5 Oak Ave',
      name: '5 Oak Ave, Davie, FL',
      address_line_1: '5 Oak Ave',
      city: 'Davie',
      state: 'FL',
      zip: '',
      ceeb: '',
      country: 'USA',
    });
    expect(await provider.find('zip:62701')).toMatchObject({
      address_line_1: '',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
  });

  it('knows nothing of ids it did not give', async () => {
    for (const id of ['zip:99999', 'city:FL:Nowhere', 'street:1', 'zip:', '']) {
      expect(await provider.find(id)).toBeNull();
    }
  });

  it('loads its table once, on first use', async () => {
    let loads = 0;
    const counted = zipCodeAddressProvider(async () => {
      loads++;
      return entries;
    });
    expect(loads).toBe(0);
    await Promise.all([counted.suggest('333', 5), counted.find('zip:33314')]);
    expect(loads).toBe(1);
  });
});

describe('the US ZIP codes of the zipcodes package', () => {
  it('hold five-digit codes with a city and a state', async () => {
    const codes = await loadUsZipCodes();
    expect(codes.length).toBeGreaterThan(40_000);
    expect(codes.find((code) => code.zip === '10001')).toEqual({
      zip: '10001',
      city: 'New York',
      state: 'NY',
    });
    expect(codes.every((code) => /^\d{5}$/.test(code.zip) && code.state.length === 2)).toBe(true);
  });
});
