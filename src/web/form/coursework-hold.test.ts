import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import {
  type CourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../../shared/coursework/coursework-rules';
import type { Answers } from '../../shared/form/model';
import { AnswerStore } from '../app-state/answer-store';
import { createLocalCopy, type StorageLike } from '../app-state/local-copy';
import { indexModel } from '../app-state/model-index';
import { createAutosave } from './autosave';
import { courseworkHoldBack } from './coursework-hold';

const index = indexModel(applicationModel);

function memoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

function grid(grade: string): string {
  const answer: CourseworkAnswer = {
    system: 'semester',
    terms: [
      {
        season: 'fall',
        year: 2024,
        status: 'completed',
        courses: [{ subject: 'MATH', number: '1A', title: 'Calculus', units: '4', grade }],
      },
    ],
  };
  return serializeCourseworkAnswer(answer);
}

function setUp() {
  const store = new AnswerStore();
  store.setModel(index);
  store.setHoldBack(courseworkHoldBack(() => DEFAULT_COURSEWORK_RULES));
  const localCopy = createLocalCopy('portal:unsaved:ada', memoryStorage());
  store.startSession({ id: 'ada#1', mode: 'account', answers: {}, localCopy });
  const send = vi.fn(async (_patch: Answers) => {});
  const autosave = createAutosave({ store, send, debounceMs: 800 });
  return { store, autosave, send, localCopy };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a coursework grid the server would refuse', () => {
  it('stays on this device, is not sent, and goes once corrected', async () => {
    const { store, autosave, send, localCopy } = setUp();
    store.set('college_name', 'Broward College');
    store.set('college_coursework', grid('Q'));
    await vi.advanceTimersByTimeAsync(800);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toEqual({ college_name: 'Broward College' });
    expect(autosave.getState()).toBe('held');
    expect(store.heldKeys()).toEqual(['college_coursework']);
    localCopy.flush();
    expect(localCopy.load().college_coursework).toBe(grid('Q'));
    // A flush (page change, submit) does not send it either, and says it is not saved.
    expect(await autosave.flush()).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);

    store.set('college_coursework', grid('B'));
    await vi.advanceTimersByTimeAsync(800);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]?.[0]).toEqual({ college_coursework: grid('B') });
    expect(autosave.getState()).toBe('saved');
    expect(store.heldKeys()).toEqual([]);
  });

  it('holds a grade for a term that has not begun, and units out of range', () => {
    const { store } = setUp();
    store.set('college_name', 'Broward College');
    store.set(
      'college_coursework',
      grid('A').replace('2024', String(new Date().getFullYear() + 2)),
    );
    expect(store.heldKeys()).toEqual(['college_coursework']);
    store.set('college_coursework', grid('A').replace('"units":"4"', '"units":"45"'));
    expect(store.heldKeys()).toEqual(['college_coursework']);
    store.set('college_coursework', grid(''));
    expect(store.heldKeys()).toEqual([]);
  });
});
