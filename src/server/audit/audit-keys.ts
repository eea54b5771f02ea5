import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../config/env';

/** One key of the audit chain and the id stored beside what it signed. */
export interface AuditKey {
  id: string;
  secret: string;
}

/** The key new entries and checkpoints are signed with, and every key that may be met reading. */
export interface AuditKeyring {
  current: AuditKey;
  byId: ReadonlyMap<string, AuditKey>;
}

/**
 * Derived from the key, so rotating needs no second setting and the id names the key without
 * revealing it (a MAC of a constant).
 */
export function auditKeyId(secret: string): string {
  return createHmac('sha256', secret).update('audit chain key id').digest('hex').slice(0, 16);
}

export function auditKeyring(current: string, retired: readonly string[] = []): AuditKeyring {
  const keys = [current, ...retired].map((secret) => ({ id: auditKeyId(secret), secret }));
  return { current: keys[0] as AuditKey, byId: new Map(keys.map((key) => [key.id, key])) };
}

/** Where a development server keeps the key it made, beside the database but not in it. */
export function developmentKeyFile(env: Pick<Env, 'DATA_DIR'>): string {
  return path.join(env.DATA_DIR, 'audit-chain.key');
}

/**
 * AUDIT_CHAIN_KEY with AUDIT_CHAIN_OLD_KEYS; outside production, without it, a key kept in a file
 * under DATA_DIR (made on first use), so entries a development server signed still verify after
 * a restart and the commands sign with the same key. env.ts refuses production without the key.
 */
export async function auditKeysFromEnv(
  env: Pick<Env, 'AUDIT_CHAIN_KEY' | 'AUDIT_CHAIN_OLD_KEYS' | 'DATA_DIR'>,
  warn: (message: string) => void,
): Promise<AuditKeyring> {
  if (env.AUDIT_CHAIN_KEY) return auditKeyring(env.AUDIT_CHAIN_KEY, env.AUDIT_CHAIN_OLD_KEYS);
  const file = developmentKeyFile(env);
  let secret: string;
  try {
    secret = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    secret = randomBytes(32).toString('hex');
    await mkdir(path.dirname(file), { recursive: true });
    // `wx`: two processes starting at once keep the first one's key.
    try {
      await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
      secret = (await readFile(file, 'utf8')).trim();
    }
  }
  warn(
    `AUDIT_CHAIN_KEY is not set: the audit trail is signed with the key in ${path.resolve(file)}, ` +
      'which is kept with the data; set AUDIT_CHAIN_KEY in production',
  );
  return auditKeyring(secret, env.AUDIT_CHAIN_OLD_KEYS);
}
