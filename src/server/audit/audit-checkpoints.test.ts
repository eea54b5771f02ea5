import { mkdtempSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { buildTestApp, testAuditKeys } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import {
  createCheckpointWriter,
  readCheckpoints,
  startAuditCheckpoints,
} from './audit-checkpoints';
import { createAuditTrail, GENESIS_HASH } from './audit-trail';

const HOUR = 3_600_000;
const quietLog = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn() });

async function linesIn(dir: string): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const name of await readdir(dir)) {
    const text = await readFile(path.join(dir, name), 'utf8');
    for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  }
  return lines;
}

describe.each(databaseKinds)('audit trail checkpoints on %s', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await database?.close();
    database = undefined;
  });

  it('a server that runs jobs writes one as it starts, and logs it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-audit-checkpoints-'));
    const logged: string[] = [];
    const app = await buildTestApp(kind, {
      env: { AUDIT_CHECKPOINT_DIR: dir },
      logger: { level: 'info', stream: { write: (line: string) => logged.push(line) } },
    });
    try {
      const lines = await linesIn(dir);
      expect(lines).toEqual([
        expect.objectContaining({
          seq: 0,
          hash: GENESIS_HASH,
          mac: null,
          key_id: testAuditKeys.current.id,
        }),
      ]);
      const reading = await readCheckpoints([dir], testAuditKeys);
      expect(reading).toMatchObject({ ok: true, files: 1, marks: [{ seq: 0 }] });
      const line = logged.map((text) => JSON.parse(text)).find((entry) => entry.auditCheckpoint);
      expect(line).toMatchObject({ msg: 'audit trail checkpoint', auditCheckpoint: lines[0] });
    } finally {
      await app.close();
    }
  });

  it('stops the start of a server that cannot write them', async () => {
    const notADirectory = path.join(
      mkdtempSync(path.join(tmpdir(), 'portal-audit-checkpoints-')),
      'a-file',
    );
    await writeFile(notADirectory, '');
    // Kept here, so the database is dropped although no app was made to close it.
    database = await createTestDatabase(kind);
    await expect(
      buildTestApp(kind, {
        env: { AUDIT_CHECKPOINT_DIR: notADirectory },
        database,
      }),
    ).rejects.toThrow(
      `Audit trail checkpoints cannot be written to ${notADirectory} (AUDIT_CHECKPOINT_DIR)`,
    );
  });

  it('then every interval, when the trail has grown since the last one', async () => {
    database = await createTestDatabase(kind);
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-audit-checkpoints-'));
    const trail = createAuditTrail(database.db, testAuditKeys);
    const log = quietLog();
    const writer = createCheckpointWriter({ trail, keys: testAuditKeys, dir, log });
    // Only the interval is simulated: the database's own timers keep running.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const quiet = await startAuditCheckpoints({ trail, writer, log, intervalMs: HOUR });
    expect((await linesIn(dir)).map((line) => line.seq)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(HOUR);
    await quiet.stop();
    // Nothing was recorded in that hour: the head is where the last checkpoint put it.
    expect((await linesIn(dir)).map((line) => line.seq)).toEqual([0]);

    const periodic = await startAuditCheckpoints({ trail, writer, log, intervalMs: HOUR });
    await trail.record({ actor: { type: 'system', label: 'test' }, action: 'application.view' });
    await vi.advanceTimersByTimeAsync(HOUR);
    await periodic.stop();

    const lines = await linesIn(dir);
    expect(lines.map((line) => line.seq)).toEqual([0, 0, 1]);
    const head = await trail.head();
    expect(lines[2]).toMatchObject({ hash: head.hash, mac: head.mac });
    const reading = await readCheckpoints([dir], testAuditKeys);
    if (!reading.ok) throw new Error(reading.problem);
    expect(await trail.verify(reading.marks)).toMatchObject({ ok: true, checkpoints: 3 });
    expect(log.error).not.toHaveBeenCalled();
  });
});
