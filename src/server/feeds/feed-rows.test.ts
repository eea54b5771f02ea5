import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { type FeedMapping, parseFeedMapping } from '../../shared/integration/feed-mapping';
import { buildFeedRows, type FeedRecord, feedFileName, renderFeedFile } from './feed-rows';

function mapping(overrides: Record<string, unknown>): FeedMapping {
  const result = parseFeedMapping(
    JSON.stringify({
      name: 'rows',
      select: 'all',
      file: { name: 'rows-{date}-{time}-{run}.txt', delimiter: 'pipe', line_ending: 'LF' },
      destination: { type: 'folder', path: '/tmp/unused' },
      columns: [{ header: 'ID', source: 'application_id' }],
      ...overrides,
    }),
    applicationModel,
  );
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.mapping;
}

function record(id: string, answers: Record<string, string | boolean>): FeedRecord {
  return {
    id,
    email: `${id}@example.edu`,
    receiptNumber: `R-${id}`,
    submittedAt: new Date('2027-01-15T20:30:00Z'),
    sisId: null,
    answers,
    decision: {
      code: 'admit',
      releaseAt: null,
      releasedAt: new Date('2027-03-01T17:00:00Z'),
      reply: null,
      repliedAt: null,
    },
    coursework: { gpa: '3.40', transferUnits: '60.00', inProgressUnits: '0.00' },
    checklist: null,
  };
}

describe('feed rows', () => {
  it('translates with the map, formats, defaults and pads', () => {
    const feed = mapping({
      timezone: 'America/Los_Angeles',
      columns: [
        { header: 'PROGRAM', source: 'answer:applied_major', map: { '205': 'CS-BS' } },
        {
          header: 'LAST',
          source: 'answer:last_name',
          format: ['trim', 'upper'],
          max_length: 5,
          truncate: true,
        },
        { header: 'BIRTH', source: 'answer:birth_date', format: 'date:YYYYMMDD' },
        { header: 'SUBMITTED', source: 'submitted_at', format: 'date:MM/DD/YYYY HH:mm' },
        {
          header: 'GPA',
          source: 'transfer_gpa',
          format: 'fixed:3',
          pad: { length: 6, char: '0', side: 'left' },
        },
        { header: 'MIDDLE', source: 'answer:middle_name', default: 'NMN' },
        { header: 'SMS', source: 'answer:optin_sms_ind', format: 'yes_no' },
        { header: 'TYPE', source: 'const:TR' },
        { header: 'MAJOR', source: 'label:applied_major' },
      ],
    });
    const built = buildFeedRows(feed, [
      record('a', {
        applied_major: '205',
        applied_major_desc: 'Computer Science (B.S.)',
        last_name: ' Lovelace ',
        birth_date: '2001-02-03',
        optin_sms_ind: true,
      }),
    ]);
    expect(built.problems).toEqual([]);
    expect(built.rows).toEqual([
      [
        'CS-BS',
        'LOVEL',
        '20010203',
        '01/15/2027 12:30',
        '03.400',
        'NMN',
        'Y',
        'TR',
        'Computer Science (B.S.)',
      ],
    ]);
  });

  it('gathers unmapped values per column with counts and examples; the column decides what is written', () => {
    const feed = mapping({
      columns: [
        { header: 'ID', source: 'application_id' },
        { header: 'PROGRAM', source: 'answer:applied_major', map: { '205': 'CS-BS' } },
        {
          header: 'TERM',
          source: 'answer:entry_term',
          map: { FA2027: '202710' },
          unmapped: 'blank',
        },
        { header: 'STATE', source: 'answer:state', map: { CA: 'California' }, unmapped: 'keep' },
      ],
    });
    const built = buildFeedRows(feed, [
      record('a', { applied_major: '201', entry_term: 'SU2027', state: 'NV' }),
      record('b', { applied_major: '201', entry_term: 'FA2027', state: 'CA' }),
      record('c', { applied_major: '205', entry_term: '', state: '' }),
    ]);
    expect(built.rows).toEqual([
      ['a', '201', '', 'NV'],
      ['b', '201', '202710', 'California'],
      ['c', 'CS-BS', '', ''],
    ]);
    expect(built.problems).toEqual([
      {
        column: 1,
        header: 'PROGRAM',
        kind: 'unmapped',
        value: '201',
        count: 2,
        applicationIds: ['a', 'b'],
        blocking: true,
      },
      {
        column: 2,
        header: 'TERM',
        kind: 'unmapped',
        value: 'SU2027',
        count: 1,
        applicationIds: ['a'],
        blocking: false,
      },
      {
        column: 3,
        header: 'STATE',
        kind: 'unmapped',
        value: 'NV',
        count: 1,
        applicationIds: ['a'],
        blocking: false,
      },
    ]);
  });

  it('reports values too long, not formattable, or needing quotes the file does not allow', () => {
    const feed = mapping({
      file: { name: 'x.txt', delimiter: 'pipe', quoting: 'none' },
      columns: [
        { header: 'CITY', source: 'answer:city', max_length: 4 },
        { header: 'BIRTH', source: 'answer:birth_date', format: 'date:YYYYMMDD' },
        { header: 'STREET', source: 'answer:address_line_1' },
      ],
    });
    const built = buildFeedRows(feed, [
      record('a', { city: 'Sacramento', birth_date: 'someday', address_line_1: '1 Main | Apt 2' }),
    ]);
    expect(
      built.problems.map((problem) => [problem.kind, problem.value, problem.blocking]),
    ).toEqual([
      ['too_long', 'Sacramento', true],
      ['not_formattable', 'someday', true],
      ['needs_quoting', '1 Main | Apt 2', true],
    ]);
  });

  it('leaves out what the filters do not select', () => {
    const feed = mapping({
      filters: {
        entry_terms: ['FA2027'],
        programs: ['205'],
        decision_released: true,
        replies: ['none'],
      },
    });
    const built = buildFeedRows(feed, [
      record('in', { entry_term: 'FA2027', applied_major: '205' }),
      record('other-term', { entry_term: 'SU2027', applied_major: '205' }),
      record('other-program', { entry_term: 'FA2027', applied_major: '201' }),
      { ...record('unreleased', { entry_term: 'FA2027', applied_major: '205' }), decision: null },
    ]);
    expect(built.applicationIds).toEqual(['in']);
  });

  it('renders the delimiter, quoting, header and line ending the mapping asks for', () => {
    const rows = {
      header: ['A', 'B'],
      rows: [
        ['x|y', 'say "hi"'],
        ['1', ''],
      ],
    };
    expect(renderFeedFile(mapping({}), rows)).toBe('A|B\n"x|y"|"say ""hi"""\n1|\n');
    const crlfAll = mapping({ file: { name: 'x.csv', header: false, quoting: 'all' } });
    expect(renderFeedFile(crlfAll, rows)).toBe('"x|y","say ""hi"""\r\n"1",""\r\n');
  });

  it('names the file in the feed time zone', () => {
    const feed = mapping({ timezone: 'America/New_York' });
    expect(feedFileName(feed, new Date('2027-01-02T03:04:05Z'), 'run-1')).toBe(
      'rows-20270101-220405-run-1.txt',
    );
  });
});
