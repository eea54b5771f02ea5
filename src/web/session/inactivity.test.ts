import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  activityDecision,
  createKeepAlive,
  formatCountdown,
  INACTIVITY_TIMINGS,
  inactivityState,
  LAST_ACTIVITY_KEY,
  readActivityMark,
  writeActivityMark,
} from './inactivity';

const timings = { timeoutMs: 900_000, promptBeforeMs: 60_000 };

describe('inactivityState', () => {
  it('uses the constants of spec 000 section 9 by default', () => {
    expect(INACTIVITY_TIMINGS).toEqual(timings);
  });

  it('is active until the prompt is due', () => {
    expect(inactivityState(1000, 1000, timings)).toEqual({
      phase: 'active',
      msUntilPrompt: 840_000,
    });
    expect(inactivityState(840_999, 1000, timings)).toEqual({ phase: 'active', msUntilPrompt: 1 });
  });

  it('prompts for the last minute, counting down to the logout', () => {
    expect(inactivityState(841_000, 1000, timings)).toEqual({
      phase: 'prompt',
      msUntilLogout: 60_000,
    });
    expect(inactivityState(900_999, 1000, timings)).toEqual({
      phase: 'prompt',
      msUntilLogout: 1,
    });
  });

  it('expires at the time-out and any time after it (timers that never fired)', () => {
    expect(inactivityState(901_000, 1000, timings)).toEqual({ phase: 'expired' });
    expect(inactivityState(10_000_000, 1000, timings)).toEqual({ phase: 'expired' });
  });

  it('treats a mark in the future as activity now', () => {
    expect(inactivityState(1000, 50_000, timings)).toEqual({
      phase: 'active',
      msUntilPrompt: 840_000,
    });
  });
});

describe('activityDecision', () => {
  it('marks activity while no prompt is open', () => {
    expect(activityDecision(5000, 1000, false, timings)).toBe('mark');
  });

  it('ignores activity while the prompt waits for an answer', () => {
    expect(activityDecision(850_000, 1000, true, timings)).toBe('ignore');
  });

  it('logs out at once when the applicant returns after the time-out', () => {
    expect(activityDecision(1000 + 900_001, 1000, false, timings)).toBe('expire');
    expect(activityDecision(1000 + 3_600_000, 1000, true, timings)).toBe('expire');
  });
});

describe('formatCountdown', () => {
  it('rounds up to whole seconds and says minutes when even', () => {
    expect(formatCountdown(60_000)).toBe('1 minute');
    expect(formatCountdown(59_001)).toBe('1 minute');
    expect(formatCountdown(120_000)).toBe('2 minutes');
    expect(formatCountdown(90_000)).toBe('90 seconds');
    expect(formatCountdown(59_000)).toBe('59 seconds');
    expect(formatCountdown(1)).toBe('1 second');
    expect(formatCountdown(0)).toBe('0 seconds');
    expect(formatCountdown(-5)).toBe('0 seconds');
  });
});

describe('activity mark', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is shared through localStorage', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, value),
    });
    writeActivityMark(1234);
    expect(store.get(LAST_ACTIVITY_KEY)).toBe('1234');
    store.set(LAST_ACTIVITY_KEY, '5678');
    expect(readActivityMark()).toBe(5678);
  });

  it('falls back to memory when storage throws', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    });
    writeActivityMark(42);
    expect(readActivityMark()).toBe(42);
  });
});

describe('createKeepAlive', () => {
  function fakeClock() {
    let now = 0;
    const timers: Array<{ at: number; callback: () => void; id: number }> = [];
    let nextId = 0;
    return {
      clock: {
        now: () => now,
        setTimeout: (callback: () => void, ms: number) => {
          nextId += 1;
          timers.push({ at: now + ms, callback, id: nextId });
          return nextId;
        },
        clearTimeout: (id: unknown) => {
          const index = timers.findIndex((timer) => timer.id === id);
          if (index >= 0) timers.splice(index, 1);
        },
      },
      advance(ms: number) {
        now += ms;
        for (const timer of timers.filter((t) => t.at <= now)) {
          timers.splice(timers.indexOf(timer), 1);
          timer.callback();
        }
      },
      pending: () => timers.length,
    };
  }

  it('sends on the first activity, then at most once per interval with a trailing call', () => {
    const time = fakeClock();
    const send = vi.fn();
    const keepAlive = createKeepAlive({
      send,
      lastServerTouch: () => Number.NEGATIVE_INFINITY,
      intervalMs: 60_000,
      clock: time.clock,
    });
    keepAlive.activity();
    expect(send).toHaveBeenCalledTimes(1);
    time.advance(10_000);
    keepAlive.activity();
    time.advance(10_000);
    keepAlive.activity();
    expect(send).toHaveBeenCalledTimes(1);
    time.advance(40_000);
    // The trailing call carries the activity at 20 s to the server.
    expect(send).toHaveBeenCalledTimes(2);
    time.advance(120_000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('skips the trailing call when another signed-in call already touched the session', () => {
    const time = fakeClock();
    const send = vi.fn();
    let serverTouch = Number.NEGATIVE_INFINITY;
    const keepAlive = createKeepAlive({
      send,
      lastServerTouch: () => serverTouch,
      intervalMs: 60_000,
      clock: time.clock,
    });
    keepAlive.activity();
    time.advance(5000);
    keepAlive.activity();
    time.advance(5000);
    serverTouch = time.clock.now();
    time.advance(50_000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('does not send when a signed-in call was answered within the interval', () => {
    const time = fakeClock();
    time.advance(100_000);
    const send = vi.fn();
    const keepAlive = createKeepAlive({
      send,
      lastServerTouch: () => 90_000,
      intervalMs: 60_000,
      clock: time.clock,
    });
    keepAlive.activity();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends at once when asked, and stops its timer', () => {
    const time = fakeClock();
    const send = vi.fn();
    const keepAlive = createKeepAlive({
      send,
      lastServerTouch: () => Number.NEGATIVE_INFINITY,
      clock: time.clock,
    });
    keepAlive.now();
    keepAlive.now();
    expect(send).toHaveBeenCalledTimes(2);
    time.advance(1000);
    keepAlive.activity();
    expect(time.pending()).toBe(1);
    keepAlive.stop();
    expect(time.pending()).toBe(0);
  });
});
