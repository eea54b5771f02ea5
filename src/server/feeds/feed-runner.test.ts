import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import { type FeedMapping, parseFeedMapping } from '../../shared/integration/feed-mapping';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { projectRoot } from '../config/project-root';
import type { AppDatabase } from '../db/database';
import {
  accounts,
  applicationReceipts,
  applicationSisIds,
  applications,
  auditEvents,
  courseworkTotals,
  decisions,
} from '../db/schema';
import { insertApplications } from '../test/export-helpers';
import { type SftpTestServer, startSftpTestServer } from '../test/sftp-test-server';
import { buildTestApp, testAuditKeys, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import type { DestinationContext } from './feed-destinations';
import { createFeedRunner } from './feed-runner';

const noS3: DestinationContext['s3'] = { S3_FORCE_PATH_STYLE: false };

function mappingOf(value: Record<string, unknown>): FeedMapping {
  const result = parseFeedMapping(JSON.stringify(value), applicationModel);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.mapping;
}

/** A feed of one term's applications (each test's own), written into `folder`. */
function folderFeed(term: string, folder: string, extra: Record<string, unknown> = {}) {
  return mappingOf({
    name: `feed-${term.toLowerCase()}`,
    select: 'changed',
    filters: { entry_terms: [term] },
    file: { name: 'out-{run}.txt', delimiter: 'pipe', line_ending: 'LF', header: true },
    destination: { type: 'folder', path: folder },
    columns: [
      { header: 'ID', source: 'application_id' },
      { header: 'LAST', source: 'answer:last_name', format: 'upper' },
      {
        header: 'PROGRAM',
        source: 'answer:applied_major',
        map: { '205': 'BS-CPSC', '201': 'BS-ACCT' },
      },
    ],
    ...extra,
  });
}

const submitted = (answers: Record<string, string>, submittedAt = '2027-01-15T20:30:00Z') => ({
  status: 'submitted' as const,
  submittedAt,
  answers,
});

async function giveSisId(db: AppDatabase, accountId: string, sisId: string) {
  await db
    .insert(applicationSisIds)
    .values({ accountId, sisId, setByLabel: 'test' })
    .onConflictDoUpdate({ target: applicationSisIds.accountId, set: { sisId } });
}

describe.each(databaseKinds)('feed runs on %s', (kind) => {
  let app: FastifyInstance;
  let db: AppDatabase;
  let runner: ReturnType<typeof createFeedRunner>;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = testDatabaseOf(app);
    secrets = {};
    runner = createFeedRunner({
      db,
      audit: createAuditTrail(db, testAuditKeys),
      destinations: { s3: noS3, secret: (name) => secrets[name] },
      now: () => new Date('2027-03-02T10:00:00Z'),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  const folder = () => mkdtemp(path.join(tmpdir(), 'portal-feed-'));
  const lines = async (dir: string, fileName: string | null) =>
    (await readFile(path.join(dir, fileName ?? 'missing'), 'utf8')).split('\n').filter(Boolean);

  it('writes every submitted application of the feed into the folder, and logs and audits the run', async () => {
    const dir = await folder();
    const [a, b] = await insertApplications(app, 'FOLDER1', [
      submitted({ last_name: 'Lovelace', applied_major: '205' }),
      submitted({ last_name: 'Hopper', applied_major: '201' }, '2027-01-16T08:00:00Z'),
      { answers: { last_name: 'Unsent' } },
    ]);
    const { run, problems } = await runner.run({
      mapping: folderFeed('FOLDER1', dir),
      select: 'all',
      actor: COMMAND_LINE_ACTOR,
    });
    expect(problems).toEqual([]);
    expect(run).toMatchObject({
      mode: 'all',
      status: 'succeeded',
      rowCount: 2,
      fromSeq: null,
      destination: `folder ${dir}`,
      fileName: `out-${run.id}.txt`,
      startedBy: 'command line',
    });
    expect(await lines(dir, run.fileName)).toEqual([
      'ID|LAST|PROGRAM',
      `${a}|LOVELACE|BS-CPSC`,
      `${b}|HOPPER|BS-ACCT`,
    ]);
    // Only the file: the partial one was renamed into it.
    expect(await readdir(dir)).toEqual([run.fileName]);
    const audited = await db.select().from(auditEvents);
    expect(audited.find((entry) => entry.action === 'feed.run')?.detail).toMatchObject({
      feed: 'feed-folder1',
      run_id: run.id,
      status: 'succeeded',
      rows: 2,
    });
  });

  it('sends only what changed since the previous run, none repeated or skipped', async () => {
    const dir = await folder();
    const feed = folderFeed('CHANGED1', dir);
    const [a, b] = await insertApplications(app, 'CHANGED1', [
      submitted({ last_name: 'Ada', applied_major: '205' }),
      submitted({ last_name: 'Bea', applied_major: '201' }),
    ]);
    const first = await runner.run({ mapping: feed, select: 'changed', actor: COMMAND_LINE_ACTOR });
    expect(first.run).toMatchObject({ status: 'succeeded', rowCount: 2, fromSeq: 0 });

    await giveSisId(db, a as string, 'A00000001');
    const [c] = await insertApplications(app, 'CHANGED1-LATER', [
      submitted({ entry_term: 'CHANGED1', last_name: 'Cy', applied_major: '205' }),
    ]);
    const second = await runner.run({
      mapping: feed,
      select: 'changed',
      actor: COMMAND_LINE_ACTOR,
    });
    expect(second.run).toMatchObject({
      status: 'succeeded',
      rowCount: 2,
      fromSeq: first.run.toSeq,
    });
    expect((await lines(dir, second.run.fileName)).slice(1)).toEqual([
      `${a}|ADA|BS-CPSC`,
      `${c}|CY|BS-CPSC`,
    ]);
    expect(b).toBeDefined();

    const third = await runner.run({ mapping: feed, select: 'changed', actor: COMMAND_LINE_ACTOR });
    expect(third.run).toMatchObject({
      status: 'succeeded',
      rowCount: 0,
      fromSeq: second.run.toSeq,
    });
    expect(await lines(dir, third.run.fileName)).toEqual(['ID|LAST|PROGRAM']);
  });

  it.skipIf(kind === 'pglite')(
    'passes over no change that commits late, even one written before a change already committed',
    async () => {
      const dir = await folder();
      const feed = folderFeed('LATE1', dir);
      const signal = () => {
        let resolve = () => {};
        const promise = new Promise<void>((done) => {
          resolve = done;
        });
        return { promise, resolve };
      };
      const aStarted = signal();
      const bWrote = signal();
      const releaseB = signal();
      let lateId = '';
      let earlyId = '';
      // A takes its transaction id first and writes its change last; B writes first and commits last.
      const a = db.transaction(async (tx) => {
        const [account] = await tx
          .insert(accounts)
          .values({ email: 'late1-a@example.edu' })
          .returning();
        earlyId = account?.id as string;
        aStarted.resolve();
        await bWrote.promise;
        await tx.insert(applications).values({
          accountId: earlyId,
          answers: { entry_term: 'LATE1', last_name: 'Ada', applied_major: '205' },
          submittedAt: new Date('2027-01-15T20:30:00Z'),
        });
      });
      const b = (async () => {
        await aStarted.promise;
        await db.transaction(async (tx) => {
          const [account] = await tx
            .insert(accounts)
            .values({ email: 'late1-b@example.edu' })
            .returning();
          lateId = account?.id as string;
          await tx.insert(applications).values({
            accountId: lateId,
            answers: { entry_term: 'LATE1', last_name: 'Bea', applied_major: '201' },
            submittedAt: new Date('2027-01-15T20:30:00Z'),
          });
          bWrote.resolve();
          await releaseB.promise;
        });
      })();
      await a;
      // B is still running: its change, written before A's, is not in this run...
      const first = await runner.run({
        mapping: feed,
        select: 'changed',
        actor: COMMAND_LINE_ACTOR,
      });
      expect(first.run).toMatchObject({ status: 'succeeded', rowCount: 1 });
      expect((await lines(dir, first.run.fileName)).slice(1)).toEqual([`${earlyId}|ADA|BS-CPSC`]);
      releaseB.resolve();
      await b;
      // ...but in the next one, although the first run's range already passed its position.
      const second = await runner.run({
        mapping: feed,
        select: 'changed',
        actor: COMMAND_LINE_ACTOR,
      });
      expect(second.run).toMatchObject({ status: 'succeeded', rowCount: 1 });
      expect((await lines(dir, second.run.fileName)).slice(1)).toEqual([`${lateId}|BEA|BS-ACCT`]);
      const third = await runner.run({
        mapping: feed,
        select: 'changed',
        actor: COMMAND_LINE_ACTOR,
      });
      expect(third.run.rowCount).toBe(0);
      // A re-run of the first reads its range again: still without B's change.
      const again = await runner.run({
        mapping: feed,
        select: 'changed',
        rerunOf: first.run,
        actor: COMMAND_LINE_ACTOR,
      });
      expect(again.run.rowCount).toBe(1);
    },
  );

  it('lists unmapped values in a dry run and writes nothing; a real run then refuses, naming them', async () => {
    const dir = await folder();
    const feed = folderFeed('DRY1', dir);
    const [a, b] = await insertApplications(app, 'DRY1', [
      submitted({ last_name: 'Ada', applied_major: '209' }),
      submitted({ last_name: 'Bea', applied_major: '209' }),
      submitted({ last_name: 'Cy', applied_major: '205' }),
    ]);
    const dry = await runner.run({
      mapping: feed,
      select: 'changed',
      dryRun: true,
      actor: COMMAND_LINE_ACTOR,
    });
    expect(dry.run).toMatchObject({
      mode: 'dry_run',
      status: 'succeeded',
      rowCount: 3,
      fileName: null,
      destination: null,
    });
    expect(dry.problems).toEqual([
      {
        column: 2,
        header: 'PROGRAM',
        kind: 'unmapped',
        value: '209',
        count: 2,
        applicationIds: [a, b],
        blocking: true,
      },
    ]);
    expect(await readdir(dir)).toEqual([]);

    const real = await runner.run({ mapping: feed, select: 'changed', actor: COMMAND_LINE_ACTOR });
    expect(real.run).toMatchObject({
      mode: 'changed',
      status: 'failed',
      rowCount: null,
      fileName: null,
    });
    expect(real.run.error).toContain('column 3 (PROGRAM): "209" not in the map, 2 applications');
    expect(await readdir(dir)).toEqual([]);

    // A dry run and a failed run leave the next changed run where it was.
    const fixed = folderFeed('DRY1', dir, {
      columns: [{ header: 'ID', source: 'application_id' }],
    });
    const after = await runner.run({
      mapping: fixed,
      select: 'changed',
      actor: COMMAND_LINE_ACTOR,
    });
    expect(after.run).toMatchObject({ status: 'succeeded', rowCount: 3, fromSeq: 0 });
  });

  it('re-runs a run over the same range, writing the same rows again', async () => {
    const dir = await folder();
    const feed = folderFeed('RERUN1', dir);
    await insertApplications(app, 'RERUN1', [
      submitted({ last_name: 'Ada', applied_major: '205' }),
      submitted({ last_name: 'Bea', applied_major: '201' }),
    ]);
    const first = await runner.run({ mapping: feed, select: 'changed', actor: COMMAND_LINE_ACTOR });
    // Changes after the run belong to the next one, not to the re-run.
    await insertApplications(app, 'RERUN1-LATER', [
      submitted({ entry_term: 'RERUN1', last_name: 'Late', applied_major: '205' }),
    ]);
    const again = await runner.run({
      mapping: feed,
      select: 'all',
      rerunOf: first.run,
      actor: COMMAND_LINE_ACTOR,
    });
    expect(again.run).toMatchObject({
      mode: 'changed',
      status: 'succeeded',
      rerunOf: first.run.id,
      fromSeq: first.run.fromSeq,
      toSeq: first.run.toSeq,
      rowCount: 2,
    });
    expect(again.run.fileName).not.toBe(first.run.fileName);
    expect(await lines(dir, again.run.fileName)).toEqual(await lines(dir, first.run.fileName));
    await expect(
      runner.run({
        mapping: feed,
        select: 'all',
        rerunOf: { ...first.run, mode: 'dry_run' },
        actor: COMMAND_LINE_ACTOR,
      }),
    ).rejects.toThrow('A dry run wrote nothing to repeat');
  });

  it('writes the shipped SIS mapping row for a seeded admit', async () => {
    const text = await readFile(
      path.join(projectRoot, 'docs/examples/feed-sis-admissions.json'),
      'utf8',
    );
    const parsed = parseFeedMapping(text, applicationModel);
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const dir = await folder();
    const mapping: FeedMapping = {
      ...parsed.mapping,
      name: 'example-sis',
      destination: { type: 'folder', path: dir },
    };
    const [admit, denied] = await insertApplications(app, 'FA2027', [
      submitted({
        first_name: 'Ada',
        middle_name: 'King',
        last_name: 'Lovelace',
        birth_date: '2001-02-03',
        address_line_1: '12 Analytical Way',
        address_line_2: 'Apt 3',
        city: 'Sacramento',
        state: 'CA',
        zip: '95814-1234',
        country: 'USA',
        applied_major: '205',
      }),
      submitted({ last_name: 'Denied', applied_major: '201' }),
    ]);
    const id = admit as string;
    await db.insert(applicationReceipts).values({
      accountId: id,
      number: 'TR-2027-000123',
      cycle: '2027',
      sequence: 123,
      submittedAt: new Date('2027-01-15T20:30:00Z'),
      fingerprint: 'test',
    });
    await db
      .insert(courseworkTotals)
      .values({ accountId: id, transferGpa: '3.4', transferUnits: '62.5', inProgressUnits: '0' });
    await giveSisId(db, id, 'A00012345');
    await db.insert(decisions).values([
      {
        accountId: id,
        code: 'admit',
        recordedByLabel: 'test',
        releasedAt: new Date('2027-03-01T17:00:00Z'),
      },
      {
        accountId: denied as string,
        code: 'deny',
        recordedByLabel: 'test',
        releasedAt: new Date('2027-03-01T17:00:00Z'),
      },
    ]);
    const { run, problems } = await runner.run({
      mapping,
      select: 'changed',
      actor: COMMAND_LINE_ACTOR,
    });
    expect(problems).toEqual([]);
    expect(run).toMatchObject({ status: 'succeeded', rowCount: 1 });
    expect(run.fileName).toBe('TRANSFER_ADMITS_20270302_020000.txt');
    const file = await readFile(path.join(dir, run.fileName ?? ''), 'utf8');
    expect(file).toBe(
      `${[
        'A00012345',
        'Lovelace',
        'Ada',
        'King',
        '20010203',
        'FA2027-0@example.edu',
        '12 Analytical Way',
        'Apt 3',
        'Sacramento',
        'CA',
        '958141234',
        'US',
        '202710',
        'BS-CPSC',
        'T',
        'AD',
        '20270301',
        '3.40',
        '62.5',
        'TR-2027-000123',
        id,
      ].join('|')}\n`,
    );
  });

  describe('to S3', () => {
    let server: S3rver;
    let endpoint: string;
    beforeAll(async () => {
      server = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: await mkdtemp(path.join(tmpdir(), 'portal-feed-s3-')),
        configureBuckets: [{ name: 'portal-feeds' }],
      });
      const { port } = await server.run();
      endpoint = `http://127.0.0.1:${port}`;
    });
    afterAll(async () => {
      await server.close();
    });

    it('puts the file under the prefix in the deployment bucket', async () => {
      const settings = {
        S3_BUCKET: 'portal-feeds',
        S3_REGION: 'us-east-1',
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: true,
      };
      const s3Runner = createFeedRunner({
        db,
        audit: createAuditTrail(db, testAuditKeys),
        destinations: { s3: settings, secret: () => undefined },
      });
      const [a] = await insertApplications(app, 'S3ONE', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const mapping = folderFeed('S3ONE', '/unused', {
        destination: { type: 's3', prefix: 'feeds/sis' },
      });
      const { run } = await s3Runner.run({ mapping, select: 'all', actor: COMMAND_LINE_ACTOR });
      expect(run).toMatchObject({ status: 'succeeded', rowCount: 1, destination: 's3 feeds/sis' });
      const client = new S3Client({
        region: settings.S3_REGION,
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const object = await client.send(
        new GetObjectCommand({ Bucket: 'portal-feeds', Key: `feeds/sis/${run.fileName}` }),
      );
      expect(await object.Body?.transformToString()).toBe(`ID|LAST|PROGRAM\n${a}|ADA|BS-CPSC\n`);
      client.destroy();
    });

    it('fails the run clearly when the deployment has no bucket', async () => {
      await insertApplications(app, 'S3NONE', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const mapping = folderFeed('S3NONE', '/unused', { destination: { type: 's3', prefix: '' } });
      const { run } = await runner.run({ mapping, select: 'all', actor: COMMAND_LINE_ACTOR });
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/set S3_BUCKET/);
    });
  });

  describe('to SFTP', () => {
    let server: SftpTestServer;
    beforeAll(async () => {
      server = await startSftpTestServer();
      await mkdir(path.join(server.root, 'incoming'));
    });
    afterAll(async () => {
      await server.close();
    });
    afterEach(() => {
      secrets = {};
    });

    const sftpFeed = (term: string, overrides: Record<string, unknown> = {}) =>
      folderFeed(term, '/unused', {
        file: { name: 'admits-{date}.txt', delimiter: 'pipe', line_ending: 'LF' },
        destination: {
          type: 'sftp',
          host: '127.0.0.1',
          port: server.port,
          username: server.username,
          password_env: 'FEED_TEST_SFTP_PASSWORD',
          path: '/incoming',
          host_key_sha256: server.hostKeySha256,
          ...overrides,
        },
      });

    it('uploads to a real SFTP server, replacing a file of the same name on a re-run', async () => {
      secrets.FEED_TEST_SFTP_PASSWORD = server.password;
      const [a] = await insertApplications(app, 'SFTP1', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const mapping = sftpFeed('SFTP1');
      const { run } = await runner.run({ mapping, select: 'changed', actor: COMMAND_LINE_ACTOR });
      expect(run).toMatchObject({
        status: 'succeeded',
        rowCount: 1,
        fileName: 'admits-20270302.txt',
        destination: `sftp ${server.username}@127.0.0.1:${server.port}/incoming`,
      });
      const written = path.join(server.root, 'incoming', 'admits-20270302.txt');
      expect(await readFile(written, 'utf8')).toBe(`ID|LAST|PROGRAM\n${a}|ADA|BS-CPSC\n`);
      const again = await runner.run({
        mapping,
        select: 'changed',
        rerunOf: run,
        actor: COMMAND_LINE_ACTOR,
      });
      expect(again.run).toMatchObject({ status: 'succeeded', rowCount: 1, rerunOf: run.id });
      expect(await readFile(written, 'utf8')).toBe(`ID|LAST|PROGRAM\n${a}|ADA|BS-CPSC\n`);
      expect(await readdir(path.join(server.root, 'incoming'))).toEqual(['admits-20270302.txt']);
    });

    it('refuses a server whose host key is not the pinned one', async () => {
      secrets.FEED_TEST_SFTP_PASSWORD = server.password;
      await insertApplications(app, 'SFTP2', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const mapping = sftpFeed('SFTP2', { host_key_sha256: `SHA256:${'Q'.repeat(43)}` });
      const { run } = await runner.run({ mapping, select: 'changed', actor: COMMAND_LINE_ACTOR });
      expect(run.status).toBe('failed');
      expect(run.error).toContain(`offered the host key ${server.hostKeySha256}, not the pinned`);
    });

    it('fails the run naming the server when nothing answers there', async () => {
      secrets.FEED_TEST_SFTP_PASSWORD = server.password;
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await insertApplications(app, 'SFTP4', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const { run } = await runner.run({
        mapping: sftpFeed('SFTP4', { port }),
        select: 'changed',
        actor: COMMAND_LINE_ACTOR,
      });
      expect(run.status).toBe('failed');
      expect(run.error).toBe(
        `Cannot connect to the SFTP server at 127.0.0.1:${port}: ECONNREFUSED.`,
      );
    });

    it('fails the run with a clear message on a wrong password or none set', async () => {
      secrets.FEED_TEST_SFTP_PASSWORD = 'wrong password';
      await insertApplications(app, 'SFTP3', [
        submitted({ last_name: 'Ada', applied_major: '205' }),
      ]);
      const mapping = sftpFeed('SFTP3');
      const wrong = await runner.run({ mapping, select: 'changed', actor: COMMAND_LINE_ACTOR });
      expect(wrong.run.status).toBe('failed');
      expect(wrong.run.error).toBe(
        `The SFTP server at 127.0.0.1:${server.port} refused the password of ${server.username}.`,
      );
      secrets = {};
      const unset = await runner.run({ mapping, select: 'changed', actor: COMMAND_LINE_ACTOR });
      expect(unset.run.error).toBe(
        'The SFTP password is read from FEED_TEST_SFTP_PASSWORD, which is not set.',
      );
    });
  });
});
