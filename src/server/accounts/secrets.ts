import { createHash, randomBytes, randomInt } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { CONFIRMATION_CODE_LENGTH } from '../../shared/constants';

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane. */
// 2 is Algorithm.Argon2id; the enum is a const enum that isolated modules cannot read.
const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the time of a real check, so an unknown address answers as slowly as a known one. */
export async function spendPasswordCheckTime(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomToken());
  await verifyPassword(await dummyHash, password);
}

/** 256 random bits, URL-safe: session tokens and reset ids. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function confirmationCode(): string {
  return String(randomInt(0, 10 ** CONFIRMATION_CODE_LENGTH)).padStart(
    CONFIRMATION_CODE_LENGTH,
    '0',
  );
}

/** Tokens are stored only as hashes, so a leaked table authenticates nobody. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
