import { describe, expect, it, vi } from 'vitest';
import { startPeriodic } from './periodic';

const quietLog = () => ({ warn: vi.fn(), error: vi.fn() });

describe('a periodic run', () => {
  it('runs at once, then on each tick, one run at a time, and stop waits for the run under way', async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let most = 0;
      let runs = 0;
      let release: () => void = () => {};
      const periodic = startPeriodic(quietLog(), 'failed', 1000, async () => {
        running++;
        most = Math.max(most, running);
        runs++;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running--;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(runs).toBe(1);
      // Two ticks while the first run is still going: they wait their turn.
      await vi.advanceTimersByTimeAsync(2000);
      expect(runs).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(runs).toBe(2);
      expect(most).toBe(1);
      const stopped = periodic.stop();
      release();
      await vi.advanceTimersByTimeAsync(0);
      release();
      await stopped;
      const after = runs;
      await vi.advanceTimersByTimeAsync(5000);
      expect(runs).toBe(after);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed run and carries on with the next', async () => {
    vi.useFakeTimers();
    try {
      const log = quietLog();
      let runs = 0;
      const periodic = startPeriodic(log, 'sweeping failed', 1000, async () => {
        runs++;
        if (runs === 1) throw new Error('database away');
      });
      await vi.advanceTimersByTimeAsync(1000);
      expect(runs).toBe(2);
      expect(log.error).toHaveBeenCalledTimes(1);
      expect(log.error).toHaveBeenCalledWith(
        expect.objectContaining({ err: expect.any(Error) }),
        'sweeping failed',
      );
      await periodic.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
