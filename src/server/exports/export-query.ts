import {
  type ApplicationListQuery,
  type ApplicationListRequest,
  applicationListQuery,
  listRequestOf,
} from '../../shared/staff/application-list-api';
import { fieldErrors } from '../../shared/validation/field-errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../../shared/validation/storable-text';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';

/**
 * What an export reads from the list's query: exactly the list's filters, search and sort. An
 * export holds every match, so the list's paging, and its exact-address lookup, are refused by
 * name rather than ignored: a reader who sent them expects them to count.
 */
export const EXPORT_NOT_LIST_PARAMETER_MESSAGE =
  'An export holds every matching application: page, page_size and email are not part of it.';
export const EXPORT_QUERY_MESSAGE = 'Send the list’s query string, up to 2,000 characters.';
export const EXPORT_QUERY_MAX_LENGTH = 2000;

const NOT_FOR_EXPORTS = ['page', 'page_size', 'email'] as const;

export type RawQuery = Record<string, string | string[] | undefined>;

export interface ExportQuery {
  request: ApplicationListRequest;
  /** The query string as validated, in a stable order: kept with a ZIP job and in the audit trail. */
  queryString: string;
  /** The filters given (not the search or the sort), as the audit trail keeps them. */
  filters: Record<string, unknown>;
}

/** A query string as the list reads it: a parameter given twice is a list of values. */
export function rawQueryOf(queryString: string): RawQuery {
  const raw: RawQuery = {};
  for (const [key, value] of new URLSearchParams(queryString.replace(/^\?/, ''))) {
    const earlier = raw[key];
    raw[key] =
      earlier === undefined
        ? value
        : Array.isArray(earlier)
          ? [...earlier, value]
          : [earlier, value];
  }
  return raw;
}

function givenFilters(query: ApplicationListQuery): Record<string, unknown> {
  const { q: _q, sort: _sort, direction: _direction, ...rest } = query;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
}

function queryStringOf(query: ApplicationListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  return params.toString();
}

/** The list's query of an export, or a 400 that names what cannot be used. */
export function parseExportQuery(raw: RawQuery): ExportQuery {
  const unstorable = unstorableTextPath(raw);
  if (unstorable !== null) {
    throw new HttpError(400, INVALID_REQUEST_MESSAGE, { [unstorable]: [UNSTORABLE_TEXT_MESSAGE] });
  }
  const refused = NOT_FOR_EXPORTS.filter((key) => raw[key] !== undefined);
  if (refused.length > 0) {
    throw new HttpError(
      400,
      EXPORT_NOT_LIST_PARAMETER_MESSAGE,
      Object.fromEntries(refused.map((key) => [key, [EXPORT_NOT_LIST_PARAMETER_MESSAGE]])),
    );
  }
  const parsed = applicationListQuery.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, INVALID_REQUEST_MESSAGE, fieldErrors(parsed.error));
  return {
    request: listRequestOf(parsed.data),
    queryString: queryStringOf(parsed.data),
    filters: givenFilters(parsed.data),
  };
}
