import { LOOKUP_MAX_RESULTS } from '../constants';
import {
  LOOKUP_CATEGORIES,
  type LookupCategory,
  type LookupRecordField,
} from '../form/lookup-binding';

/** GET /lookup/find (spec 000 sections 3 and 7): school and address suggestions, then one record. */
export const LOOKUP_PATH = '/lookup/find';

export {
  LOOKUP_CATEGORIES,
  LOOKUP_RECORD_FIELDS,
  type LookupCategory,
  type LookupRecordField,
} from '../form/lookup-binding';

/** The categories filled from an institution's own lists; addresses come from a provider. */
export const LIST_CATEGORIES = ['college_ceeb', 'hs_ceeb'] as const satisfies LookupCategory[];
export type ListCategory = (typeof LIST_CATEGORIES)[number];

export function isListCategory(category: string): category is ListCategory {
  return (LIST_CATEGORIES as readonly string[]).includes(category);
}

/**
 * The longest value each field may hold: the limits of the answer keys it fills, so a picked
 * record never produces an answer the server refuses. Imports are checked against them.
 */
export const LOOKUP_FIELD_MAX_LENGTH: Readonly<Record<LookupRecordField, number>> = {
  name: 100,
  address_line_1: 100,
  city: 45,
  state: 10,
  zip: 10,
  ceeb: 10,
  country: 10,
};

export const LOOKUP_TEXT_MAX_LENGTH = 100;
export const LOOKUP_ID_MAX_LENGTH = 200;

export const LOOKUP_MESSAGES = {
  category: `category must be one of ${LOOKUP_CATEGORIES.join(', ')}.`,
  textOrId: 'Send either text (to search) or id (to read one record), not both.',
  maxResults: `max_results must be a whole number from 1 to ${LOOKUP_MAX_RESULTS}.`,
  textTooLong: `text must be at most ${LOOKUP_TEXT_MAX_LENGTH} characters.`,
  idLength: `id must be 1 to ${LOOKUP_ID_MAX_LENGTH} characters.`,
  notFound: 'There is no such record in this list.',
} as const;

/** Collapses runs of white space, so '  lincoln   high ' searches as 'lincoln high'. */
export function normaliseLookupText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function lookupSearchUrl(category: LookupCategory, text: string): string {
  const query = new URLSearchParams({
    text,
    category,
    max_results: String(LOOKUP_MAX_RESULTS),
  });
  return `${LOOKUP_PATH}?${query}`;
}

export function lookupRecordUrl(category: LookupCategory, id: string): string {
  return `${LOOKUP_PATH}?${new URLSearchParams({ id, category })}`;
}
