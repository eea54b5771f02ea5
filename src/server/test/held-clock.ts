import { onTestFinished, vi } from 'vitest';

/**
 * Holds `Date` where it is until the test ends (timers keep running). The limits count in fixed
 * windows of the clock, so a test that counts attempts against them must not cross a window's edge.
 */
export function holdClock(): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
