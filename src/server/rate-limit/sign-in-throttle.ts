import {
  type AccountRateLimiter,
  type Limit,
  secondsLeftInWindow,
  tooManyAttempts,
} from './rate-limiter';
import { sourceAddress } from './source-address';

/** The limits on checking passwords, for applicants' log-in and staff sign-in alike. */
export interface SignInLimits {
  /** Password checks from one source address, whatever the account. */
  perSource: Limit;
  /** Password checks from one source address on one account. */
  perSourceAndAccount: Limit;
  /** Wrong passwords on one account from anywhere; at `max` the account is being guessed at. */
  failuresPerAccount: Limit;
  /** Wrong passwords from one source on one account, of which an account being guessed at takes `max`. */
  failuresPerSourceAndAccount: Limit;
}

/**
 * Caps password guessing without letting strangers lock an account: every limit that refuses
 * counts per source address, so wrong passwords sent from elsewhere never refuse the owner's right
 * one. Wrong passwords on an account are also counted from every source together; once there are
 * many, a source that has already guessed wrong a few times is refused before its password is
 * checked, while a source that has not still gets its check.
 *
 * `account` is the address typed in, whether or not it has an account, so that the answers are
 * the same for both and reveal nothing.
 */
export function createSignInThrottle(limiter: AccountRateLimiter, limits: SignInLimits) {
  const pairOf = (ip: string, account: string) => `${sourceAddress(ip)}|${account}`;

  return {
    /** Before the password is checked: 429 with Retry-After when this source may not try. */
    async admit(ip: string, account: string): Promise<void> {
      const pair = pairOf(ip, account);
      await limiter.consume([
        { limit: limits.perSource, subject: sourceAddress(ip) },
        { limit: limits.perSourceAndAccount, subject: pair },
      ]);
      const [accountFailures = 0, sourceFailures = 0] = await limiter.counts([
        { limit: limits.failuresPerAccount, subject: account },
        { limit: limits.failuresPerSourceAndAccount, subject: pair },
      ]);
      if (
        accountFailures >= limits.failuresPerAccount.max &&
        sourceFailures >= limits.failuresPerSourceAndAccount.max
      ) {
        throw tooManyAttempts(secondsLeftInWindow(limits.failuresPerSourceAndAccount));
      }
    },

    /** After a wrong password (or an unknown or disabled account, which must look the same). */
    async failed(ip: string, account: string): Promise<void> {
      await Promise.all([
        limiter.add(limits.failuresPerAccount, account),
        limiter.add(limits.failuresPerSourceAndAccount, pairOf(ip, account)),
      ]);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
