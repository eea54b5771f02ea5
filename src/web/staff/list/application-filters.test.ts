import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS_MAX } from '../../../shared/staff/application-api';
import { applicationListQuery } from '../../../shared/staff/application-list-api';
import { filterLabelsOf, requirementChoices } from '../common/list-filter-choices';
import {
  applicantName,
  applicationHref,
  ariaSortOf,
  chosenColumnsText,
  clearedFilters,
  csvExportHref,
  currentSort,
  EMPTY_LIST_QUERY,
  foundSentence,
  hasFilters,
  listQueryFromSearch,
  listQueryString,
  mappedShareText,
  missingItemsText,
  pageCount,
  rangeSentence,
  termChoices,
  toggledColumns,
  withFilters,
  withPage,
  withPageSize,
  withSort,
} from './application-filters';
import { exportColumnsOf } from './list-calls';

const parse = (search: string) => listQueryFromSearch(new URLSearchParams(search));

describe('the list query in the address', () => {
  it('reads every filter, repeated ones as lists, and ignores what the list does not know', () => {
    const query = parse(
      'q=mar%C3%ADa&status=submitted&status=started&term=FA2026&program=209&decision_type=ED' +
        '&decision=admit&decision=waitlist&submitted_from=2026-01-01&submitted_to=2026-02-01&has_missing=true&gpa_min=2.4&credit=needs_review&requirement=golden_four:met&sort=name' +
        '&direction=desc&page=3&page_size=50&email=x@example.com&utm=1',
    );
    expect(query).toEqual({
      q: 'maría',
      status: ['submitted', 'started'],
      term: ['FA2026'],
      program: ['209'],
      decision_type: ['ED'],
      decision: ['admit', 'waitlist'],
      submitted_from: '2026-01-01',
      submitted_to: '2026-02-01',
      has_missing: 'true',
      gpa_min: '2.4',
      units_min: '',
      credit: ['needs_review'],
      requirement: ['golden_four:met'],
      review_status: [],
      recommendation: [],
      new_since: '',
      sort: 'name',
      direction: 'desc',
      page: 3,
      page_size: 50,
    });
  });

  it('gives the defaults for an empty address and for pages that are not numbers', () => {
    expect(parse('')).toEqual(EMPTY_LIST_QUERY);
    expect(parse('page=0&page_size=abc&has_missing=maybe')).toEqual(EMPTY_LIST_QUERY);
  });

  it('drops empty and repeated values', () => {
    expect(parse('status=&status=started&status=started').status).toEqual(['started']);
  });

  it('writes one address per view: defaults left out, the search trimmed', () => {
    expect(listQueryString(EMPTY_LIST_QUERY)).toBe('');
    expect(listQueryString({ ...EMPTY_LIST_QUERY, q: '  lopez ', page: 2, page_size: 100 })).toBe(
      'q=lopez&page=2&page_size=100',
    );
    const search =
      'q=lopez&status=started&status=submitted&term=FA2026&submitted_to=2026-03-01&has_missing=false&sort=email&direction=asc';
    expect(listQueryString(parse(search))).toBe(search);
  });

  it('keeps the decision filter through the address and back, apart from the decision type', () => {
    const search = 'status=submitted&decision_type=ED&decision=admit&decision=defer';
    const query = parse(search);
    expect(query.decision).toEqual(['admit', 'defer']);
    expect(query.decision_type).toEqual(['ED']);
    expect(listQueryString(query)).toBe(search);
    expect(hasFilters({ ...EMPTY_LIST_QUERY, decision: ['admit'] })).toBe(true);
    expect(clearedFilters({ ...query, sort: 'name' })).toEqual({
      ...EMPTY_LIST_QUERY,
      sort: 'name',
    });
    expect(withFilters({ ...query, page: 3 }, { decision: ['deny'] })).toMatchObject({
      decision: ['deny'],
      page: 1,
    });
  });

  it('is what the server accepts', () => {
    const search = listQueryString({
      ...EMPTY_LIST_QUERY,
      q: 'lopez',
      status: ['submitted'],
      term: ['FA2026', 'SP2027'],
      sort: 'submitted_at',
      direction: 'desc',
      page: 2,
      page_size: 50,
    });
    const params = new URLSearchParams(search);
    const raw: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const values = params.getAll(key);
      raw[key] = values.length > 1 ? values : (values[0] ?? '');
    }
    const parsed = applicationListQuery.safeParse(raw);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('leaves the pages out of exports and adds the columns', () => {
    const query = { ...EMPTY_LIST_QUERY, status: ['submitted'], page: 4, page_size: 50 };
    expect(csvExportHref('/x.csv', query, ['id', 'email'])).toBe(
      '/x.csv?status=submitted&columns=id%2Cemail',
    );
  });

  it('carries the whole query to the application page', () => {
    expect(applicationHref('a b', { ...EMPTY_LIST_QUERY, q: 'lopez', page: 2 })).toBe(
      '/staff/applications/a%20b?q=lopez&page=2',
    );
    expect(applicationHref('id1', EMPTY_LIST_QUERY)).toBe('/staff/applications/id1');
  });
});

describe('changing the view', () => {
  const start = { ...EMPTY_LIST_QUERY, page: 5 };

  it('starts again at the first page when the filters or the page size change', () => {
    expect(withFilters(start, { status: ['started'] })).toMatchObject({
      status: ['started'],
      page: 1,
    });
    expect(withPageSize(start, 100)).toMatchObject({ page_size: 100, page: 1 });
    expect(withPage(start, 0).page).toBe(1);
  });

  it('sorts a new column ascending, and the same column again the other way', () => {
    const byName = withSort(start, 'name');
    expect(byName).toMatchObject({ sort: 'name', direction: 'asc', page: 1 });
    expect(withSort(byName, 'name')).toMatchObject({ sort: 'name', direction: 'desc' });
    expect(withSort(withSort(byName, 'name'), 'name').direction).toBe('asc');
    expect(withSort(byName, 'email')).toMatchObject({ sort: 'email', direction: 'asc' });
  });

  it('knows the order the server uses when none is asked for', () => {
    expect(currentSort(EMPTY_LIST_QUERY)).toEqual({ sort: 'last_activity', direction: 'desc' });
    expect(currentSort({ ...EMPTY_LIST_QUERY, q: 'lopez' })).toEqual({
      sort: null,
      direction: 'desc',
    });
    expect(currentSort({ ...EMPTY_LIST_QUERY, sort: 'name' })).toEqual({
      sort: 'name',
      direction: 'asc',
    });
    expect(ariaSortOf(EMPTY_LIST_QUERY, 'last_activity')).toBe('descending');
    expect(ariaSortOf(EMPTY_LIST_QUERY, 'name')).toBe('none');
    expect(ariaSortOf({ ...EMPTY_LIST_QUERY, sort: 'email' }, 'email')).toBe('ascending');
    // An unknown column in an edited address is the server's to refuse; no header claims it.
    expect(ariaSortOf({ ...EMPTY_LIST_QUERY, sort: 'shoe_size' }, 'last_activity')).toBe(
      'descending',
    );
  });

  it('clears the search and filters but keeps the order and page size', () => {
    const query = parse('q=x&status=started&has_missing=true&sort=name&page_size=50&page=3');
    expect(hasFilters(query)).toBe(true);
    const cleared = clearedFilters(query);
    expect(hasFilters(cleared)).toBe(false);
    expect(listQueryString(cleared)).toBe('sort=name&page_size=50');
  });
});

describe('what the page says', () => {
  it('counts what was found', () => {
    expect(foundSentence(0, true)).toBe('No applications found');
    expect(foundSentence(1, true)).toBe('1 application found');
    expect(foundSentence(1234, true)).toBe('1,234 applications found');
    expect(foundSentence(10000, false)).toBe('More than 10,000 applications found');
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(51, 25)).toBe(3);
    expect(rangeSentence(2, 25, 25, 60, true)).toBe('Showing 26–50 of 60');
    expect(rangeSentence(1, 25, 0, 0, true)).toBe('');
  });

  it('names applicants family name first, with a preferred name that differs', () => {
    const name = (first_name: string, last_name: string, preferred_name = '') =>
      applicantName({ first_name, last_name, preferred_name });
    expect(name('Maria', 'Lopez', 'Mari')).toBe('Lopez, Maria (Mari)');
    expect(name('Maria', 'Lopez', 'Maria')).toBe('Lopez, Maria');
    expect(name('', 'Lopez')).toBe('Lopez');
    expect(name('', '', 'Mari')).toBe('Mari');
    expect(name('', '')).toBe('');
    expect(missingItemsText(null)).toBe('—');
    expect(missingItemsText(0)).toBe('0');
    expect(mappedShareText({ credit_courses: 6, credit_mapped: 5 })).toBe('5/6');
    expect(mappedShareText({ credit_courses: 0, credit_mapped: 0 })).toBe('—');
    expect(mappedShareText({ credit_courses: null, credit_mapped: null })).toBe('—');
  });

  it('offers each tenant requirement with each status, and keeps one from the address', () => {
    const requirements = [
      { id: 'golden_four', label: 'Golden Four' },
      { id: 'units_60', label: '60 units' },
    ];
    const choices = requirementChoices(requirements, ['adt:met']);
    expect(choices.slice(0, 3)).toEqual([
      { value: 'golden_four:met', label: 'Golden Four: Met' },
      { value: 'golden_four:in_progress', label: 'Golden Four: In progress' },
      { value: 'golden_four:not_met', label: 'Golden Four: Not met' },
    ]);
    expect(choices).toHaveLength(7);
    expect(choices.at(-1)).toEqual({ value: 'adt:met', label: 'adt: Met' });
    const labels = filterLabelsOf(
      2026,
      { credit: ['needs_review'], requirement: ['units_60:not_met'] },
      new Map(),
      requirements,
    );
    expect(labels.credit?.get('needs_review')).toBe('Needs review');
    expect(labels.requirement?.get('units_60:not_met')).toBe('60 units: Not met');
  });

  it('offers the entry terms of recent years in order, and keeps a term from the address', () => {
    const terms = termChoices(2026, ['SP1999']);
    const values = terms.map((term) => term.value);
    expect(values.slice(0, 2)).toEqual(['FA2024', 'WI2025']);
    expect(values).toContain('FA2027');
    expect(new Set(values).size).toBe(values.length);
    expect(terms.at(-1)).toEqual({ value: 'SP1999', label: 'SP1999' });
  });

  it('reads the export columns', () => {
    const reply = {
      columns: [
        { id: 'id', label: 'Application id', group: 'fixed' },
        { id: 'first_name', label: 'First name', group: 'answer' },
        { label: 'no id', group: 'answer' },
      ],
      default_columns: ['id'],
      max: 300,
      checklist_item_prefix: 'checklist:',
    };
    expect(exportColumnsOf(reply)).toEqual({
      columns: [
        { key: 'id', label: 'Application id', group: 'Application' },
        { key: 'first_name', label: 'First name', group: 'Answers' },
      ],
      default: ['id'],
      max: 300,
    });
    expect(exportColumnsOf(null)).toEqual({ columns: [], default: [], max: EXPORT_COLUMNS_MAX });
  });
});

describe('the CSV columns chosen', () => {
  it('keep the order they were chosen in: a new one goes last, one taken off leaves its place', () => {
    let chosen: string[] = [];
    for (const column of ['email', 'decision_label', 'id']) {
      chosen = toggledColumns(chosen, column, true);
    }
    expect(chosen).toEqual(['email', 'decision_label', 'id']);
    expect(toggledColumns(chosen, 'decision_label', false)).toEqual(['email', 'id']);
    expect(toggledColumns(['id', 'email'], 'last_name', true)).toEqual([
      'id',
      'email',
      'last_name',
    ]);
    expect(toggledColumns(['id', 'email'], 'id', true)).toEqual(['email', 'id']);
  });

  it('are named in that order, the first few of a long choice', () => {
    expect(chosenColumnsText([])).toBe('none yet.');
    expect(chosenColumnsText(['Email address', 'Decision'])).toBe('Email address, Decision.');
    expect(chosenColumnsText(['A', 'B', 'C', 'D'], 2)).toBe('A, B and 2 more.');
  });
});
