import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../accounts/secrets';
import type { CommandIo } from '../cli/command-support';
import { type CommandContext, runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import { lockDataDir } from '../db/data-dir-lock';
import type { DatabaseHandle } from '../db/database';
import { accounts, applications, auditEvents, serviceTokens } from '../db/schema';
import { TEST_AUDIT_CHAIN_KEY } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { serviceTokenCommand } from './service-token-command';
import { serviceTokenAccount } from './service-tokens';

const HOUR_MS = 3_600_000;

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const testEnv = (extra: Record<string, string> = {}) =>
  loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
    ...extra,
  });

describe.each(databaseKinds)('npm run service-token on %s', (kind) => {
  let database: DatabaseHandle;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function applicant(submitted: boolean): Promise<{ email: string; accountId: string }> {
    const email = `staff-link${++counter}@example.edu`;
    const [row] = await database.db
      .insert(accounts)
      .values({ email, confirmedAt: sql`now()` })
      .returning({ id: accounts.id });
    const accountId = row?.id as string;
    await database.db
      .insert(applications)
      .values({ accountId, submittedAt: submitted ? sql`now()` : null });
    return { email, accountId };
  }

  async function run(args: string[], env = testEnv()) {
    const io = capture();
    const context: CommandContext = { env, io, database };
    const code = await runCommand(serviceTokenCommand, args, context);
    return { code, ...io };
  }

  const tokensOf = (accountId: string) =>
    database.db.select().from(serviceTokens).where(eq(serviceTokens.accountId, accountId));

  it('prints a link whose token reaches the application, stored only as a hash', async () => {
    const { email, accountId } = await applicant(true);
    const before = Date.now();
    const result = await run(['--email', email.toUpperCase()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(1);
    const link = new URL(result.stdout[0] as string);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/about');
    const token = link.searchParams.get('service_token') as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stderr.join('\n')).toContain(`application of ${email}`);
    expect(result.stderr.join('\n')).not.toContain('not been submitted');

    const rows = await tokensOf(accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(sha256(token));
    const lifetime = (rows[0]?.expiresAt.getTime() ?? 0) - before;
    expect(lifetime).toBeGreaterThan(24 * HOUR_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(24 * HOUR_MS + 60_000);
    expect(await serviceTokenAccount(database.db, token)).toBe(accountId);
  });

  it('uses PUBLIC_URL, takes --ttl and notes a draft that is not submitted', async () => {
    const { email, accountId } = await applicant(false);
    const before = Date.now();
    const result = await run(
      ['--email', email, '--ttl', '2h'],
      testEnv({ PUBLIC_URL: 'https://apply.example.edu/' }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toMatch(
      /^https:\/\/apply\.example\.edu\/about\?service_token=[A-Za-z0-9_-]{43}$/,
    );
    expect(result.stderr.join('\n')).toContain('(2h)');
    expect(result.stderr.join('\n')).toContain('has not been submitted');
    const [row] = await tokensOf(accountId);
    const lifetime = (row?.expiresAt.getTime() ?? 0) - before;
    expect(Math.abs(lifetime - 2 * HOUR_MS)).toBeLessThan(60_000);
  });

  it('refuses bad input with a sentence and stores nothing', async () => {
    const { email, accountId } = await applicant(true);
    const cases: Array<[string[], number, string]> = [
      [[], 1, '--email is required.'],
      [['--email', 'nobody@example.edu'], 1, 'No account uses the address nobody@example.edu.'],
      [['--email', email, '--ttl', 'soon'], 1, '--ttl must be a number followed by m, h or d'],
      [['--email', email, '--ttl', '31d'], 1, '--ttl must be at most 30d.'],
      [['--email', email, '--ttl', '0m'], 1, '--ttl must be at least 1m.'],
      [['--email', email, '--revoke', '--ttl', '1h'], 1, 'cannot be used together'],
      [['--email', email, '--role', 'admin'], 2, "Unknown option '--role'"],
      [['--email'], 2, 'argument missing'],
    ];
    for (const [args, code, message] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stdout, args.join(' ')).toEqual([]);
      expect(result.stderr.join('\n'), args.join(' ')).toContain(message);
    }
    expect(await tokensOf(accountId)).toEqual([]);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toContain('npm run service-token -- --email APPLICANT_EMAIL');
  });

  it('--revoke ends every live link to the application', async () => {
    const { email, accountId } = await applicant(true);
    const first = await run(['--email', email]);
    const second = await run(['--email', email]);
    const tokens = [first, second].map(
      (result) => new URL(result.stdout[0] as string).searchParams.get('service_token') as string,
    );
    const revoked = await run(['--email', email, '--revoke']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toEqual([]);
    expect(revoked.stderr).toEqual([`Ended 2 live staff links to ${email}.`]);
    for (const token of tokens) expect(await serviceTokenAccount(database.db, token)).toBeNull();
    expect((await tokensOf(accountId)).every((row) => row.revokedAt !== null)).toBe(true);
    const recorded = await database.db
      .select({ action: auditEvents.action, actor: auditEvents.actorLabel })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, accountId))
      .orderBy(auditEvents.seq);
    expect(recorded).toEqual([
      { action: 'service_link.created', actor: 'command line' },
      { action: 'service_link.created', actor: 'command line' },
      { action: 'service_link.revoked', actor: 'command line' },
    ]);
  });
});

describe('npm run service-token on the embedded database of DATA_DIR', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses with what to do while a server holds the database', async () => {
    const lock = lockDataDir(dataDir);
    try {
      const io = capture();
      const env = testEnv({ DATA_DIR: dataDir });
      const code = await runCommand(serviceTokenCommand, ['--email', 'a@example.edu'], { env, io });
      expect(code).toBe(1);
      expect(io.stderr.join('\n')).toContain('is in use by the running server');
      expect(io.stderr.join('\n')).toContain('Stop the server, run this command');
    } finally {
      lock.release();
    }
  });

  it('opens the database itself when no server runs, and releases it afterwards', async () => {
    const io = capture();
    const env = testEnv({ DATA_DIR: dataDir });
    const code = await runCommand(serviceTokenCommand, ['--email', 'a@example.edu'], { env, io });
    expect(code).toBe(1);
    expect(io.stderr).toEqual(['No account uses the address a@example.edu.']);
    // The lock is free again: a server (here, a lock) can take the directory.
    lockDataDir(dataDir).release();
  });
});
