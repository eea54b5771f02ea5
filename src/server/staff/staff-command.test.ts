import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../accounts/secrets';
import { createAuditTrail } from '../audit/audit-trail';
import type { CommandIo } from '../cli/command-support';
import { type CommandContext, runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { auditEvents, outbox, staffInvitations, staffMembers, staffSessions } from '../db/schema';
import { TEST_AUDIT_CHAIN_KEY, testAuditKeys } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { staffCommand } from './staff-command';

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe.each(databaseKinds)('npm run staff on %s', (kind) => {
  let database: DatabaseHandle;
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://apply.example.edu',
    AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
  });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function run(args: string[]) {
    const io = capture();
    const context: CommandContext = { env, io, database };
    const code = await runCommand(staffCommand, args, context);
    return { code, ...io };
  }

  const memberOf = async (email: string) =>
    (await database.db.select().from(staffMembers).where(eq(staffMembers.email, email)))[0];

  it('invites the first administrator: a link on standard output, its hash stored, a mail kept', async () => {
    const result = await run(['invite', '--email', 'First.Admin@Example.edu', '--role', 'admin']);
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(1);
    const link = new URL(result.stdout[0] as string);
    expect(`${link.origin}${link.pathname}`).toBe('https://apply.example.edu/staff/invitation');
    const token = link.searchParams.get('token') as string;
    const member = await memberOf('first.admin@example.edu');
    expect(member).toMatchObject({ role: 'admin', passwordHash: '', totpSecret: null });
    const [invitation] = await database.db
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.staffId, member?.id as string));
    expect(invitation?.tokenHash).toBe(sha256(token));
    const hours = ((invitation?.expiresAt.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    const mail = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, 'first.admin@example.edu'));
    expect(mail[0]?.text).toContain(link.toString());
    expect(result.stderr.join('\n')).toContain('SMTP_URL is not set');
  });

  it('lists, changes roles, disables and enables, on record and keeping one admin', async () => {
    await run(['invite', '--email', 'boss@example.edu', '--role', 'admin']);
    await run(['invite', '--email', 'reader@example.edu', '--role', 'reader']);
    const listed = await run(['list']);
    expect(
      listed.stdout.some((line) => line.startsWith('reader@example.edu\treader\tinvited')),
    ).toBe(true);

    const reader = await memberOf('reader@example.edu');
    await database.db.insert(staffSessions).values({
      tokenHash: sha256('reader-session'),
      staffId: reader?.id as string,
      stage: 'signed_in',
      method: 'password',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await run(['role', '--email', 'reader@example.edu', '--role', 'admin'])).code).toBe(0);
    expect((await memberOf('reader@example.edu'))?.role).toBe('admin');
    const [session] = await database.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.tokenHash, sha256('reader-session')));
    expect(session?.revokedAt).not.toBeNull();

    expect((await run(['disable', '--email', 'reader@example.edu'])).code).toBe(0);
    expect((await memberOf('reader@example.edu'))?.disabledAt).not.toBeNull();
    expect((await run(['enable', '--email', 'reader@example.edu'])).code).toBe(0);
    expect((await memberOf('reader@example.edu'))?.disabledAt).toBeNull();

    const actions = (
      await database.db.select().from(auditEvents).where(eq(auditEvents.actorLabel, 'command line'))
    ).map((event) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'staff.invited',
        'staff.role_changed',
        'staff.disabled',
        'staff.enabled',
      ]),
    );
    expect(await createAuditTrail(database.db, testAuditKeys).verify()).toMatchObject({ ok: true });
  });

  it('refuses to disable or demote the last administrator who can sign in', async () => {
    const own = await createTestDatabase(kind);
    try {
      const io = capture();
      const context: CommandContext = { env, io, database: own };
      await runCommand(
        staffCommand,
        ['invite', '--email', 'only@example.edu', '--role', 'admin'],
        context,
      );
      // Set up, as after the invitation is accepted: an admin who can sign in.
      await own.db.update(staffMembers).set({ totpSecret: 'JBSWY3DPEHPK3PXP' });
      const code = await runCommand(
        staffCommand,
        ['disable', '--email', 'only@example.edu'],
        context,
      );
      expect(code).toBe(1);
      expect(io.stderr.at(-1)).toBe('At least one active administrator must remain.');
      const [member] = await own.db.select().from(staffMembers);
      expect(member?.disabledAt).toBeNull();
    } finally {
      await own.close();
    }
  });

  it('invites a member who has signed in again without changing their role', async () => {
    await run(['invite', '--email', 'veteran@example.edu', '--role', 'reader']);
    await database.db
      .update(staffMembers)
      .set({ totpSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(staffMembers.email, 'veteran@example.edu'));
    const again = await run(['invite', '--email', 'veteran@example.edu', '--role', 'admin']);
    expect(again.code).toBe(0);
    expect(again.stderr[0]).toContain('Invited veteran@example.edu as reader;');
    expect(again.stderr[1]).toBe(
      'They have signed in before, so they keep their role; change it with: npm run staff -- role --email veteran@example.edu --role admin',
    );
    expect((await memberOf('veteran@example.edu'))?.role).toBe('reader');
  });

  it('explains wrong arguments and changes nothing', async () => {
    const before = (await database.db.select().from(staffMembers)).length;
    for (const args of [
      [],
      ['promote'],
      ['invite', '--email', 'x@example.edu'],
      ['invite', '--email', 'x@example.edu', '--role', 'owner'],
      ['invite', '--email', 'not-an-address', '--role', 'reader'],
      ['disable'],
      ['list', 'extra'],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.join('\n')).toContain('Usage:');
    }
    const unknown = await run(['disable', '--email', 'nobody@example.edu']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toEqual(['No staff member uses the address nobody@example.edu.']);
    expect((await database.db.select().from(staffMembers)).length).toBe(before);
  });
});
