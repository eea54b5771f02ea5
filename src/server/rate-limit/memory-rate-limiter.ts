import { type Limit, type RateLimiter, tooManyAttempts } from './rate-limiter';

/**
 * Fixed-window counters in this server's memory, with the database limiter's interface, for a
 * limit that guards against abuse of a cheap read (the school search, decision 039): behind N
 * servers a client may reach N times the limit, which still stops a script copying the lists,
 * and no request writes to the database. Limits that protect accounts stay in the database.
 */
export function createMemoryRateLimiter(now: () => number = () => Date.now()): RateLimiter {
  const windows = new Map<string, { start: number; end: number; hits: number }>();
  let sweptAt = 0;

  function hit(limit: Limit, subject: string, at: number): number | null {
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(at / windowMs) * windowMs;
    const key = `${limit.name}:${subject}`;
    let window = windows.get(key);
    if (!window || window.start !== start) {
      window = { start, end: start + windowMs, hits: 0 };
      windows.set(key, window);
    }
    window.hits++;
    if (window.hits <= limit.max) return null;
    return Math.max(1, Math.ceil((start + windowMs - at) / 1000));
  }

  /** Ended windows are dropped once a minute, so many addresses cannot grow the map for long. */
  function sweep(at: number): void {
    if (at - sweptAt < 60_000) return;
    sweptAt = at;
    for (const [key, window] of windows) {
      if (window.end <= at) windows.delete(key);
    }
  }

  return {
    async consume(checks) {
      const at = now();
      const waits = checks.map(({ limit, subject }) => hit(limit, subject, at));
      sweep(at);
      const retryAfter = Math.max(0, ...waits.map((wait) => wait ?? 0));
      if (retryAfter > 0) throw tooManyAttempts(retryAfter);
    },
  };
}
