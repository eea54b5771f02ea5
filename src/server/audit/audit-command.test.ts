import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../cli/command-support';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { auditEvents } from '../db/schema';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { auditCommand } from './audit-command';
import { createAuditTrail } from './audit-trail';

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe.each(databaseKinds)('npm run audit on %s', (kind) => {
  // Each test has a trail of its own: a chain is one per database.
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function trailOf(entries: number): Promise<DatabaseHandle> {
    database = await createTestDatabase(kind);
    const trail = createAuditTrail(database.db);
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
    const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const code = await runCommand(auditCommand, args, { env, io, database: handle });
    return { code, ...io };
  }

  it('verify reports an intact trail with its count and newest hash', async () => {
    const handle = await trailOf(3);
    const [newest] = await handle.db.select().from(auditEvents).where(eq(auditEvents.seq, 3));
    const result = await run(['verify'], handle);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([
      'Audit trail intact: 3 entries.',
      `Newest entry: 3, hash ${newest?.hash}.`,
    ]);
    expect(result.stderr).toEqual([]);
  });

  it('verify reports an empty trail as intact', async () => {
    const result = await run(['verify'], await trailOf(0));
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(['Audit trail intact: 0 entries.']);
  });

  it('verify names the first broken entry and exits 1', async () => {
    const handle = await trailOf(3);
    const { db } = handle;
    await db.execute(
      sql`alter table audit_events disable trigger audit_events_no_update_or_delete`,
    );
    await db.update(auditEvents).set({ ip: '203.0.113.7' }).where(eq(auditEvents.seq, 2));
    await db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    const result = await run(['verify'], handle);
    expect(result.code).toBe(1);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toEqual([
      'Audit trail broken at entry 2: its contents do not match its hash (the row was changed).',
    ]);
  });

  it('says what to type for anything but verify', async () => {
    const handle = await trailOf(0);
    for (const [args, message] of [
      [[], 'Say what to do: verify.'],
      [['check'], 'Unknown command "check": the only one is verify.'],
      [['verify', 'now'], 'Unknown command "verify now"'],
      [['verify', '--all'], "Unknown option '--all'"],
    ] as const) {
      const result = await run([...args], handle);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toEqual([]);
      expect(result.stderr.join('\n')).toContain(message);
      expect(result.stderr.join('\n')).toContain('npm run audit -- verify');
    }
    const help = await run(['--help'], handle);
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toContain('npm run audit -- verify');
  });
});
