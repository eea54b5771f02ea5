import { APPLICATION_LIST_FILTERS } from '../../../shared/staff/application-list-api';
import { STAFF_HOME_ROUTE } from '../shell/staff-session';

/** Where one application's page lives: `/staff/applications/<id>`. */

/**
 * What the list's address may carry, and so what the neighbours call accepts: the server refuses
 * anything else, so a stray parameter must not cost the reader previous and next. `email` is the
 * home page's lookup of one applicant, not a list, and the neighbours call refuses it.
 */
const LIST_PARAMS: ReadonlySet<string> = new Set([
  'q',
  ...APPLICATION_LIST_FILTERS,
  'sort',
  'direction',
  'page',
  'page_size',
]);

/** The list's query string (no `?`) out of an application page's search, in its given order. */
export function listQueryOf(search: string | URLSearchParams): string {
  const given = typeof search === 'string' ? new URLSearchParams(search) : search;
  const kept = new URLSearchParams();
  for (const [name, value] of given) {
    if (LIST_PARAMS.has(name) && value !== '') kept.append(name, value);
  }
  return kept.toString();
}

/** The list's query with the page a neighbour sits on, so the next step searches from there. */
export function withListPage(listQuery: string, page: number | null): string {
  if (page === null) return listQuery;
  const params = new URLSearchParams(listQuery);
  if (page === 1 && !params.has('page')) return listQuery;
  params.set('page', String(page));
  return params.toString();
}

/** Back to the list (the console's home page), as the reader left it. */
export function listPath(listQuery: string): string {
  return listQuery ? `${STAFF_HOME_ROUTE}?${listQuery}` : STAFF_HOME_ROUTE;
}

/** "3 of 120", or nothing when the application is not in the list (a filter changed under it). */
export function positionText(position: number | null, total: number): string {
  if (position === null || total === 0) return '';
  return `${position.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/** Why a step through the list goes nowhere, as the page says it when a key asked for one. */
export function queueEndMessage(
  action: 'next' | 'previous',
  neighbours: { position: number | null } | undefined,
  failed: boolean,
): string {
  if (failed) return 'The place of this application in the list could not be found.';
  if (!neighbours) return 'Still finding the place of this application in the list.';
  if (neighbours.position === null) return 'This application is not in the list any more.';
  return action === 'next'
    ? 'This is the last application in the list.'
    : 'This is the first application in the list.';
}

/** The applicant's name from the answers, or null: the page's heading falls back to the address. */
export function applicantName(answers: Record<string, string | boolean>): string | null {
  const name = [answers.first_name, answers.last_name]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ');
  return name === '' ? null : name;
}
