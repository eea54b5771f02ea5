import { sql } from 'drizzle-orm';
import type { AppDatabase } from '../db/database';
import { rateLimits } from '../db/schema';
import { HttpError } from '../http/http-error';

export interface Limit {
  /** What is limited, e.g. `login:ip`; the subject (an address, an account) is added per call. */
  name: string;
  max: number;
  windowSeconds: number;
}

const CLEAN_UP_EVERY_MS = 10 * 60 * 1000;

/**
 * Fixed-window counters in the database, so every server behind a load balancer shares them.
 * One statement per limit: insert or increment, returning the count.
 */
export function createRateLimiter(db: AppDatabase) {
  let lastCleanUp = 0;

  async function hit(limit: Limit, subject: string, now: Date): Promise<number | null> {
    const windowMs = limit.windowSeconds * 1000;
    const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
    const [row] = await db
      .insert(rateLimits)
      .values({ key: `${limit.name}:${subject}`, windowStart, hits: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { hits: sql`${rateLimits.hits} + 1` },
      })
      .returning({ hits: rateLimits.hits });
    if ((row?.hits ?? 0) <= limit.max) return null;
    return Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  }

  return {
    /** Counts one attempt against each limit; throws 429 with Retry-After when any is exceeded. */
    async consume(checks: Array<{ limit: Limit; subject: string }>): Promise<void> {
      const now = new Date();
      const waits = await Promise.all(checks.map(({ limit, subject }) => hit(limit, subject, now)));
      const retryAfter = Math.max(0, ...waits.map((wait) => wait ?? 0));
      if (now.getTime() - lastCleanUp > CLEAN_UP_EVERY_MS) {
        lastCleanUp = now.getTime();
        await db
          .delete(rateLimits)
          .where(sql`${rateLimits.windowStart} < now() - interval '1 day'`);
      }
      if (retryAfter > 0) throw tooManyAttempts(retryAfter);
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

export type RateLimiter = ReturnType<typeof createRateLimiter>;
