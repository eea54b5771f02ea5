import { describe, expect, it } from 'vitest';
import {
  APPLICATION_LIST_FILTERS,
  APPLICATION_LIST_MESSAGES,
  applicationListQuery,
  givenListFilters,
  listQueryParams,
  listRequestOf,
  unknownRequirementFilter,
  unknownRequirementMessage,
} from './application-list-api';
import {
  anyListFilter,
  appendListFilters,
  EMPTY_LIST_FILTERS,
  LIST_FILTERS,
  type ListFilterQuery,
  listFiltersFromParams,
  paramsOfFilter,
  parseRequirementFilterValue,
  requirementFilterValue,
} from './list-filters';
import { EMPTY_LIST_QUERY, listQueryFromSearch, listQueryString } from './list-query';

const parse = (search: string) => applicationListQuery.safeParse(listQueryParams(search));
const addressOf = (filters: Partial<ListFilterQuery>) => {
  const params = new URLSearchParams();
  appendListFilters(params, { ...EMPTY_LIST_FILTERS, ...filters });
  return params.toString();
};

describe('the filter table', () => {
  it('names each parameter once, in the order the page shows the filters', () => {
    expect(APPLICATION_LIST_FILTERS).toEqual([
      'status',
      'term',
      'program',
      'decision_type',
      'decision',
      'submitted_from',
      'submitted_to',
      'has_missing',
      'gpa_min',
      'units_min',
      'credit',
      'requirement',
      'review_status',
      'recommendation',
      'new_since',
    ]);
    expect(new Set(APPLICATION_LIST_FILTERS).size).toBe(APPLICATION_LIST_FILTERS.length);
    for (const param of ['q', 'sort', 'direction', 'page', 'page_size', 'email']) {
      expect(APPLICATION_LIST_FILTERS).not.toContain(param);
    }
  });

  it('gives every control an id of its own', () => {
    const ids = LIST_FILTERS.flatMap((row) =>
      row.kind === 'date_range' ? [row.fromId, row.toId] : 'id' in row ? [row.id] : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts every filter empty', () => {
    expect(anyListFilter(EMPTY_LIST_FILTERS)).toBe(false);
    expect(addressOf({})).toBe('');
  });
});

describe('the request schema derived from the table', () => {
  it('accepts every kind: several choices, one choice given twice, a date range, yes/no, at least', () => {
    const parsed = parse(
      'status=started&status=submitted&term=FA2026&term=SP2027&program=209&decision_type=ED' +
        '&decision=admit&submitted_from=2026-01-01&submitted_to=2026-02-01&has_missing=false' +
        '&gpa_min=2.4&units_min=60&credit=needs_review&requirement=golden_four:met',
    );
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    if (!parsed.success) return;
    expect(givenListFilters(parsed.data)).toEqual({
      status: ['started', 'submitted'],
      term: ['FA2026', 'SP2027'],
      program: ['209'],
      decision_type: ['ED'],
      decision: ['admit'],
      submitted_from: '2026-01-01',
      submitted_to: '2026-02-01',
      has_missing: false,
      gpa_min: 2.4,
      units_min: 60,
      credit: ['needs_review'],
      requirement: ['golden_four:met'],
    });
    expect(listRequestOf(parsed.data).filters).toEqual([
      { kind: 'values', name: 'status', column: 'list_status', values: ['started', 'submitted'] },
      { kind: 'values', name: 'term', column: 'list_entry_term', values: ['FA2026', 'SP2027'] },
      { kind: 'values', name: 'program', column: 'list_program_code', values: ['209'] },
      { kind: 'values', name: 'decision_type', column: 'list_decision_type', values: ['ED'] },
      { kind: 'values', name: 'decision', column: 'decision_code', values: ['admit'] },
      {
        kind: 'date_range',
        name: 'submitted',
        column: 'submitted_at',
        from: '2026-01-01',
        to: '2026-02-01',
      },
      { kind: 'yes_no', name: 'has_missing', column: 'missing_items', yes: false },
      { kind: 'at_least', name: 'gpa_min', column: 'transfer_gpa', min: 2.4 },
      { kind: 'at_least', name: 'units_min', column: 'transfer_units', min: 60 },
      { kind: 'values', name: 'credit', column: 'credit_review', values: ['needs_review'] },
      {
        kind: 'values',
        name: 'requirement',
        column: 'credit_requirements',
        values: ['golden_four:met'],
      },
    ]);
  });

  it('takes a requirement with each status, the id checked later against the tenant', () => {
    const parsed = parse(
      'requirement=golden_four:met&requirement=units_60:in_progress&requirement=adt:not_met',
    );
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.success && parsed.data.requirement).toEqual([
      'golden_four:met',
      'units_60:in_progress',
      'adt:not_met',
    ]);
    // The schema does not know the tenant: an id of the right form passes it.
    expect(parse('requirement=no_such_thing:met').success).toBe(true);
    const known = ['units_60', 'golden_four'];
    expect(unknownRequirementFilter({ requirement: ['golden_four:met'] }, known)).toBeNull();
    expect(unknownRequirementFilter({}, known)).toBeNull();
    expect(unknownRequirementFilter({ requirement: ['units_60:met', 'adt:met'] }, known)).toBe(
      'adt:met',
    );
    expect(unknownRequirementMessage(known)).toBe(
      'A requirement filter names one of the requirements: units_60, golden_four.',
    );
    expect(unknownRequirementMessage([])).toBe(
      'This office evaluates no credit requirements: leave out the requirement filter.',
    );
  });

  it('reads a requirement value as its id and status', () => {
    expect(requirementFilterValue('golden_four', 'in_progress')).toBe('golden_four:in_progress');
    expect(parseRequirementFilterValue('golden_four:in_progress')).toEqual({
      id: 'golden_four',
      status: 'in_progress',
    });
    for (const bad of ['golden_four', 'golden_four:', ':met', 'Golden:met', 'a:b:met', 'x:done']) {
      expect(parseRequirementFilterValue(bad), bad).toBeNull();
    }
  });

  it('takes a bound of an at-least filter at its ends, with up to its decimals', () => {
    for (const [search, min] of [
      ['gpa_min=0', 0],
      ['gpa_min=5', 5],
      ['gpa_min=3.25', 3.25],
      ['gpa_min=.5', 0.5],
      ['gpa_min=%202.4%20', 2.4],
      ['units_min=1000', 1000],
      ['units_min=59.5', 59.5],
    ] as const) {
      const parsed = parse(search);
      expect(parsed.success, search).toBe(true);
      expect(parsed.success && listRequestOf(parsed.data).filters[0], search).toMatchObject({
        kind: 'at_least',
        min,
      });
    }
  });

  it('leaves a filter not given out of the request, and takes either end of a range alone', () => {
    const none = parse('');
    expect(none.success && listRequestOf(none.data).filters).toEqual([]);
    const from = parse('submitted_from=2026-03-01');
    expect(from.success && listRequestOf(from.data).filters).toEqual([
      {
        kind: 'date_range',
        name: 'submitted',
        column: 'submitted_at',
        from: '2026-03-01',
        to: null,
      },
    ]);
    const yes = parse('has_missing=true');
    expect(yes.success && listRequestOf(yes.data).filters).toEqual([
      { kind: 'yes_no', name: 'has_missing', column: 'missing_items', yes: true },
    ]);
  });

  it('refuses what a row does not take, with the same clear messages', () => {
    const bad: Array<[string, string, string]> = [
      ['status=admitted', 'status', APPLICATION_LIST_MESSAGES.status],
      [`program=${'p'.repeat(101)}`, 'program', APPLICATION_LIST_MESSAGES.filterValue],
      ['term=', 'term', APPLICATION_LIST_MESSAGES.filterValue],
      [
        Array.from({ length: 21 }, (_, index) => `term=T${index}`).join('&'),
        'term',
        APPLICATION_LIST_MESSAGES.tooManyValues,
      ],
      ['submitted_from=2026-13-01', 'submitted_from', APPLICATION_LIST_MESSAGES.date],
      [
        'submitted_from=2026-02-02&submitted_to=2026-02-01',
        'submitted_to',
        APPLICATION_LIST_MESSAGES.dateRange,
      ],
      ['has_missing=yes', 'has_missing', APPLICATION_LIST_MESSAGES.hasMissing],
      ['has_missing=true&has_missing=false', 'has_missing', APPLICATION_LIST_MESSAGES.hasMissing],
      ['gpa_min=high', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=5.01', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=-0.5', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=2.345', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=2e0', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['gpa_min=2&gpa_min=3', 'gpa_min', APPLICATION_LIST_MESSAGES.gpaMin],
      ['units_min=1001', 'units_min', APPLICATION_LIST_MESSAGES.unitsMin],
      ['units_min=0x10', 'units_min', APPLICATION_LIST_MESSAGES.unitsMin],
      ['credit=yes', 'credit', APPLICATION_LIST_MESSAGES.credit],
      ['requirement=golden_four', 'requirement', APPLICATION_LIST_MESSAGES.requirement],
      ['requirement=golden_four:done', 'requirement', APPLICATION_LIST_MESSAGES.requirement],
      ['requirement=Golden%20Four:met', 'requirement', APPLICATION_LIST_MESSAGES.requirement],
    ];
    for (const [search, path, message] of bad) {
      const parsed = parse(search);
      expect(parsed.success, search).toBe(false);
      const issue = parsed.error?.issues.find((one) => one.path.join('.').startsWith(path));
      expect(issue, search).toBeDefined();
      expect(issue?.message, search).toBe(message);
    }
    // A parameter no row names is refused (the server's 400 names it).
    const unknown = parse('colour=red');
    expect(unknown.error?.issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['colour'] }]);
    expect(APPLICATION_LIST_MESSAGES.status).toBe(
      'A status is one of: started, validating, submitted.',
    );
    expect(APPLICATION_LIST_MESSAGES.hasMissing).toBe('has_missing is true or false.');
    expect(APPLICATION_LIST_MESSAGES.gpaMin).toBe(
      'gpa_min is a number from 0 to 5 with at most 2 decimals.',
    );
    expect(APPLICATION_LIST_MESSAGES.unitsMin).toBe(
      'units_min is a number from 0 to 1000 with at most 2 decimals.',
    );
    expect(APPLICATION_LIST_MESSAGES.credit).toBe(
      'A transfer credit is one of: needs_review, reviewed.',
    );
    expect(APPLICATION_LIST_MESSAGES.requirement).toBe(
      "A requirement filter is a requirement's id and a status, such as golden_four:met; the status is one of: met, in_progress, not_met.",
    );
  });
});

describe('the address derived from the table', () => {
  const roundTrip = (search: string) =>
    listQueryString(listQueryFromSearch(new URLSearchParams(search)));

  it('writes and reads back every kind of filter', () => {
    for (const search of [
      '',
      'status=started',
      'status=started&status=validating&status=submitted',
      'term=FA2026',
      'term=FA2026&term=SP2027',
      'program=209&decision_type=ED&decision=admit&decision=defer',
      'submitted_from=2026-01-01',
      'submitted_to=2026-02-01',
      'submitted_from=2026-01-01&submitted_to=2026-02-01',
      'has_missing=true',
      'has_missing=false',
      'gpa_min=2.4',
      'gpa_min=2.4&units_min=60',
      'credit=needs_review',
      'credit=reviewed&requirement=golden_four%3Amet',
      'requirement=golden_four%3Amet&requirement=units_60%3Anot_met',
    ]) {
      expect(roundTrip(search), search).toBe(search);
    }
  });

  it('writes the table’s order whatever order the address came in', () => {
    expect(
      roundTrip(
        'units_min=30&has_missing=true&submitted_to=2026-02-01&gpa_min=3&decision=admit&status=started',
      ),
    ).toBe(
      'status=started&decision=admit&submitted_to=2026-02-01&has_missing=true&gpa_min=3&units_min=30',
    );
  });

  it('drops empty and repeated values, and a yes/no that is neither', () => {
    const filters = listFiltersFromParams(
      new URLSearchParams(
        'status=&status=started&status=started&term=%20&has_missing=maybe&gpa_min=%20',
      ),
    );
    expect(filters).toEqual({ ...EMPTY_LIST_FILTERS, status: ['started'] });
    expect(listQueryFromSearch(new URLSearchParams('submitted_from=%20'))).toEqual(
      EMPTY_LIST_QUERY,
    );
  });

  it('knows when a filter of each kind narrows the list', () => {
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, status: ['started'] })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, term: ['FA2026'] })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, submitted_to: '2026-01-01' })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, has_missing: 'false' })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, gpa_min: '2.4' })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, credit: ['reviewed'] })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, requirement: ['adt:met'] })).toBe(true);
    expect(anyListFilter({ ...EMPTY_LIST_FILTERS, new_since: 'true' })).toBe(true);
  });

  it('is what the server accepts, for every row', () => {
    const search = addressOf({
      status: ['submitted'],
      term: ['FA2026', 'SP2027'],
      program: ['209'],
      decision_type: ['ED'],
      decision: ['admit'],
      submitted_from: '2026-01-01',
      submitted_to: '2026-01-31',
      has_missing: 'true',
      gpa_min: '2.4',
      units_min: '60',
      credit: ['needs_review'],
      requirement: ['golden_four:met'],
      review_status: ['complete'],
      recommendation: ['admit'],
      new_since: 'true',
    });
    const parsed = parse(search);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const params = new Set(new URLSearchParams(search).keys());
    expect([...params]).toEqual(LIST_FILTERS.flatMap(paramsOfFilter));
  });
});
