import { describe, expect, it, vi } from 'vitest';
import { releaseDecisionSchema } from '../../../shared/staff/decision-api';
import { EMPTY_LIST_QUERY } from '../../../shared/staff/list-query';
import { filterLabelsOf } from '../common/list-filter-choices';
import {
  batchRecordLabel,
  batchResultText,
  decisionCellText,
  decisionCodesOf,
  filtersSentence,
  formatDeadline,
  localInputOf,
  localInputToIso,
  releaseStateText,
  replyText,
  submittedQueryOf,
} from './decision-logic';

const format = (iso: string) => `<${iso}>`;

describe('a release time from the datetime-local input', () => {
  it('keeps the clock time and adds the browser offset for that date', () => {
    // getTimezoneOffset answers minutes behind UTC: 240 is UTC-4 (summer in New York).
    expect(localInputToIso('2027-03-15T17:00', () => 240)).toBe('2027-03-15T17:00:00-04:00');
    expect(localInputToIso('2027-01-15T09:05', () => 300)).toBe('2027-01-15T09:05:00-05:00');
    expect(localInputToIso('2027-01-15T09:05', () => -330)).toBe('2027-01-15T09:05:00+05:30');
    expect(localInputToIso('2027-01-15T09:05:30', () => 0)).toBe('2027-01-15T09:05:30+00:00');
  });

  it('asks the offset of the chosen date, not of today', () => {
    const seen: number[] = [];
    localInputToIso('2027-07-04T12:00', (date) => {
      seen.push(date.getMonth());
      return 0;
    });
    expect(seen).toEqual([6]);
  });

  it('is what the release route accepts', () => {
    const at = localInputToIso('2027-03-15T17:00');
    expect(at).not.toBeNull();
    expect(releaseDecisionSchema.safeParse({ at }).success).toBe(true);
    expect(new Date(at ?? '').getTime()).toBe(new Date(2027, 2, 15, 17, 0).getTime());
  });

  it('refuses what is not a whole, real date and time', () => {
    for (const value of ['', '2027-03-15', '2027-02-30T10:00', '2027-03-15T25:00', 'soon']) {
      expect(
        localInputToIso(value, () => 0),
        value,
      ).toBeNull();
    }
  });

  it('writes a moment back as the input’s value, for its earliest choice', () => {
    expect(localInputOf(new Date(2027, 0, 5, 8, 7))).toBe('2027-01-05T08:07');
  });
});

describe('where a decision stands', () => {
  const decision = { release_at: null, released_at: null };

  it('says not released, scheduled or released with the time', () => {
    expect(releaseStateText(decision, format)).toBe('Not released');
    expect(releaseStateText({ ...decision, release_at: '2027-03-15T21:00:00Z' }, format)).toBe(
      'Release scheduled for <2027-03-15T21:00:00Z>',
    );
    expect(
      releaseStateText(
        { release_at: '2027-03-15T21:00:00Z', released_at: '2027-03-15T21:00:02Z' },
        format,
      ),
    ).toBe('Released <2027-03-15T21:00:02Z>');
  });

  it('gives the reply to an offer, or the deadline it is awaited by', () => {
    const offer = {
      released_at: '2027-03-15T21:00:00Z',
      reply: null,
      replied_at: null,
      reply_deadline: '2027-05-01T23:59:59Z',
    };
    expect(replyText(offer, true, format, format)).toBe(
      'No reply yet (deadline <2027-05-01T23:59:59Z>)',
    );
    expect(replyText({ ...offer, reply_deadline: null }, true, format, format)).toBe(
      'No reply yet',
    );
    expect(
      replyText(
        { ...offer, reply: 'accepted', replied_at: '2027-04-02T10:00:00Z' },
        true,
        format,
        format,
      ),
    ).toBe('Offer accepted <2027-04-02T10:00:00Z>');
    expect(replyText({ ...offer, reply: 'declined' }, true, format, format)).toBe('Offer declined');
    expect(replyText({ ...offer, reply_deadline: null }, false, format, format)).toBeNull();
    // Nothing can be answered before the release.
    expect(replyText({ ...offer, released_at: null }, true, format, format)).toBeNull();
  });

  it('shows the deadline in the reader’s zone with the zone named', () => {
    vi.stubEnv('TZ', 'America/New_York');
    try {
      expect(formatDeadline('2027-05-02T03:59:59.999Z')).toBe('May 1, 2027 at 11:59 PM EDT');
      vi.stubEnv('TZ', 'UTC');
      expect(formatDeadline('2027-05-02T03:59:59.999Z')).toBe('May 2, 2027 at 3:59 AM UTC');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('marks a list row’s decision until it is released', () => {
    expect(decisionCellText({ decision: null })).toBeNull();
    expect(decisionCellText({})).toBeNull();
    expect(
      decisionCellText({ decision: 'admit', decision_label: 'Admit', decision_released: false }),
    ).toEqual({ label: 'Admit', unreleased: true });
    expect(
      decisionCellText({ decision: 'admit', decision_label: 'Admit', decision_released: true }),
    ).toEqual({ label: 'Admit', unreleased: false });
    expect(decisionCellText({ decision: 'admit' })).toEqual({ label: 'admit', unreleased: true });
  });
});

describe('decisions for a list', () => {
  it('tells what a batch did and what it left alone', () => {
    expect(batchResultText({ count: 12, skipped: 3 }, 'record')).toBe(
      'Recorded for 12; 3 left alone: not submitted or already released.',
    );
    expect(batchResultText({ count: 2, skipped: 0 }, 'release')).toBe('Released for 2.');
    expect(batchResultText({ count: 1200, skipped: 1 }, 'schedule')).toBe(
      'Release scheduled for 1,200; 1 left alone: no decision recorded or already released.',
    );
    expect(batchRecordLabel(1)).toBe('Record for 1 submitted application');
    expect(batchRecordLabel(12)).toBe('Record for 12 submitted applications');
  });

  it('counts the submitted applications of the list, or none when its status excludes them', () => {
    const query = { ...EMPTY_LIST_QUERY, q: 'lopez', status: ['submitted', 'started'], page: 3 };
    expect(submittedQueryOf(query)).toMatchObject({ status: ['submitted'], page: 1, q: 'lopez' });
    expect(submittedQueryOf({ ...EMPTY_LIST_QUERY, status: ['started'] })).toBeNull();
    expect(submittedQueryOf(EMPTY_LIST_QUERY)?.status).toEqual(['submitted']);
  });

  it('names the filters the confirmation is about', () => {
    const codes = new Map([['admit', 'Admit']]);
    expect(filtersSentence(EMPTY_LIST_QUERY, filterLabelsOf(2026, EMPTY_LIST_QUERY, codes))).toBe(
      'No search or filters: every application.',
    );
    const query = {
      ...EMPTY_LIST_QUERY,
      q: ' lopez ',
      status: ['submitted'],
      term: ['FA2026'],
      decision: ['admit', 'odd'],
      has_missing: 'false' as const,
      gpa_min: '2.4',
      units_min: '60',
    };
    expect(filtersSentence(query, filterLabelsOf(2026, query, codes))).toBe(
      'Search “lopez”; status: submitted; entry term: Fall 2026; decision: Admit or odd; with nothing missing; transfer GPA at least 2.4; transferable units at least 60.',
    );
  });

  it('names programs, terms and decision types as the list’s filters show them, not by code', () => {
    const query = {
      ...EMPTY_LIST_QUERY,
      term: ['SU2027', 'XX1999'],
      program: ['209'],
      decision_type: ['REG'],
    };
    expect(filtersSentence(query, filterLabelsOf(2026, query, new Map()))).toBe(
      'Entry term: Summer 2027 or XX1999; program: Psychology (B.S.); decision type: Regular decision (not binding).',
    );
  });

  it('reads the codes from the reply, leaving out a code without an id', () => {
    expect(
      decisionCodesOf([
        { code: 'admit', label: 'Admit', offer: true },
        { code: 'deny', label: '' },
        { label: 'No code' },
      ]),
    ).toEqual([
      { code: 'admit', label: 'Admit', offer: true },
      { code: 'deny', label: 'deny', offer: false },
    ]);
    expect(decisionCodesOf({ codes: [{ code: 'defer', label: 'Defer', offer: false }] })).toEqual([
      { code: 'defer', label: 'Defer', offer: false },
    ]);
    expect(decisionCodesOf(null)).toEqual([]);
  });
});
