import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOOKUP_DEBOUNCE_MS, LOOKUP_MAX_WAIT_MS } from '../../shared/constants';
import { debounce, debouncedLoader } from './debounce';

const options = { wait: LOOKUP_DEBOUNCE_MS, maxWait: LOOKUP_MAX_WAIT_MS };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Calls `call` with 'a', 'ab', 'abc'... every `everyMs` for `count` keystrokes. */
function typeAt(everyMs: number, count: number, call: (text: string) => void): void {
  for (let i = 1; i <= count; i++) {
    call('abcdefghijklmnopqrstuvwxyz'.slice(0, i));
    if (i < count) vi.advanceTimersByTime(everyMs);
  }
}

describe('debounce', () => {
  it('runs once, with the last arguments, 200 ms after the calls stop', () => {
    const run = vi.fn();
    const debounced = debounce(run, options);
    typeAt(50, 3, debounced);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith('abc');
  });

  it('runs at most 500 ms after the first waiting call while calls keep coming', () => {
    const run = vi.fn();
    const debounced = debounce(run, options);
    // A keystroke every 150 ms for 1.5 s: the 200 ms pause never comes.
    typeAt(150, 11, debounced);
    // Keystrokes at 0..1500 ms; runs at 500 (with the 4th text), then 500 ms after the 5th call.
    expect(run.mock.calls).toEqual([['abcd'], ['abcdefgh']]);
    vi.advanceTimersByTime(200);
    expect(run.mock.calls.at(-1)).toEqual(['abcdefghijk']);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('waits only 200 ms without a maximum wait, however long the calls keep coming', () => {
    const run = vi.fn();
    const debounced = debounce(run, { wait: LOOKUP_DEBOUNCE_MS });
    typeAt(150, 11, debounced);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(run.mock.calls).toEqual([['abcdefghijk']]);
  });

  it('drops the waiting call on cancel and runs it at once on flush', () => {
    const run = vi.fn();
    const debounced = debounce(run, options);
    debounced('a');
    debounced.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled();
    debounced('b');
    debounced.flush();
    expect(run).toHaveBeenCalledWith('b');
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
    debounced.flush();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('starts a new maximum wait after each run', () => {
    const run = vi.fn();
    const debounced = debounce(run, options);
    debounced('a');
    vi.advanceTimersByTime(200);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    debounced('b');
    vi.advanceTimersByTime(199);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenLastCalledWith('b');
  });
});

describe('debouncedLoader', () => {
  it('loads once for a burst of typing and settles every caller with that result', async () => {
    const load = vi.fn(async (input: string) => [`${input} High School`]);
    const loader = debouncedLoader(load, options);
    const answers: Array<Promise<string[]>> = [];
    typeAt(50, 4, (text) => answers.push(loader(text)));
    vi.advanceTimersByTime(200);
    expect(load.mock.calls).toEqual([['abcd']]);
    for (const answer of await Promise.all(answers)) expect(answer).toEqual(['abcd High School']);
  });

  it('passes a failure to every waiting caller', async () => {
    const loader = debouncedLoader(async () => {
      throw new Error('offline');
    }, options);
    const first = loader('a');
    const second = loader('ab');
    vi.advanceTimersByTime(200);
    await expect(first).rejects.toThrow('offline');
    await expect(second).rejects.toThrow('offline');
  });

  it('loads nothing after cancel', () => {
    const load = vi.fn(async () => []);
    const loader = debouncedLoader(load, options);
    void loader('a');
    loader.cancel();
    vi.advanceTimersByTime(1000);
    expect(load).not.toHaveBeenCalled();
  });
});
