import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/http-error';
import {
  parseApplicationSelection,
  parseSelectionQueryString,
  rawQueryOf,
  SELECTION_NOT_LIST_PARAMETER_MESSAGE,
} from './application-selection';

function refusal(run: () => unknown): { status: number; errors: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.statusCode, errors: error.errors };
    throw error;
  }
  throw new Error('not refused');
}

describe('a selection of applications by a list’s query', () => {
  it('reads the list’s filters, search and sort, and keeps the query in the table’s order', () => {
    const selection = parseSelectionQueryString(
      '?sort=name&has_missing=true&decision=admit&status=submitted&status=started&q=%20lopez',
    );
    expect(selection.request).toMatchObject({ q: 'lopez', sort: 'name', direction: 'asc' });
    expect(selection.request.filters.map((filter) => filter.name)).toEqual([
      'status',
      'decision',
      'has_missing',
    ]);
    expect(selection.filters).toEqual({
      status: ['submitted', 'started'],
      decision: ['admit'],
      has_missing: true,
    });
    expect(selection.queryString).toBe(
      'q=+lopez&status=submitted&status=started&decision=admit&has_missing=true&sort=name',
    );
    expect(parseSelectionQueryString(selection.queryString).queryString).toBe(
      selection.queryString,
    );
  });

  it('refuses the list’s paging and its address lookup by name', () => {
    const { status, errors } = refusal(() => parseSelectionQueryString('page=2&email=a@b.edu'));
    expect(status).toBe(400);
    expect(errors).toEqual({
      page: [SELECTION_NOT_LIST_PARAMETER_MESSAGE],
      email: [SELECTION_NOT_LIST_PARAMETER_MESSAGE],
    });
  });

  it('refuses what the list refuses, and a NUL anywhere', () => {
    expect(refusal(() => parseSelectionQueryString('status=admitted')).errors).toMatchObject({
      'status.0': [expect.stringMatching(/status is one of/)],
    });
    expect(refusal(() => parseSelectionQueryString('colour=red')).status).toBe(400);
    expect(refusal(() => parseApplicationSelection({ term: 'a\u0000b' })).status).toBe(400);
  });

  it('reads a parameter given twice as a list', () => {
    expect(rawQueryOf('term=A&term=B&q=x')).toEqual({ term: ['A', 'B'], q: 'x' });
  });
});
