import { mkdtempSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../cli/command-support';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { auditEvents } from '../db/schema';
import { dropNewest, rewriteTrail, withoutTriggers } from '../test/audit-tampering';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { auditCommand } from './audit-command';
import { auditKeyring } from './audit-keys';
import { createAuditTrail } from './audit-trail';

const KEY = 'audit-command-test-key-0123456789abcdef';

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe.each(databaseKinds)('npm run audit on %s', (kind) => {
  // Each test has a trail of its own (a chain is one per database) and a checkpoint folder.
  let database: DatabaseHandle | undefined;
  let checkpoints = '';
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function trailOf(entries: number): Promise<DatabaseHandle> {
    database = await createTestDatabase(kind);
    checkpoints = mkdtempSync(path.join(tmpdir(), 'portal-audit-checkpoints-'));
    const trail = createAuditTrail(database.db, auditKeyring(KEY));
    for (let n = 1; n <= entries; n++) {
      await trail.record({
        actor: { type: 'system', label: 'test' },
        action: 'application.view',
        detail: { n },
      });
    }
    return database;
  }

  async function run(args: string[], handle: DatabaseHandle) {
    const io = capture();
    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      AUDIT_CHAIN_KEY: KEY,
      AUDIT_CHECKPOINT_DIR: checkpoints,
    });
    const code = await runCommand(auditCommand, args, { env, io, database: handle });
    return { code, ...io };
  }

  async function checkpointFile(): Promise<string> {
    const result = await run(['checkpoint'], database as DatabaseHandle);
    expect(result.code).toBe(0);
    const file = /appended to (.+)\.$/.exec(result.stderr[0] ?? '')?.[1];
    if (!file) throw new Error(`no checkpoint file in ${result.stderr.join(' ')}`);
    return file;
  }

  it('checkpoint appends a signed line of the newest entry that verify then compares', async () => {
    const handle = await trailOf(3);
    const [newest] = await handle.db.select().from(auditEvents).where(eq(auditEvents.seq, 3));
    const written = await run(['checkpoint'], handle);
    expect(written.code).toBe(0);
    const line = JSON.parse(written.stdout[0] ?? '');
    expect(line).toMatchObject({
      seq: 3,
      hash: newest?.hash,
      mac: newest?.mac,
      key_id: auditKeyring(KEY).current.id,
      sig: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const file = written.stderr[0]?.match(/appended to (.+)\.$/)?.[1] ?? '';
    expect(path.dirname(file)).toBe(checkpoints);
    expect(await readFile(file, 'utf8')).toBe(`${written.stdout[0]}\n`);

    const result = await run(['verify'], handle);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([
      'Audit trail intact: 3 entries.',
      `Newest entry: 3, hash ${newest?.hash}, MAC ${newest?.mac}.`,
      `Matches 1 checkpoint in ${checkpoints}; the newest names entry 3.`,
    ]);
    expect(result.stderr).toEqual([]);
  });

  it('verify reports an empty trail as intact', async () => {
    const result = await run(['verify'], await trailOf(0));
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(['Audit trail intact: 0 entries.']);
  });

  it('verify fails when no checkpoint can be found: removed entries would not show', async () => {
    const result = await run(['verify'], await trailOf(2));
    expect(result.code).toBe(1);
    expect(result.stderr.join('\n')).toContain(
      `No checkpoint of the audit trail was found in ${checkpoints}`,
    );
  });

  it('verify names the first broken entry and exits 1', async () => {
    const handle = await trailOf(3);
    await checkpointFile();
    await withoutTriggers(handle.db, () =>
      handle.db.update(auditEvents).set({ ip: '203.0.113.7' }).where(eq(auditEvents.seq, 2)),
    );
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toEqual([
      'Audit trail broken at entry 2: its contents do not match its hash (the row was changed).',
    ]);
  });

  it('verify catches an entry edited with the triggers off and every hash after it recomputed', async () => {
    const handle = await trailOf(5);
    await checkpointFile();
    await rewriteTrail(handle.db, 2, { actorLabel: 'nobody', detail: { n: 20 } });
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      'Audit trail broken at entry 2: its MAC does not match (the row, or an entry before it, ' +
        'was changed without the key).',
    ]);
  });

  it('verify catches a rewritten trail whose MACs were removed: the checkpoint names a MAC', async () => {
    const handle = await trailOf(4);
    await checkpointFile();
    await rewriteTrail(handle.db, 1, { ip: '203.0.113.7' }, { stripMacs: true });
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(
      /^Audit trail broken at entry 4: it differs from the checkpoint of \S+ \(.+ line 1\): the trail was rewritten up to here\.$/,
    );
  });

  it('verify catches the newest entries dropped after a checkpoint', async () => {
    const handle = await trailOf(5);
    await checkpointFile();
    await dropNewest(handle.db, 4);
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(
      /^Audit trail broken at entry 4: entries 4 to 5 are missing: the checkpoint of \S+ \(.+ line 1\) names entry 5, and the newest entry is 3 \(the newest entries were removed\)\.$/,
    );
  });

  it('verify refuses a checkpoint changed by someone without the key', async () => {
    const handle = await trailOf(5);
    const file = await checkpointFile();
    await dropNewest(handle.db, 4);
    // Hiding the removal: the checkpoint is made to name the new newest entry.
    const [third] = await handle.db.select().from(auditEvents).where(eq(auditEvents.seq, 3));
    const line = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(
      file,
      `${JSON.stringify({ ...line, seq: 3, hash: third?.hash, mac: third?.mac })}\n`,
    );
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      `Audit checkpoint refused: ${file} line 1 does not match its signature: the checkpoint ` +
        'was changed or made up.',
    ]);
  });

  it('verify reads checkpoints kept elsewhere with --checkpoints', async () => {
    const handle = await trailOf(2);
    await checkpointFile();
    const copy = mkdtempSync(path.join(tmpdir(), 'portal-audit-copy-'));
    await cp(checkpoints, copy, { recursive: true });
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'portal-audit-empty-'));
    checkpoints = elsewhere;
    const result = await run(['verify', '--checkpoints', copy], handle);
    expect(result.code).toBe(0);
    expect(result.stdout.at(-1)).toBe(`Matches 1 checkpoint in ${copy}; the newest names entry 2.`);
  });

  it('says what to type for anything but verify and checkpoint', async () => {
    const handle = await trailOf(0);
    for (const [args, message] of [
      [[], 'Say what to do: verify or checkpoint.'],
      [['check'], 'Unknown command "check": the commands are verify and checkpoint.'],
      [['verify', 'now'], 'Unknown command "verify now"'],
      [['verify', '--all'], "Unknown option '--all'"],
      [['checkpoint', '--checkpoints', '/tmp'], '--checkpoints is for verify'],
    ] as const) {
      const result = await run([...args], handle);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toEqual([]);
      expect(result.stderr.join('\n')).toContain(message);
      expect(result.stderr.join('\n')).toContain('npm run audit -- verify');
    }
    const help = await run(['--help'], handle);
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toContain('npm run audit -- checkpoint');
  });
});
