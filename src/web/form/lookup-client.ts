import {
  type LookupCategory,
  lookupRecordUrl,
  lookupSearchUrl,
} from '../../shared/lookup/lookup-api';
import {
  type LookupRecord,
  type LookupResult,
  lookupRecordSchema,
  lookupResultsSchema,
} from '../../shared/lookup/lookup-schemas';
import { getJson } from '../data/http-client';

/**
 * Suggestions for what was typed. Spec 000 section 7: a failed list is an empty list, so the
 * applicant can still keep what they typed; lookup failures are silent.
 */
export async function fetchSuggestions(
  category: LookupCategory,
  text: string,
): Promise<LookupResult[]> {
  try {
    const parsed = lookupResultsSchema.safeParse(await getJson(lookupSearchUrl(category, text)));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The record behind a suggestion, or null when it cannot be had (the caller keeps the label). */
export async function fetchRecord(
  category: LookupCategory,
  id: string,
): Promise<LookupRecord | null> {
  try {
    const parsed = lookupRecordSchema.safeParse(await getJson(lookupRecordUrl(category, id)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
