import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { FeedMapping } from '../../shared/integration/feed-mapping';
import { createAuditTrail } from '../audit/audit-trail';
import { insertApplications } from '../test/export-helpers';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createFeedRunner } from './feed-runner';
import { dueTime, FeedsDirError, loadFeedsDir, runDueFeeds } from './feed-schedules';

function feedFile(name: string, folder: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    name,
    schedule: '30 2 * * *',
    timezone: 'America/Los_Angeles',
    select: 'changed',
    filters: { entry_terms: [name.toUpperCase()] },
    file: { name: `${name}-{date}.csv` },
    destination: { type: 'folder', path: folder },
    columns: [{ header: 'ID', source: 'application_id' }],
    ...extra,
  });
}

async function feedsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-feeds-dir-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

describe('the folder of feed mapping files', () => {
  it('reads every mapping, or names each bad file with its problems', async () => {
    const good = await feedsDir({ 'a.json': feedFile('nightly', '/srv/out'), 'notes.txt': 'x' });
    expect((await loadFeedsDir(good, applicationModel)).map((mapping) => mapping.name)).toEqual([
      'nightly',
    ]);
    const bad = await feedsDir({
      'a.json': feedFile('nightly', '/srv/out'),
      'b.json': feedFile('nightly', '/srv/other'),
      'c.json': feedFile('broken', '/srv/out', { schedule: 'every night', colour: 'red' }),
    });
    const error = await loadFeedsDir(bad, applicationModel).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FeedsDirError);
    const message = (error as Error).message;
    expect(message).toContain(`The feed mapping files in FEEDS_DIR ${bad} have problems:`);
    expect(message).toContain('b.json:\n    name: nightly is already the name in a.json');
    expect(message).toMatch(
      /c\.json:\n {4}schedule: is not a cron schedule \(.+\)\n {4}colour is not a known key/,
    );
    expect(message).not.toContain('a.json:');
  });

  it('stops a server from starting with a bad file', async () => {
    const bad = await feedsDir({ 'feed.json': feedFile('nightly', '/srv', { columns: [] }) });
    await expect(buildTestApp('pglite', { env: { FEEDS_DIR: bad } })).rejects.toThrow(
      /FEEDS_DIR .* have problems:\n {2}feed\.json:\n {4}columns: needs at least one column/,
    );
  });
});

describe('when a schedule is due', () => {
  const mapping = { schedule: '30 2 * * *', timezone: 'America/Los_Angeles' } as FeedMapping;

  it('is its latest time, for an hour after it', () => {
    // 02:30 in Los Angeles on 2 March 2027 is 10:30 UTC.
    expect(dueTime(mapping, new Date('2027-03-02T10:30:00Z'))).toEqual(
      new Date('2027-03-02T10:30:00Z'),
    );
    expect(dueTime(mapping, new Date('2027-03-02T11:29:00Z'))).toEqual(
      new Date('2027-03-02T10:30:00Z'),
    );
    expect(dueTime(mapping, new Date('2027-03-02T11:31:00Z'))).toBeNull();
    expect(dueTime(mapping, new Date('2027-03-02T10:29:00Z'))).toBeNull();
    expect(dueTime({ ...mapping, schedule: undefined }, new Date())).toBeNull();
  });
});

describe.each(databaseKinds)('scheduled feeds on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('runs a due time once, whichever of two servers looks first', async () => {
    const db = testDatabaseOf(app);
    const out = await mkdtemp(path.join(tmpdir(), 'portal-feed-out-'));
    const [mapping] = await loadFeedsDir(
      await feedsDir({ 'f.json': feedFile('sched1', out) }),
      applicationModel,
    );
    if (!mapping) throw new Error('no mapping');
    await insertApplications(app, 'SCHED1', [
      { status: 'submitted', submittedAt: '2027-01-15T20:30:00Z' },
    ]);
    const server = () =>
      createFeedRunner({
        db,
        audit: createAuditTrail(db, testAuditKeys),
        destinations: { s3: { S3_FORCE_PATH_STYLE: false }, secret: () => undefined },
      });
    const first = server();
    const second = server();
    const now = new Date('2027-03-02T10:31:00Z');
    await Promise.all([runDueFeeds(first, [mapping], now), runDueFeeds(second, [mapping], now)]);
    await runDueFeeds(first, [mapping], new Date('2027-03-02T10:45:00Z'));
    const runs = await first.store.runs({ feed: 'sched1', limit: 10 });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      mode: 'changed',
      status: 'succeeded',
      rowCount: 1,
      startedBy: 'feed schedule',
      scheduledFor: new Date('2027-03-02T10:30:00Z'),
    });
    expect(await readdir(out)).toHaveLength(1);
  });

  it('runs a due feed of FEEDS_DIR on a server that runs jobs', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'portal-feed-out-'));
    const dir = await feedsDir({
      'every-minute.json': feedFile('minutely', out, { schedule: '* * * * *', timezone: 'UTC' }),
      'by-hand.json': feedFile('by-hand', out, { schedule: undefined }),
    });
    const server = await buildTestApp(kind, { env: { FEEDS_DIR: dir, RUN_JOBS: 'true' } });
    try {
      const runner = createFeedRunner({
        db: testDatabaseOf(server),
        audit: { record: async () => {} },
        destinations: { s3: { S3_FORCE_PATH_STYLE: false }, secret: () => undefined },
      });
      await expect
        .poll(
          async () => (await runner.store.runs({ limit: 10 })).map((run) => [run.feed, run.status]),
          {
            timeout: 15_000,
          },
        )
        .toEqual([['minutely', 'succeeded']]);
      expect(await readdir(out)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
