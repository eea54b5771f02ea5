import { z } from 'zod';
import { LOOKUP_MAX_RESULTS } from '../constants';
import {
  LOOKUP_CATEGORIES,
  LOOKUP_ID_MAX_LENGTH,
  LOOKUP_MESSAGES,
  LOOKUP_TEXT_MAX_LENGTH,
} from './lookup-api';

/** The schemas of GET /lookup/find; apart from lookup-api.ts so the form's first load needs no zod. */
const maxResults = z.coerce
  .number({ error: LOOKUP_MESSAGES.maxResults })
  .int(LOOKUP_MESSAGES.maxResults)
  .min(1, LOOKUP_MESSAGES.maxResults)
  .max(LOOKUP_MAX_RESULTS, LOOKUP_MESSAGES.maxResults);

/** The query string of GET /lookup/find: a search (text) or one record (id), never both. */
export const lookupFindQuerySchema = z
  .strictObject({
    category: z.enum(LOOKUP_CATEGORIES, { error: LOOKUP_MESSAGES.category }),
    text: z.string().max(LOOKUP_TEXT_MAX_LENGTH, LOOKUP_MESSAGES.textTooLong).optional(),
    id: z
      .string()
      .min(1, LOOKUP_MESSAGES.idLength)
      .max(LOOKUP_ID_MAX_LENGTH, LOOKUP_MESSAGES.idLength)
      .optional(),
    max_results: maxResults.optional(),
  })
  .check((context) => {
    const query = context.value;
    if ((query.text === undefined) === (query.id === undefined)) {
      context.issues.push({ code: 'custom', message: LOOKUP_MESSAGES.textOrId, input: query });
    }
  });
export type LookupFindQuery = z.infer<typeof lookupFindQuerySchema>;

export const lookupResultSchema = z.strictObject({
  text: z.string(),
  id: z.string(),
  sub_text: z.string(),
});
export type LookupResult = z.infer<typeof lookupResultSchema>;

export const lookupResultsSchema = z.array(lookupResultSchema).max(LOOKUP_MAX_RESULTS);

/** One record; an unknown field is an empty string, as an unanswered question is. */
export const lookupRecordSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  address_line_1: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  ceeb: z.string(),
  country: z.string(),
});
export type LookupRecord = z.infer<typeof lookupRecordSchema>;
