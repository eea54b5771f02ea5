import {
  type ApplicationListQuery,
  type ApplicationListRequest,
  applicationListQuery,
  givenListFilters,
  type ListViewer,
  listRequestOf,
  unknownRequirementFilter,
  unknownRequirementMessage,
} from '../../shared/staff/application-list-api';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import { fieldErrors } from '../../shared/validation/field-errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../../shared/validation/storable-text';
import { INVALID_REQUEST_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';

/*
 * The applications a list's query selects, for whatever acts on all of them at once (a CSV or
 * ZIP export, a decision for this list, the bulk actions to come): exactly the list's filters,
 * search and sort. What the rows are read with is application-selection-store.ts.
 */

/**
 * A selection holds every match, so the list's paging, and its exact-address lookup, are
 * refused by name rather than ignored: a reader who sent them expects them to count.
 */
export const SELECTION_NOT_LIST_PARAMETER_MESSAGE =
  'An export holds every matching application: page, page_size and email are not part of it.';

const NOT_FOR_SELECTIONS = ['page', 'page_size', 'email'] as const;

/**
 * "New since I last looked" is each member's own: what acts on a list without knowing who asks
 * (a job run later, a decision for a list) refuses it by name rather than guessing.
 */
export const MEMBER_FILTER_NOT_HERE_MESSAGE =
  'The filter "New since I last looked" is your own and cannot be used here: leave out new_since.';

export type RawQuery = Record<string, string | string[] | undefined>;

export interface ApplicationSelection {
  request: ApplicationListRequest;
  /** The query string as validated, in a stable order: kept with a job and in the audit trail. */
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

function queryStringOf(query: ApplicationListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  return params.toString();
}

/**
 * The filters whose values are the tenant's own and that the request schema, which does not know
 * the tenant, lets through by their form: a requirement filter must name one of the tenant's
 * requirements, or it is a 400 naming the ones there are (its status the schema checks).
 */
export function checkTenantListFilters(
  tenant: Pick<TenantConfig, 'credit'>,
  query: { requirement?: readonly string[] },
): void {
  const known = tenant.credit.requirements.map((requirement) => requirement.id);
  if (unknownRequirementFilter(query, known) === null) return;
  const message = unknownRequirementMessage(known);
  throw new HttpError(400, message, { requirement: [message] });
}

/**
 * The selection of a list's query, or a 400 that names what cannot be used. Given the tenant,
 * the tenant's own filter values are checked too (checkTenantListFilters).
 */
export function parseApplicationSelection(
  raw: RawQuery,
  tenant?: Pick<TenantConfig, 'credit'>,
  viewer?: ListViewer,
): ApplicationSelection {
  const unstorable = unstorableTextPath(raw);
  if (unstorable !== null) {
    throw new HttpError(400, INVALID_REQUEST_MESSAGE, { [unstorable]: [UNSTORABLE_TEXT_MESSAGE] });
  }
  const refused = NOT_FOR_SELECTIONS.filter((key) => raw[key] !== undefined);
  if (refused.length > 0) {
    throw new HttpError(
      400,
      SELECTION_NOT_LIST_PARAMETER_MESSAGE,
      Object.fromEntries(refused.map((key) => [key, [SELECTION_NOT_LIST_PARAMETER_MESSAGE]])),
    );
  }
  const parsed = applicationListQuery.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, INVALID_REQUEST_MESSAGE, fieldErrors(parsed.error));
  if (tenant) checkTenantListFilters(tenant, parsed.data);
  if (parsed.data.new_since !== undefined && !viewer) {
    throw new HttpError(400, MEMBER_FILTER_NOT_HERE_MESSAGE, {
      new_since: [MEMBER_FILTER_NOT_HERE_MESSAGE],
    });
  }
  return {
    request: listRequestOf(parsed.data, viewer),
    queryString: queryStringOf(parsed.data),
    filters: givenListFilters(parsed.data),
  };
}

/** The selection of a query string as a list's address carries it (kept with a job, sent by a batch). */
export function parseSelectionQueryString(
  queryString: string,
  tenant?: Pick<TenantConfig, 'credit'>,
  viewer?: ListViewer,
): ApplicationSelection {
  return parseApplicationSelection(rawQueryOf(queryString), tenant, viewer);
}
