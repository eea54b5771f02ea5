import path from 'node:path';
import type { Env } from '../config/env';
import { DataDirLockedError } from '../db/data-dir-lock';
import { type DatabaseHandle, openDatabase } from '../db/database';

/** Where a command writes: the link (or result) to `out`, everything meant for a person to `err`. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export const consoleIo: CommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A problem with what the person typed or with the situation, said in one sentence. */
export class CommandError extends Error {
  override name = 'CommandError';
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / UNIT_MS.m)}m`;
}

/** `90m`, `24h`, `7d`: a lifetime of at least a minute and at most `maxMs`. */
export function parseDuration(text: string, maxMs: number): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  if (!match) {
    throw new CommandError(
      `--ttl must be a number followed by m, h or d (for example 30m, 24h or 7d), not "${text}".`,
    );
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms < UNIT_MS.m) throw new CommandError('--ttl must be at least 1m.');
  if (ms > maxMs) throw new CommandError(`--ttl must be at most ${formatDuration(maxMs)}.`);
  return ms;
}

/** Links start where applicants and staff reach the portal: PUBLIC_URL, or this machine's port. */
export function linkBase(env: Pick<Env, 'PUBLIC_URL' | 'PORT'>): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}

/**
 * The database the server uses. The embedded one belongs to a single process (its lock file), so
 * while a server runs on it a command cannot open it: that is refused with what to do instead.
 */
export async function openCommandDatabase(env: Env): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) {
    return openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 1 });
  }
  try {
    return await openDatabase({ kind: 'pglite', dataDir: env.DATA_DIR });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new CommandError(
      `The embedded database in ${path.resolve(env.DATA_DIR)} is in use by the running server, ` +
        'and only one process may open it. Stop the server, run this command, then start the ' +
        'server again. On PostgreSQL (DATABASE_URL) commands run while servers are up.',
    );
  }
}
