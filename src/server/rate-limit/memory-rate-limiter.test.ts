import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/http-error';
import { createMemoryRateLimiter } from './memory-rate-limiter';

describe('the in-memory rate limiter', () => {
  it('refuses the attempt over the limit per subject, until the window ends', async () => {
    let clock = 60_000 * 100 + 1_000;
    const limiter = createMemoryRateLimiter(() => clock);
    const limit = { name: 'test', max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) await limiter.consume([{ limit, subject: 'a' }]);
    const refused = await limiter.consume([{ limit, subject: 'a' }]).catch((error) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 429 });
    expect(refused.message).toMatch(/^Too many attempts\. Please wait 1 minute/);
    await limiter.consume([{ limit, subject: 'b' }]);
    clock += 59_000;
    await limiter.consume([{ limit, subject: 'a' }]);
  });
});
