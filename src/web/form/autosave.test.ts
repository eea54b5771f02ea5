import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { Answers } from '../../shared/form/model';
import { AnswerStore } from '../app-state/answer-store';
import { createLocalCopy, type StorageLike } from '../app-state/local-copy';
import { indexModel } from '../app-state/model-index';
import { ServerError } from '../data/http-client';
import { createAutosave } from './autosave';

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

function setUp(send: (patch: Answers) => Promise<unknown>) {
  const store = new AnswerStore();
  store.setModel(index);
  const localCopy = createLocalCopy('portal:unsaved:ada', memoryStorage());
  store.startSession({ id: 'ada#1', mode: 'account', answers: {}, localCopy });
  const onStopped = vi.fn();
  const autosave = createAutosave({
    store,
    send,
    debounceMs: 800,
    retryDelaysMs: [1000, 2000],
    onStopped,
  });
  return { store, autosave, onStopped, localCopy };
}

/** A send that answers with these outcomes in turn, then succeeds. */
function sendFailing(...outcomes: Error[]) {
  return vi.fn(async (_patch: Answers) => {
    const outcome = outcomes.shift();
    if (outcome) throw outcome;
  });
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

  it('retries a save that may succeed (no reply, 5xx) with growing waits', async () => {
    const send = sendFailing(new ServerError('down', null), new ServerError('busy', 503));
    const { store, autosave } = setUp(send);
    store.set('first_name', 'Ada');
    await expect(autosave.flush()).resolves.toBe(false);
    expect(autosave.getState()).toBe('retrying');
    store.set('last_name', 'Lovelace');
    await vi.advanceTimersByTimeAsync(1000);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(3);
    expect(send).toHaveBeenLastCalledWith({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(autosave.getState()).toBe('saved');
    expect(autosave.getFailure()).toBeNull();
  });

  it('gives up after its last wait, keeps what was typed, and starts over on Try again', async () => {
    const down = () => new ServerError('The server is down.', 502);
    const send = sendFailing(down(), down(), down(), down(), down());
    const { store, autosave, localCopy } = setUp(send);
    store.set('first_name', 'Ada');
    await vi.advanceTimersByTimeAsync(800 + 1000 + 2000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(autosave.getState()).toBe('failed');
    expect(autosave.getFailure()).toEqual({ message: 'The server is down.' });

    // Nothing more goes out on its own, not even for new typing; all of it stays in the browser.
    store.set('last_name', 'Lovelace');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(autosave.getState()).toBe('failed');
    expect(localCopy.load()).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });

    // Try again is a new round: the two failures left, then a save.
    const saved = autosave.retry();
    expect(autosave.getState()).toBe('saving');
    await vi.advanceTimersByTimeAsync(1000 + 2000);
    await expect(saved).resolves.toBe(false);
    expect(send).toHaveBeenCalledTimes(6);
    expect(send).toHaveBeenLastCalledWith({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(autosave.getState()).toBe('saved');
    expect(localCopy.load()).toEqual({});
  });

  it('starts over at the next save moment after giving up', async () => {
    const down = () => new ServerError('down', null);
    const send = sendFailing(down(), down(), down());
    const { store, autosave } = setUp(send);
    store.set('first_name', 'Ada');
    await vi.advanceTimersByTimeAsync(800 + 1000 + 2000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(autosave.getState()).toBe('failed');
    await expect(autosave.flush()).resolves.toBe(true);
    expect(send).toHaveBeenCalledTimes(4);
    expect(autosave.getState()).toBe('saved');
  });

  it('does not send again what the server refused (400), and says why', async () => {
    const send = sendFailing(new ServerError('This answer cannot be saved.', 400));
    const { store, autosave, localCopy } = setUp(send);
    store.set('first_name', 'Ada');
    await expect(autosave.flush()).resolves.toBe(false);
    expect(autosave.getState()).toBe('failed');
    expect(autosave.getFailure()).toEqual({ message: 'This answer cannot be saved.' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(localCopy.load()).toEqual({ first_name: 'Ada' });

    await expect(autosave.retry()).resolves.toBe(true);
    expect(send).toHaveBeenCalledTimes(2);
    expect(autosave.getState()).toBe('saved');
    expect(localCopy.load()).toEqual({});
  });

  it('sets aside the answers a 400 names, saves the rest, and sends them again once changed', async () => {
    const send = sendFailing(
      new ServerError('Some of the information sent is not valid.', 400, {
        first_name: ['Too long.'],
      }),
    );
    const { store, autosave, localCopy } = setUp(send);
    store.setMany({ first_name: 'Ada', last_name: 'Lovelace' });
    await expect(autosave.flush()).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenLastCalledWith({ last_name: 'Lovelace' });
    expect(autosave.getState()).toBe('failed');
    expect(localCopy.load()).toEqual({ first_name: 'Ada' });
    await expect(autosave.flush()).resolves.toBe(false);
    expect(send).toHaveBeenCalledTimes(2);

    store.set('first_name', 'Augusta');
    await vi.advanceTimersByTimeAsync(800);
    expect(send).toHaveBeenLastCalledWith({ first_name: 'Augusta' });
    expect(autosave.getState()).toBe('saved');
    expect(autosave.getFailure()).toBeNull();
  });

  it('waits as long as a 429 asks, and gives up on a 429 that does not say or asks too much', async () => {
    const send = sendFailing(
      new ServerError('Slow down.', 429, undefined, undefined, 4000),
      new ServerError('Slow down.', 429),
    );
    const { store, autosave } = setUp(send);
    store.set('first_name', 'Ada');
    await autosave.flush();
    await vi.advanceTimersByTimeAsync(3999);
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(2);
    expect(autosave.getState()).toBe('failed');

    send.mockImplementationOnce(async () => {
      throw new ServerError('Come back tomorrow.', 429, undefined, undefined, 86_400_000);
    });
    await expect(autosave.retry()).resolves.toBe(false);
    expect(autosave.getFailure()).toEqual({ message: 'Come back tomorrow.' });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(send).toHaveBeenCalledTimes(3);
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
