import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../accounts/secrets';
import type { CommandIo } from '../cli/command-support';
import { type CommandContext, runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { apiClients, auditEvents } from '../db/schema';
import { TEST_AUDIT_CHAIN_KEY } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { apiClientCommand } from './api-client-command';
import { createApiClients } from './api-clients';
import { createApiClientsStore } from './api-clients-store';

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const env = loadEnv({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
  PUBLIC_URL: 'https://apply.example.edu',
});

/** The client id and secret a create or rotate printed on standard output. */
function printed(stdout: readonly string[]): { clientId: string; secret: string } {
  const values = Object.fromEntries(stdout.map((line) => line.split('=', 2) as [string, string]));
  return { clientId: values.client_id as string, secret: values.client_secret as string };
}

describe.each(databaseKinds)('npm run api-client on %s', (kind) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function run(args: string[]) {
    const io = capture();
    const context: CommandContext = { env, io, database };
    const code = await runCommand(apiClientCommand, args, context);
    return { code, ...io };
  }
  const uniqueName = (base: string) => `${base} ${randomBytes(4).toString('hex')}`;
  const clients = () => createApiClients(createApiClientsStore(database.db));
  const auditOf = (action: string, clientId: string) =>
    database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, action), sql`${auditEvents.detail}->>'client_id' = ${clientId}`),
      );

  it('creates a client, prints its secret once with how to use it, and keeps only the hash', async () => {
    const name = uniqueName('Banner nightly');
    const result = await run([
      'create',
      '--name',
      name,
      '--scopes',
      'decisions:read,applications:read',
      '--rate-limit',
      '120',
    ]);
    expect(result.code).toBe(0);
    const { clientId, secret } = printed(result.stdout);
    expect(clientId).toMatch(/^cli_/);
    expect(secret).toMatch(/^ics_/);
    const notes = result.stderr.join('\n');
    expect(notes).toContain('will not be shown again');
    expect(notes).toContain(
      `curl -s -u '${clientId}:CLIENT_SECRET' -d grant_type=client_credentials https://apply.example.edu/api/v1/oauth/token`,
    );
    expect(notes).not.toContain(secret);
    const [row] = await database.db.select().from(apiClients).where(eq(apiClients.name, name));
    expect(row).toMatchObject({
      clientId,
      scopes: ['applications:read', 'decisions:read'],
      rateLimitPerMinute: 120,
      secretHash: sha256(secret),
      createdByLabel: 'command line',
    });
    const token = await clients().issueToken(clientId, secret, null);
    expect(token).toMatchObject({ scope: 'applications:read decisions:read' });
    const [entry] = await auditOf('api_client.created', clientId);
    expect(entry).toMatchObject({ actorType: 'system', actorLabel: 'command line' });
  });

  it('lists clients without their secrets', async () => {
    const name = uniqueName('Listed');
    const made = await run(['create', '--name', name, '--scopes', 'webhooks:manage']);
    const { clientId, secret } = printed(made.stdout);
    const result = await run(['list']);
    expect(result.code).toBe(0);
    const line = result.stdout.find((text) => text.startsWith(`${name}\t`));
    expect(line).toContain(clientId);
    expect(line).toContain('webhooks:manage');
    expect(line).toContain('by command line');
    expect(line?.endsWith('\tactive')).toBe(true);
    expect(result.stdout.join('\n')).not.toContain(secret);
  });

  it('rotates a secret: the old one stops, the new one is printed once', async () => {
    const name = uniqueName('Rotated');
    const first = printed(
      (await run(['create', '--name', name, '--scopes', 'applications:read'])).stdout,
    );
    const token = await clients().issueToken(first.clientId, first.secret, null);
    const result = await run(['rotate', '--name', name]);
    expect(result.code).toBe(0);
    const second = printed(result.stdout);
    expect(second.clientId).toBe(first.clientId);
    expect(second.secret).not.toBe(first.secret);
    expect(result.stderr.join('\n')).toContain('will not be shown again');
    expect(await clients().issueToken(first.clientId, first.secret, null)).toEqual({
      error: 'invalid_client',
    });
    expect(await clients().holderOf((token as { access_token: string }).access_token)).toBeNull();
    expect(await clients().issueToken(first.clientId, second.secret, null)).toHaveProperty(
      'access_token',
    );
    expect(await auditOf('api_client.secret_rotated', first.clientId)).toHaveLength(1);
  });

  it('revokes a client: its tokens stop, a second revoke changes nothing', async () => {
    const name = uniqueName('Revoked');
    const made = printed(
      (await run(['create', '--name', name, '--scopes', 'applications:read'])).stdout,
    );
    const token = await clients().issueToken(made.clientId, made.secret, null);
    expect((await run(['revoke', '--name', name])).code).toBe(0);
    expect(await clients().holderOf((token as { access_token: string }).access_token)).toBeNull();
    expect(await clients().issueToken(made.clientId, made.secret, null)).toEqual({
      error: 'invalid_client',
    });
    const again = await run(['revoke', '--name', name]);
    expect(again.code).toBe(0);
    expect(again.stderr.join('\n')).toContain('already revoked');
    expect(await auditOf('api_client.revoked', made.clientId)).toHaveLength(1);
    const rotate = await run(['rotate', '--name', name]);
    expect(rotate.code).toBe(1);
    expect(rotate.stderr.at(-1)).toBe('This client has been revoked.');
    const list = await run(['list']);
    expect(list.stdout.find((text) => text.startsWith(`${name}\t`))).toMatch(/\trevoked \d{4}-/);
  });

  it('says what is wrong with the arguments before opening the database', async () => {
    const unknown = await run([
      'create',
      '--name',
      'X',
      '--scopes',
      'applications:read,everything,all',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr[0]).toContain('Unknown scopes: everything, all.');
    for (const args of [
      [],
      ['make'],
      ['create', '--scopes', 'applications:read'],
      ['create', '--name', 'X'],
      ['create', '--name', 'X', '--scopes', 'applications:read', '--rate-limit', '0'],
      ['create', '--name', 'X', '--scopes', 'applications:read', '--rate-limit', 'many'],
      ['rotate'],
      ['revoke', '--name', 'X', '--scopes', 'applications:read'],
      ['list', '--name', 'X'],
      ['create', '--name', 'X', '--secret', 'mine'],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.join('\n')).toContain('Usage:');
    }
  });

  it('refuses a taken name, a name with control characters and an unknown client', async () => {
    const name = uniqueName('Taken');
    expect((await run(['create', '--name', name, '--scopes', 'applications:read'])).code).toBe(0);
    const taken = await run(['create', '--name', name, '--scopes', 'decisions:read']);
    expect(taken.code).toBe(1);
    expect(taken.stderr.at(-1)).toContain('already exists');
    const control = await run(['create', '--name', 'Bell\u0007', '--scopes', 'decisions:read']);
    expect(control.code).toBe(1);
    const missing = await run(['revoke', '--name', uniqueName('Nobody')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.at(-1)).toContain('No API client is named');
    const rotateMissing = await run(['rotate', '--name', uniqueName('Nobody')]);
    expect(rotateMissing.code).toBe(1);
  });
});
