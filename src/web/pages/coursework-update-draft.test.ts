import { describe, expect, it } from 'vitest';
import type { CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { dropDraft, keepDraft, readDraft } from './coursework-update-draft';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const draft: CourseworkAnswer = {
  system: 'semester',
  terms: [{ season: 'fall', year: 2025, status: 'completed', courses: [] }],
};

describe('a kept coursework update draft', () => {
  it('comes back for the grid it was begun on', () => {
    const store = memoryStorage();
    keepDraft('college_coursework', 'submitted text', draft, store);
    expect(readDraft('college_coursework', 'submitted text', store)).toEqual(draft);
    expect(readDraft('college_2_coursework', 'submitted text', store)).toBeNull();
  });

  it('is dropped once the grid has changed since', () => {
    const store = memoryStorage();
    keepDraft('college_coursework', 'submitted text', draft, store);
    expect(readDraft('college_coursework', 'updated text', store)).toBeNull();
  });

  it('is gone once dropped, and unreadable text is no draft', () => {
    const store = memoryStorage();
    keepDraft('college_coursework', 'text', draft, store);
    dropDraft('college_coursework', store);
    expect(readDraft('college_coursework', 'text', store)).toBeNull();
    store.setItem('coursework-update-draft:college_coursework', '{not json');
    expect(readDraft('college_coursework', 'text', store)).toBeNull();
  });

  it('works without storage', () => {
    expect(readDraft('college_coursework', 'text', null)).toBeNull();
    expect(() => keepDraft('college_coursework', 'text', draft, null)).not.toThrow();
  });
});
