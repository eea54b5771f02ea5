import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('the embedded data directory lock', () => {
  it('refuses a second holder while the first is alive, and frees the directory on release', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'lock-'));
    const lock = lockDataDir(directory);
    expect(() => lockDataDir(directory)).toThrow(DataDirLockedError);
    lock.release();
    lockDataDir(directory).release();
  });

  it('takes over a lock left by a process that has gone', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'lock-'));
    const finished = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]);
    const deadPid = Number(finished.stdout.toString());
    writeFileSync(
      path.join(directory, 'server.lock'),
      JSON.stringify({ pid: deadPid, host: hostname(), started_at: '2026-01-01T00:00:00Z' }),
    );
    const lock = lockDataDir(directory);
    expect(JSON.parse(readFileSync(path.join(directory, 'server.lock'), 'utf8')).pid).toBe(
      process.pid,
    );
    lock.release();
  });
});
