import { describe, expect, it } from 'vitest';
import { ServerError } from '../../data/http-client';
import {
  changedAnswers,
  characterCountText,
  fieldErrorsOf,
  isQueueSearch,
  queuePlace,
  queuePositionText,
  savedAtText,
  summaryOf,
} from './review-logic';

const items = ['a', 'b', 'c'].map((application_id) => ({ application_id }));

describe('the place in the queue', () => {
  it('gives the position and the neighbours', () => {
    expect(queuePlace(items, 'b')).toEqual({ position: 2, count: 3, previous: 'a', next: 'c' });
    expect(queuePlace(items, 'a')).toMatchObject({ position: 1, previous: null, next: 'b' });
    expect(queuePlace(items, 'c')).toMatchObject({ position: 3, previous: 'b', next: null });
  });

  it('goes on to the oldest open read from an application that left the queue', () => {
    expect(queuePlace(items, 'z')).toEqual({ position: null, count: 3, previous: null, next: 'a' });
    expect(queuePlace([], 'z')).toEqual({ position: null, count: 0, previous: null, next: null });
  });

  it('says it in words', () => {
    expect(queuePositionText({ position: 3, count: 12 })).toBe('3 of 12 in your queue');
    expect(queuePositionText({ position: 1, count: 1200 })).toBe('1 of 1,200 in your queue');
    expect(queuePositionText({ position: null, count: 4 })).toBe('Not in your queue (4 open)');
    expect(queuePositionText({ position: null, count: 0 })).toBe('Your queue is empty');
  });

  it('knows a page opened from the queue', () => {
    expect(isQueueSearch('?queue=mine&x=1')).toBe(true);
    expect(isQueueSearch('q=smith')).toBe(false);
  });
});

describe('what a save sends', () => {
  it('sends only the keys changed since the last save', () => {
    expect(
      changedAnswers({ academic: '3', comments: 'ok' }, { academic: '4', comments: 'ok' }),
    ).toEqual({ academic: '4' });
    expect(changedAnswers({ academic: '3' }, { academic: '3' })).toEqual({});
    expect(changedAnswers({}, { writing: '2' })).toEqual({ writing: '2' });
  });

  it('empties a key that is gone', () => {
    expect(changedAnswers({ comments: 'old', flag: false }, {})).toEqual({ comments: '' });
  });
});

describe('the texts of the panel', () => {
  it('says when the draft was saved, on a 24-hour clock', () => {
    expect(savedAtText(new Date(2026, 10, 28, 14, 3))).toBe('Draft saved at 14:03');
    expect(savedAtText(new Date(2026, 10, 28, 9, 5))).toBe('Draft saved at 09:05');
  });

  it('counts characters', () => {
    expect(characterCountText(120, 4000)).toBe('120 of 4,000 characters');
  });

  it('reads the messages of a refused save per key', () => {
    expect(
      fieldErrorsOf(new ServerError('Check', 422, { academic: ['Choose a score from 1 to 5.'] })),
    ).toEqual({ academic: ['Choose a score from 1 to 5.'] });
    expect(fieldErrorsOf(new ServerError('Taken', 409))).toBeNull();
    expect(fieldErrorsOf(new Error('x'))).toBeNull();
  });

  it('lists errors in screen order, with keys off screen last', () => {
    const field = (label: string) => ({ label }) as never;
    expect(
      summaryOf(
        [
          { key: 'academic', field: field('Academic') },
          { key: 'writing', field: field('Writing') },
        ],
        { stray: ['Bad'], writing: ['W'], academic: ['A'] },
        (key) => `id-${key}`,
      ),
    ).toEqual([
      { id: 'id-academic', label: 'Academic', message: 'A' },
      { id: 'id-writing', label: 'Writing', message: 'W' },
      { id: 'id-stray', label: 'stray', message: 'Bad' },
    ]);
  });
});
