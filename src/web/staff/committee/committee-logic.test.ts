import { afterEach, describe, expect, it, vi } from 'vitest';
import { REVIEW_API, REVIEW_MESSAGES_API } from '../../../shared/review/review-api';
import { committeeCalls } from './committee-calls';
import {
  assignBody,
  assignmentText,
  assignQuestion,
  CAP_MESSAGE,
  gapNote,
  recommendationListHref,
  scoreText,
  spreadText,
} from './committee-logic';

const bands = [
  { label: 'Strong', min: 4 },
  { label: 'Sound', min: 3 },
  { label: 'Weak', min: 1 },
];
const criterion = (
  mean: number | null,
  spread: number | null,
  min: number | null,
  max: number | null,
  count = 2,
) => ({
  key: 'academic',
  label: 'Academic preparation',
  count,
  mean,
  spread,
  min,
  max,
});

describe('a criterion’s spread', () => {
  it('reads mean ± spread, then the range', () => {
    expect(spreadText(criterion(4, 1, 3, 5))).toBe('4.0 ± 1.0, 3–5');
    expect(spreadText(criterion(3.67, 0.47, 3, 4, 3))).toBe('3.7 ± 0.5, 3–4');
  });

  it('gives one point once when every read agrees, and says when nothing is scored', () => {
    expect(spreadText(criterion(5, 0, 5, 5, 1))).toBe('5.0 ± 0.0, 5');
    expect(spreadText(criterion(null, null, null, null, 0))).toBe('No scores yet');
  });

  it('shows bands instead of numbers when asked', () => {
    expect(spreadText(criterion(4, 1, 3, 5), bands)).toBe('Strong (Sound to Strong)');
    expect(spreadText(criterion(4.5, 0.5, 4, 5), bands)).toBe('Strong');
  });
});

describe('a score', () => {
  it('is its number, or its band, or nothing when withheld', () => {
    expect(scoreText(3.67, null)).toBe('3.67');
    expect(scoreText(4, null)).toBe('4');
    expect(scoreText(3.67, bands)).toBe('Sound');
    expect(scoreText(0.5, bands)).toBe('Below every band');
    expect(scoreText(undefined, bands)).toBe('');
  });
});

describe('the third-read note', () => {
  const read = (score: number | null, status: 'submitted' | 'draft' = 'submitted') => ({
    id: crypto.randomUUID(),
    application_id: 'a',
    round: 'first' as const,
    status,
    reader_id: null,
    reader_name: null,
    form_cycle: '*',
    form_version: 1,
    answers: {},
    score,
    assigned_at: '2027-01-01T00:00:00.000Z',
    saved_at: null,
    submitted_at: null,
    blinded: false,
  });

  it('speaks when submitted scores are further apart than the gap', () => {
    expect(gapNote({ reads: [read(4.5), read(2.5)], third_read_gap: 1.5 })).toBe(
      'The scores differ by 2.00, more than the third-read gap of 1.5: a third read is called for.',
    );
  });

  it('is silent within the gap, without a gap, and for unsubmitted reads', () => {
    expect(gapNote({ reads: [read(4), read(3)], third_read_gap: 1.5 })).toBeNull();
    expect(gapNote({ reads: [read(5), read(1)], third_read_gap: null })).toBeNull();
    expect(gapNote({ reads: [read(5), read(1, 'draft')], third_read_gap: 1 })).toBeNull();
  });
});

describe('deciding by recommendation', () => {
  it('links to the list filtered by the recommendation', () => {
    const href = recommendationListHref('ADMIT');
    expect(href.startsWith('/staff?')).toBe(true);
    expect(new URLSearchParams(href.slice('/staff?'.length)).get('recommendation')).toBe('ADMIT');
  });
});

describe('assigning a list', () => {
  it('asks with the count and the readers', () => {
    expect(assignQuestion(240, 2)).toBe('Assign 240 applications to 2 readers?');
    expect(assignQuestion(1, 1)).toBe('Assign 1 application to 1 reader?');
    expect(assignQuestion(1200, 3)).toBe('Assign 1,200 applications to 3 readers?');
  });

  const reader = '6f1c6f0e-3d5e-4b7a-9a57-0a4c1f2b7e10';
  const other = '0b8f4a8e-7c1d-4e6f-8a2b-3c4d5e6f7a8b';

  it('sends the list, the readers, the second reads, the cap and the count it confirmed', () => {
    expect(
      assignBody(
        'status=submitted&program=205',
        { readerIds: [reader, other], secondReads: true, cap: ' 50 ' },
        240,
      ),
    ).toEqual({
      ok: true,
      body: {
        query: 'status=submitted&program=205',
        reader_ids: [reader, other],
        second_reads: true,
        cap: 50,
        expected_count: 240,
      },
    });
    const noCap = assignBody('', { readerIds: [reader], secondReads: false, cap: '' }, 3);
    expect(noCap.ok && noCap.body).toEqual({
      query: '',
      reader_ids: [reader],
      second_reads: false,
      expected_count: 3,
    });
  });

  it('refuses no reader and a cap that is not a whole number in range', () => {
    expect(assignBody('', { readerIds: [], secondReads: true, cap: '0' }, 5)).toEqual({
      ok: false,
      errors: { readers: REVIEW_MESSAGES_API.noReaders, cap: CAP_MESSAGE },
    });
    for (const cap of ['2.5', '-1', '10001', 'ten'])
      expect(assignBody('', { readerIds: [reader], secondReads: true, cap }, 5)).toEqual({
        ok: false,
        errors: { cap: CAP_MESSAGE },
      });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the confirmed body and reads the result', async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(
        JSON.stringify({
          assigned: 480,
          already_assigned: 0,
          unassigned: 0,
          per_reader: [
            { reader_id: reader, name: 'Pat Lee', count: 240 },
            { reader_id: other, name: 'Sam Roe', count: 240 },
          ],
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    });
    const checked = assignBody(
      'program=205',
      { readerIds: [reader, other], secondReads: true, cap: '' },
      240,
    );
    if (!checked.ok) throw new Error('refused');
    const result = await committeeCalls.assign(checked.body);
    expect(sent).toEqual([
      {
        url: REVIEW_API.assignments,
        body: {
          query: 'program=205',
          reader_ids: [reader, other],
          second_reads: true,
          expected_count: 240,
        },
      },
    ]);
    expect(assignmentText(result)).toBe('Assigned 480 reads. Pat Lee: 240, Sam Roe: 240.');
  });

  it('fails with the server’s sentence when the list changed', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ message: REVIEW_MESSAGES_API.countChanged(240, 251) }), {
          status: 409,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    await expect(
      committeeCalls.assign({ query: '', reader_ids: [reader], expected_count: 240 }),
    ).rejects.toMatchObject({ status: 409, message: REVIEW_MESSAGES_API.countChanged(240, 251) });
  });

  it('announces what was left', () => {
    expect(
      assignmentText({
        assigned: 10,
        already_assigned: 2,
        unassigned: 3,
        per_reader: [{ reader_id: reader, name: 'Pat Lee', count: 10 }],
      }),
    ).toBe(
      'Assigned 10 reads. Pat Lee: 10. 2 applications already had every read. 3 reads left unassigned: every reader was conflicted or at the cap.',
    );
  });
});
