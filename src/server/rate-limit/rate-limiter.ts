import type { AppDatabase } from '../db/database';
import { HttpError } from '../http/http-error';
import { createRateLimitStore } from './rate-limit-store';

export interface Limit {
  /** What is limited, e.g. `login:ip`; the subject (an address, an account) is added per call. */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface LimitCheck {
  limit: Limit;
  subject: string;
}

/** What every limiter offers: count an attempt, refusing it over any limit. */
export interface RateLimiter {
  /** Counts one attempt against each limit; throws 429 with Retry-After when any is exceeded. */
  consume(checks: LimitCheck[]): Promise<void>;
}

const CLEAN_UP_EVERY_MS = 10 * 60 * 1000;

function windowStartOf(limit: Limit, now: Date): Date {
  const windowMs = limit.windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/** Seconds from `now` until the window of `limit` that holds `now` ends; at least 1. */
export function secondsLeftInWindow(limit: Limit, now: Date = new Date()): number {
  const end = windowStartOf(limit, now).getTime() + limit.windowSeconds * 1000;
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}

/**
 * Fixed-window counters in the database, so every server behind a load balancer shares them.
 * One statement per limit: insert or increment, returning the count.
 */
export function createRateLimiter(db: AppDatabase) {
  const store = createRateLimitStore(db);
  let lastCleanUp = 0;

  async function add(limit: Limit, subject: string, now: Date): Promise<number> {
    return store.increment({
      key: `${limit.name}:${subject}`,
      windowStart: windowStartOf(limit, now),
    });
  }

  async function hit(limit: Limit, subject: string, now: Date): Promise<number | null> {
    if ((await add(limit, subject, now)) <= limit.max) return null;
    return secondsLeftInWindow(limit, now);
  }

  return {
    async consume(checks: LimitCheck[]): Promise<void> {
      const now = new Date();
      const waits = await Promise.all(checks.map(({ limit, subject }) => hit(limit, subject, now)));
      const retryAfter = Math.max(0, ...waits.map((wait) => wait ?? 0));
      if (now.getTime() - lastCleanUp > CLEAN_UP_EVERY_MS) {
        lastCleanUp = now.getTime();
        await store.deleteOlderThanADay();
      }
      if (retryAfter > 0) throw tooManyAttempts(retryAfter);
    },

    /**
     * Counts one event against the limit without refusing anything, for events counted after
     * the work (a wrong password); returns the window's count so far, this one included.
     */
    async add(limit: Limit, subject: string): Promise<number> {
      return add(limit, subject, new Date());
    },

    /** The counts of the checks' current windows, in the checks' order, without adding to them. */
    async counts(checks: LimitCheck[]): Promise<number[]> {
      if (checks.length === 0) return [];
      const now = new Date();
      const keys = checks.map(({ limit, subject }) => ({
        key: `${limit.name}:${subject}`,
        windowStart: windowStartOf(limit, now),
      }));
      const rows = await store.find(keys);
      return keys.map(
        ({ key, windowStart }) =>
          rows.find((row) => row.key === key && row.windowStart.getTime() === windowStart.getTime())
            ?.hits ?? 0,
      );
    },
  };
}

/** The 429 every limiter answers, with how long to wait. */
export function tooManyAttempts(retryAfterSeconds: number): HttpError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new HttpError(
    429,
    `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** The database limiter, whose counts every server shares: the one that protects accounts. */
export type AccountRateLimiter = ReturnType<typeof createRateLimiter>;
