import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
}

/**
 * PGlite takes no lock of its own, and two processes writing one data directory corrupt it.
 * The lock file records its owner; a lock whose process is gone is taken over.
 */
export function lockDataDir(directory: string): DataDirLock {
  mkdirSync(directory, { recursive: true });
  const lockFile = path.join(directory, 'server.lock');
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      return {
        release() {
          const current = readOwner(lockFile);
          if (current?.pid === owner.pid && current.host === owner.host) unlinkSync(lockFile);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readOwner(lockFile);
      if (holder && isAlive(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${path.resolve(directory)} is in use by another running server ` +
            `(pid ${holder.pid} on ${holder.host}, started ${holder.started_at}). ` +
            'Stop that server first, or start this one with a different DATA_DIR, or use PostgreSQL through DATABASE_URL.',
        );
      }
      unlinkSync(lockFile);
    }
  }
  throw new DataDirLockedError(
    `Could not lock ${path.resolve(directory)}: another process keeps taking it.`,
  );
}

function readOwner(lockFile: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(lockFile, 'utf8')) as LockOwner;
  } catch {
    return null;
  }
}

function isAlive(holder: LockOwner): boolean {
  // A lock written on another host (a shared volume) cannot be checked from here, so it is honoured.
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
