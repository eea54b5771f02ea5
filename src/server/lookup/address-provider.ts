import { normaliseLookupText } from '../../shared/lookup/lookup-api';
import type { LookupRecord, LookupResult } from '../../shared/lookup/lookup-schemas';

/**
 * Where address suggestions come from (the `address` lookup category). The built-in provider
 * knows US ZIP codes, cities and states; a street-level geocoder (a commercial or self-hosted
 * service) implements the same two calls and is passed to the lookup plugin instead.
 */
export interface AddressProvider {
  /** Up to `maxResults` suggestions for what the applicant typed into the first address line. */
  suggest(text: string, maxResults: number): Promise<LookupResult[]>;
  /** The address behind a suggestion's id; null when the id is unknown. */
  find(id: string): Promise<LookupRecord | null>;
}

export interface ZipCodeEntry {
  zip: string;
  city: string;
  state: string;
}

const UNITED_STATES = 'USA';
const MAX_STREET_LENGTH = 100;

interface Place {
  city: string;
  state: string;
  /** Every ZIP code of the city, ascending. */
  zips: string[];
}

interface Index {
  byZip: Map<string, ZipCodeEntry>;
  /** ZIP codes ascending, for prefix search. */
  zips: string[];
  /** Cities by lower-case name, then state, for prefix search. */
  places: Array<{ key: string; place: Place }>;
  placesByKey: Map<string, Place>;
  states: ReadonlySet<string>;
}

function buildIndex(entries: readonly ZipCodeEntry[]): Index {
  const byZip = new Map<string, ZipCodeEntry>();
  const placesByKey = new Map<string, Place>();
  for (const entry of entries) {
    byZip.set(entry.zip, entry);
    const key = placeKey(entry.city, entry.state);
    const place = placesByKey.get(key) ?? { city: entry.city, state: entry.state, zips: [] };
    place.zips.push(entry.zip);
    placesByKey.set(key, place);
  }
  for (const place of placesByKey.values()) place.zips.sort();
  const places = [...placesByKey.entries()]
    .map(([key, place]) => ({ key, place }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const states = new Set(entries.map((entry) => entry.state));
  return { byZip, zips: [...byZip.keys()].sort(), places, placesByKey, states };
}

const placeKey = (city: string, state: string) => `${city.toLowerCase()}|${state.toLowerCase()}`;

/** The first index whose value is not below `prefix` in a sorted list. */
function lowerBound<T>(list: readonly T[], prefix: string, keyOf: (item: T) => string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(list[middle] as T) < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * What was typed into the first address line, split into the street and the place to look up:
 * "12 Main St, Davie", "12 Main St, 33314", "12 Main St 33314", "Davie FL", "33314".
 */
export interface TypedAddress {
  street: string;
  /** A ZIP code or its beginning, or a city's name or its beginning. */
  place: string;
  /** A two-letter state code typed after the city, if any. */
  state: string;
}

export function splitTypedAddress(typed: string, knownStates: ReadonlySet<string>): TypedAddress {
  const text = normaliseLookupText(typed);
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  let state = '';
  const last = parts.at(-1) ?? '';
  if (parts.length >= 2 && knownStates.has(last.toUpperCase())) {
    state = last.toUpperCase();
    parts.pop();
  }
  let place = parts.pop() ?? '';
  let street = parts.join(', ');
  if (!state) {
    // "Davie FL": a state code after the city's name.
    const withState = /^(.*\D)\s+([A-Za-z]{2})$/.exec(place);
    if (withState && knownStates.has((withState[2] as string).toUpperCase())) {
      place = (withState[1] as string).trim();
      state = (withState[2] as string).toUpperCase();
    }
  }
  if (street === '') {
    // "12 Main St 33314": a ZIP code at the end of the street.
    const withZip = /^(.*\S)\s+(\d{5})$/.exec(place);
    if (withZip) {
      street = withZip[1] as string;
      place = withZip[2] as string;
    } else if (/^\d+\s/.test(place)) {
      // A line starting with a house number is a street, with no place typed yet.
      return { street: place, place: '', state };
    }
  }
  return { street, place, state };
}

const encodeId = (kind: 'zip' | 'city', value: string, street: string) =>
  street ? `${kind}:${value}|${street}` : `${kind}:${value}`;

function decodeId(id: string): { kind: string; value: string; street: string } | null {
  const match = /^(zip|city):([^|]+)(?:\|(.*))?$/s.exec(id);
  if (!match) return null;
  return { kind: match[1] as string, value: match[2] as string, street: match[3] ?? '' };
}

/**
 * Suggestions from a table of US ZIP codes: a typed ZIP code (or its beginning) gives its city and
 * state; a typed city gives its state and, when the city has a single ZIP code, that code. What
 * was typed before the place is kept as the street. Loaded once, on the first address search.
 */
export function zipCodeAddressProvider(
  load: () => Promise<readonly ZipCodeEntry[]>,
): AddressProvider {
  let index: Promise<Index> | null = null;
  const ready = () => {
    index ??= load().then(buildIndex);
    return index;
  };

  function record(place: Place, zip: string, street: string, id: string): LookupRecord {
    const region = [place.state, zip].filter(Boolean).join(' ');
    const line = [street, place.city, region].filter(Boolean).join(', ');
    return {
      id,
      name: line,
      address_line_1: street,
      city: place.city,
      state: place.state,
      zip,
      ceeb: '',
      country: UNITED_STATES,
    };
  }

  const result = (found: LookupRecord, subText: string): LookupResult => ({
    text: found.name,
    id: found.id,
    sub_text: subText,
  });

  return {
    async suggest(typed, maxResults) {
      const { byZip, zips, places, placesByKey, states } = await ready();
      const { street, place, state } = splitTypedAddress(typed, states);
      const streetPart = street.slice(0, MAX_STREET_LENGTH);
      if (place === '') return [];
      const results: LookupResult[] = [];
      if (/^\d{1,5}$/.test(place)) {
        for (let i = lowerBound(zips, place, (zip) => zip); i < zips.length; i++) {
          const zip = zips[i] as string;
          if (!zip.startsWith(place) || results.length >= maxResults) break;
          const entry = byZip.get(zip) as ZipCodeEntry;
          const found = placesByKey.get(placeKey(entry.city, entry.state)) as Place;
          results.push(
            result(record(found, zip, streetPart, encodeId('zip', zip, streetPart)), 'ZIP code'),
          );
        }
        return results;
      }
      const prefix = place.toLowerCase();
      const matching: Place[] = [];
      for (let i = lowerBound(places, prefix, (item) => item.key); i < places.length; i++) {
        const item = places[i] as { key: string; place: Place };
        if (!item.key.startsWith(prefix)) break;
        if (state && item.place.state !== state) continue;
        matching.push(item.place);
      }
      // The city named exactly comes before longer names that start the same way.
      matching.sort(
        (a, b) =>
          Number(b.city.toLowerCase() === prefix) - Number(a.city.toLowerCase() === prefix) ||
          b.zips.length - a.zips.length,
      );
      for (const found of matching.slice(0, maxResults)) {
        const single = found.zips.length === 1 ? (found.zips[0] as string) : '';
        const id = encodeId('city', `${found.state}:${found.city}`, streetPart);
        const note = single ? 'City and ZIP code' : `City; ${found.zips.length} ZIP codes`;
        results.push(result(record(found, single, streetPart, id), note));
      }
      return results;
    },

    async find(id) {
      const { byZip, placesByKey } = await ready();
      const decoded = decodeId(id);
      if (!decoded) return null;
      const street = decoded.street.slice(0, MAX_STREET_LENGTH);
      if (decoded.kind === 'zip') {
        const entry = byZip.get(decoded.value);
        const found = entry && placesByKey.get(placeKey(entry.city, entry.state));
        return found ? record(found, decoded.value, street, id) : null;
      }
      const [state = '', city = ''] = decoded.value.split(/:(.*)/s);
      const found = placesByKey.get(placeKey(city, state));
      if (!found) return null;
      return record(found, found.zips.length === 1 ? (found.zips[0] as string) : '', street, id);
    },
  };
}

/** The `zipcodes` package's US codes (BSD licensed); its Canadian entries name areas, not cities. */
export async function loadUsZipCodes(): Promise<ZipCodeEntry[]> {
  const { codes } = (await import('zipcodes')).default;
  return Object.values(codes)
    .filter((code) => code.country === 'US' && /^\d{5}$/.test(code.zip))
    .map((code) => ({ zip: code.zip, city: code.city, state: code.state }));
}
