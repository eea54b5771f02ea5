import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from '../cli/command-support';
import { type CommandContext, runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { auditEvents, webhookSubscriptions } from '../db/schema';
import { TEST_AUDIT_CHAIN_KEY } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { webhooksCommand } from './webhooks-command';
import { createWebhooksStore } from './webhooks-store';
import { startReceiver } from './webhooks-test-support';

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe.each(databaseKinds)('npm run webhooks on %s', (kind) => {
  let database: DatabaseHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
  });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await database.close();
    await receiver.close();
  });

  async function run(args: string[]) {
    const io = capture();
    const context: CommandContext = { env, io, database };
    const code = await runCommand(webhooksCommand, args, context);
    return { code, ...io };
  }

  it('adds a subscription, printing its id and secret once, with the scopes its events need', async () => {
    const added = await run([
      'add',
      '--url',
      `${receiver.url}/cli`,
      '--events',
      'application.submitted,decision.released',
      '--description',
      'Banner',
    ]);
    expect(added.code, added.stderr.join('\n')).toBe(0);
    const [id, secret] = added.stdout as [string, string];
    expect(secret).toMatch(/^whsec_/);
    const [row] = await database.db
      .select()
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.id, id));
    expect(row).toMatchObject({
      scopes: ['applications:read', 'decisions:read'],
      description: 'Banner',
      createdByLabel: 'command line',
    });
    const listed = await run(['list']);
    expect(listed.stdout.join('\n')).toContain(id);
    expect(listed.stdout.join('\n')).not.toContain('whsec_');
    const [audited] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'webhook.subscription_created'));
    expect(audited).toMatchObject({ actorType: 'system', actorLabel: 'command line' });
  });

  it('replays a delivery, lists deliveries, enables and removes, each audited', async () => {
    const added = await run([
      'add',
      '--url',
      `${receiver.url}/again`,
      '--events',
      'checklist.changed',
    ]);
    const [id, secret] = added.stdout as [string, string];
    const store = createWebhooksStore(database.db);
    await store.insertDeliveries([
      {
        id: `msg_cli_${kind}`,
        subscriptionId: id,
        eventSeq: 1,
        eventType: 'checklist.changed',
        accountId: '00000000-0000-4000-8000-000000000001',
        payload: '{"type":"checklist.changed"}',
      },
    ]);
    const replayed = await run(['replay', `msg_cli_${kind}`]);
    expect(replayed.code, replayed.stderr.join('\n')).toBe(0);
    const [request] = receiver.received.filter((r) => r.path === '/again');
    expect(request?.headers['webhook-id']).toBe(`msg_cli_${kind}`);
    new Webhook(secret).verify(request?.body ?? '', {
      'webhook-id': String(request?.headers['webhook-id']),
      'webhook-timestamp': String(request?.headers['webhook-timestamp']),
      'webhook-signature': String(request?.headers['webhook-signature']),
    });
    const log = await run(['deliveries', id]);
    expect(log.stdout[0]).toContain(`msg_cli_${kind}\tchecklist.changed`);
    expect(log.stdout[0]).toContain('delivered');
    await store.disable(id, 'test');
    expect((await run(['enable', id])).code).toBe(0);
    expect((await store.subscription(id, 'any'))?.disabledAt).toBeNull();
    expect((await run(['remove', id])).code).toBe(0);
    expect(await store.subscription(id, 'any')).toBeNull();
    const actions = (await database.db.select().from(auditEvents)).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'webhook.delivery_replayed',
        'webhook.subscription_enabled',
        'webhook.subscription_deleted',
      ]),
    );
  });

  it('says what is wrong with the arguments', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [[], 2, /Say what to do/],
      [['add', '--events', 'checklist.changed'], 2, /--url/],
      [['add', '--url', 'https://example.edu/h'], 2, /--events/],
      [
        ['add', '--url', 'https://example.edu/h', '--events', 'application.deleted'],
        2,
        /Unknown event: application.deleted/,
      ],
      [
        [
          'add',
          '--url',
          'https://example.edu/h',
          '--events',
          'checklist.changed',
          '--scopes',
          'all',
        ],
        2,
        /Unknown scope: all/,
      ],
      [
        [
          'add',
          '--url',
          'https://example.edu/h',
          '--events',
          'decision.released',
          '--scopes',
          'applications:read',
        ],
        1,
        /decision.released needs decisions:read/,
      ],
      [['add', '--url', 'ftp://example.edu/h', '--events', 'checklist.changed'], 1, /https:\/\//],
      [['remove'], 2, /one subscription id/],
      [['remove', 'nope'], 1, /No such webhook subscription/],
      [['replay', 'msg_none'], 1, /No such delivery/],
      [['list', '--url', 'x'], 2, /add only/],
    ];
    for (const [args, code, message] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr.join('\n'), args.join(' ')).toMatch(message);
    }
  });
});
