import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { Answers } from '../../shared/form/model';
import { ServerError } from '../data/http-client';
import { AnswerStore } from './answer-store';
import { createAutosave } from './autosave';
import { indexModel } from './model-index';

const index = indexModel(applicationModel);

function setUp(send: (patch: Answers) => Promise<unknown>) {
  const store = new AnswerStore();
  store.setModel(index);
  store.startSession({ id: 'ada#1', mode: 'account', answers: {} });
  const onStopped = vi.fn();
  const autosave = createAutosave({
    store,
    send,
    debounceMs: 800,
    retryDelaysMs: [1000, 2000],
    onStopped,
  });
  return { store, autosave, onStopped };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('autosave', () => {
  it('saves only the changed keys once typing pauses', async () => {
    const send = vi.fn(async (_patch: Answers) => {});
    const { store, autosave } = setUp(send);
    store.set('first_name', 'A');
    await vi.advanceTimersByTimeAsync(500);
    store.set('first_name', 'Ada');
    expect(autosave.getState()).toBe('saving');
    await vi.advanceTimersByTimeAsync(799);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ first_name: 'Ada' });
    expect(autosave.getState()).toBe('saved');
  });

  it('flushes at once and resolves when everything is saved', async () => {
    const send = vi.fn(async (_patch: Answers) => {});
    const { store, autosave } = setUp(send);
    store.set('gender', 'F');
    await expect(autosave.flush()).resolves.toBe(true);
    expect(send).toHaveBeenCalledWith({ gender: 'F', gender_desc: 'Female' });
  });

  it('retries a failed save with growing waits and never drops it', async () => {
    let fail = 3;
    const send = vi.fn(async (_patch: Answers) => {
      if (fail-- > 0) throw new ServerError('down', null);
    });
    const { store, autosave } = setUp(send);
    store.set('first_name', 'Ada');
    await expect(autosave.flush()).resolves.toBe(false);
    expect(autosave.getState()).toBe('retrying');
    store.set('last_name', 'Lovelace');
    await vi.advanceTimersByTimeAsync(1000);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(send).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(2000);
    expect(send).toHaveBeenCalledTimes(4);
    expect(send).toHaveBeenLastCalledWith({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(autosave.getState()).toBe('saved');
  });

  it('sends one request at a time and then what changed meanwhile', async () => {
    let release: () => void = () => {};
    const send = vi.fn(
      (_patch: Answers) =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const { store, autosave } = setUp(send);
    store.set('first_name', 'Ada');
    const first = autosave.flush();
    store.set('last_name', 'Lovelace');
    const second = autosave.flush();
    expect(send).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith({ last_name: 'Lovelace' });
    release();
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
  });

  it('stops after a 409 (already submitted)', async () => {
    const send = vi.fn(async (_patch: Answers) => {
      throw new ServerError('submitted', 409);
    });
    const { store, autosave, onStopped } = setUp(send);
    store.set('first_name', 'Ada');
    await expect(autosave.flush()).resolves.toBe(false);
    expect(autosave.getState()).toBe('stopped');
    expect(onStopped).toHaveBeenCalled();
    store.set('first_name', 'Augusta');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('saves nothing for an anonymous visitor', async () => {
    const send = vi.fn(async (_patch: Answers) => {});
    const { store, autosave } = setUp(send);
    store.startSession({ id: 'anonymous', mode: 'anonymous', answers: {} });
    store.set('first_name', 'Ada');
    await vi.advanceTimersByTimeAsync(5000);
    await expect(autosave.flush()).resolves.toBe(true);
    expect(send).not.toHaveBeenCalled();
  });
});
