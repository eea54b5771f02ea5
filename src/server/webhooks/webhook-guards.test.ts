import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../config/env';
import { integrationEvents, webhookDeliveries } from '../db/schema';
import { createRetentionStore } from '../retention/retention-store';
import { insertApplications } from '../test/export-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { isPublicAddress, PrivateNetworks, type Resolver, resolveWebhookHost } from './ssrf-guard';
import { webhookPayload } from './webhook-payloads';
import { createWebhookSender } from './webhook-sender';
import { newWebhookSecret, signedHeaders } from './webhook-signing';
import { createWebhooksService, WebhookInputError } from './webhooks-service';
import { createWebhooksStore } from './webhooks-store';
import { startReceiver } from './webhooks-test-support';

describe('the SSRF guard, with production on', () => {
  it('takes public addresses and refuses every private, loopback, link-local and reserved one', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      'not-an-address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses a name when any address it resolves to is not public, and names the address', async () => {
    const resolver: Resolver = async (host) =>
      host === 'mixed.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    await expect(resolveWebhookHost('mixed.example', true, resolver)).rejects.toThrow('10.0.0.5');
    await expect(resolveWebhookHost('127.0.0.1', true, resolver)).rejects.toThrow(
      'not a public address',
    );
    await expect(resolveWebhookHost('[::1]', true, resolver)).rejects.toThrow();
    await expect(resolveWebhookHost('public.example', true, resolver)).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    // Outside production a test receiver on this machine is allowed.
    await expect(resolveWebhookHost('127.0.0.1', false, resolver)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
  });

  it('never connects to a private address in production, even one a name resolves to', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const send = createWebhookSender({
        publicOnly: true,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      const byName = await send(`http://hooks.example:${port}/inside`, {}, '{}');
      expect(byName).toMatchObject({ delivered: false, statusCode: null });
      expect(byName.error).toContain('127.0.0.1');
      const byAddress = await send(`${receiver.url}/inside`, {}, '{}');
      expect(byAddress.delivered).toBe(false);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('connects to the address it checked, not to a second answer for the name', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      let asked = 0;
      const send = createWebhookSender({
        publicOnly: false,
        resolve: async () => {
          asked += 1;
          return [{ address: '127.0.0.1', family: 4 }];
        },
      });
      // The name exists nowhere but in the resolver: reaching the receiver proves the connection
      // went to the checked address, and the name was resolved once.
      const outcome = await send(`http://rebind.invalid:${port}/pinned`, {}, '{"a":1}');
      expect(outcome).toMatchObject({ delivered: true, statusCode: 204 });
      expect(asked).toBe(1);
      expect(receiver.received[0]?.headers.host).toBe(`rebind.invalid:${port}`);
    } finally {
      await receiver.close();
    }
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const send = createWebhookSender({ publicOnly: false, timeoutMs: 200 });
      const outcome = await send(`http://127.0.0.1:${port}/`, {}, '{}');
      expect(outcome).toMatchObject({ delivered: false, statusCode: null });
      expect(outcome.error).toContain('No answer');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('WEBHOOK_PRIVATE_NETWORKS, the networks production may reach although not public', () => {
  const campus = new PrivateNetworks(['10.20.0.0/16', 'fd00:1::/64', '192.168.7.9']);
  const resolver: Resolver = async (host) =>
    ({
      'sis.campus.example': [{ address: '10.20.3.4', family: 4 as const }],
      'sis6.campus.example': [{ address: 'fd00:1::5', family: 6 as const }],
      'half.campus.example': [
        { address: '10.20.3.4', family: 4 as const },
        { address: '10.30.0.1', family: 4 as const },
      ],
      'public.example': [{ address: '93.184.216.34', family: 4 as const }],
    })[host] ?? [];

  it('is checked at start, naming the entries that are not CIDRs', () => {
    const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
    expect(
      loadEnv({ ...base, WEBHOOK_PRIVATE_NETWORKS: ' 10.0.0.0/8, fd00::/8 ,192.168.1.2' })
        .WEBHOOK_PRIVATE_NETWORKS,
    ).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.2']);
    expect(loadEnv(base).WEBHOOK_PRIVATE_NETWORKS).toEqual([]);
    expect(() =>
      loadEnv({ ...base, WEBHOOK_PRIVATE_NETWORKS: '10.0.0.0/8,campus,10.0.0.0/33,fd00::/129' }),
    ).toThrow(/WEBHOOK_PRIVATE_NETWORKS.*CIDR.*campus, 10\.0\.0\.0\/33, fd00::\/129/);
  });

  it('holds the addresses of its networks and nothing else, each family on its own', () => {
    for (const address of ['10.20.0.1', '10.20.255.255', 'fd00:1::abcd', '192.168.7.9'])
      expect(campus.has(address), address).toBe(true);
    for (const address of ['10.21.0.1', '192.168.7.10', 'fd00:2::1', '::ffff:10.20.0.1', 'x'])
      expect(campus.has(address), address).toBe(false);
    // An IPv6 rule covering everything does not open the IPv4 networks through their mapped form.
    const everySix = new PrivateNetworks(['::/0']);
    expect(everySix.has('10.0.0.1')).toBe(false);
    expect(everySix.has('127.0.0.1')).toBe(false);
    expect(() => new PrivateNetworks(['10.0.0.0/8/1'])).toThrow('CIDR');
  });

  it('lets production reach a host inside them, over http too, and refuses the rest', async () => {
    const rules = { privateNetworks: campus };
    await expect(
      resolveWebhookHost('sis.campus.example', true, resolver, { ...rules, plainHttp: true }),
    ).resolves.toEqual({ address: '10.20.3.4', family: 4 });
    await expect(
      resolveWebhookHost('sis6.campus.example', true, resolver, rules),
    ).resolves.toMatchObject({ address: 'fd00:1::5' });
    // One answer outside the named networks refuses the name, as for public names.
    await expect(resolveWebhookHost('half.campus.example', true, resolver, rules)).rejects.toThrow(
      '10.30.0.1',
    );
    await expect(resolveWebhookHost('127.0.0.1', true, resolver, rules)).rejects.toThrow(
      'not a public address',
    );
    // A public receiver keeps needing TLS.
    await expect(
      resolveWebhookHost('public.example', true, resolver, { ...rules, plainHttp: true }),
    ).rejects.toThrow('https://');
    await expect(resolveWebhookHost('public.example', true, resolver, rules)).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('delivers over http to a receiver in them, and to none outside', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const inside = createWebhookSender({
        publicOnly: true,
        privateNetworks: new PrivateNetworks(['127.0.0.0/8']),
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      expect(await inside(`http://sis.campus.example:${port}/in`, {}, '{}')).toMatchObject({
        delivered: true,
        statusCode: 204,
      });
      const outside = createWebhookSender({
        publicOnly: true,
        privateNetworks: new PrivateNetworks(['10.20.0.0/16']),
      });
      const refused = await outside(`${receiver.url}/out`, {}, '{}');
      expect(refused).toMatchObject({ delivered: false, statusCode: null });
      expect(refused.error).toContain('127.0.0.1');
      expect(receiver.received.map((entry) => entry.path)).toEqual(['/in']);
    } finally {
      await receiver.close();
    }
  });
});

describe('signatures and payloads', () => {
  it('signs as the Standard Webhooks library verifies, with a whsec_ secret of 32 bytes', () => {
    const secret = newWebhookSecret();
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const body = '{"type":"application.submitted"}';
    const headers = signedHeaders(secret, 'msg_abc', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'application.submitted' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('leaves out of a payload every field the scopes do not allow, and fields not listed', () => {
    const event = {
      type: 'decision.released' as const,
      accountId: 'a1',
      data: { code: 'admit', letter: 'secret letter' },
      occurredAt: new Date('2026-11-01T10:00:00Z'),
    };
    expect(JSON.parse(webhookPayload(event, ['decisions:read']))).toEqual({
      type: 'decision.released',
      timestamp: '2026-11-01T10:00:00.000Z',
      data: { application_id: 'a1', code: 'admit' },
    });
    expect(JSON.parse(webhookPayload(event, ['applications:read'])).data).toEqual({
      application_id: 'a1',
    });
  });
});

describe.each(databaseKinds)('webhook subscriptions in production on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses plain http and an address inside when created', async () => {
    const store = createWebhooksStore(testDatabaseOf(app));
    const service = createWebhooksService({
      store,
      delivery: {} as never,
      audit: { record: async () => undefined },
      production: true,
      resolve: async (host) => [
        { address: host === 'inside.example' ? '192.168.0.10' : '93.184.216.34', family: 4 },
      ],
    });
    const input = {
      events: ['application.submitted'],
      scopes: ['applications:read'],
      apiClientId: null,
      createdBy: 'test',
    };
    const actor = { actor: { type: 'system', label: 'test' } } as const;
    await expect(
      service.create({ ...input, url: 'http://hooks.example/in' }, actor),
    ).rejects.toThrow('https://');
    await expect(
      service.create({ ...input, url: 'https://inside.example/in' }, actor),
    ).rejects.toThrow(WebhookInputError);
    await expect(service.create({ ...input, url: 'https://127.0.0.1/in' }, actor)).rejects.toThrow(
      'not a public address',
    );
    const made = await service.create({ ...input, url: 'https://hooks.example/in' }, actor);
    expect(made.secret).toMatch(/^whsec_/);
  });

  it('takes http and https inside WEBHOOK_PRIVATE_NETWORKS when created, and nothing else inside', async () => {
    const service = createWebhooksService({
      store: createWebhooksStore(testDatabaseOf(app)),
      delivery: {} as never,
      audit: { record: async () => undefined },
      production: true,
      privateNetworks: new PrivateNetworks(['10.20.0.0/16']),
      resolve: async (host) => [
        {
          address:
            { 'sis.campus.example': '10.20.3.4', 'other.campus.example': '10.30.0.1' }[host] ??
            '93.184.216.34',
          family: 4,
        },
      ],
    });
    const input = {
      events: ['application.submitted'],
      scopes: ['applications:read'],
      apiClientId: null,
      createdBy: 'test',
    };
    const actor = { actor: { type: 'system', label: 'test' } } as const;
    for (const url of ['http://sis.campus.example:8080/hooks', 'https://sis.campus.example/hooks'])
      expect((await service.create({ ...input, url }, actor)).secret).toMatch(/^whsec_/);
    await expect(
      service.create({ ...input, url: 'http://other.campus.example/hooks' }, actor),
    ).rejects.toThrow('10.30.0.1');
    await expect(
      service.create({ ...input, url: 'https://other.campus.example/hooks' }, actor),
    ).rejects.toThrow('not a public address');
    await expect(
      service.create({ ...input, url: 'http://hooks.example/in' }, actor),
    ).rejects.toThrow('https://');
    await expect(
      service.create({ ...input, url: 'https://hooks.example/in' }, actor),
    ).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
  });

  it('deletes an application’s events and deliveries with it when retention removes it', async () => {
    const db = testDatabaseOf(app);
    const [id] = (await insertApplications(app, `retained-${kind}`, [
      { status: 'submitted', submittedAt: '2026-11-01T10:00:00Z' },
    ])) as [string];
    const store = createWebhooksStore(db);
    const subscription = await store.insertSubscription({
      url: 'http://127.0.0.1:9/none',
      description: '',
      events: ['application.submitted'],
      scopes: ['applications:read'],
      secret: newWebhookSecret(),
      apiClientId: null,
      createdByLabel: 'test',
    });
    await store.insertDeliveries([
      {
        id: `msg_retained_${kind}`,
        subscriptionId: subscription.id,
        eventSeq: 1,
        eventType: 'application.submitted',
        accountId: id,
        payload: '{}',
      },
    ]);
    expect(
      await db.select().from(integrationEvents).where(eq(integrationEvents.accountId, id)),
    ).not.toHaveLength(0);
    const retention = createRetentionStore(db);
    await retention.transaction((tx) => retention.deleteApplicationRows(id, tx));
    expect(
      await db.select().from(integrationEvents).where(eq(integrationEvents.accountId, id)),
    ).toHaveLength(0);
    expect(
      await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, id)),
    ).toHaveLength(0);
  });
});
