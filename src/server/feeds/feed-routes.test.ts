import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedRunResponse, FeedsOverview } from '../../shared/integration/feeds-api';
import { auditEvents } from '../db/schema';
import { insertApplications } from '../test/export-helpers';
import { signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const TERM = 'ROUTES1';

/** A feed of this file's own term, with a program map that leaves one value through as it is. */
function feedFile(folder: string) {
  return JSON.stringify({
    name: 'console-feed',
    description: 'Admitted transfers for the SIS',
    // Only on the first of January: never due while the tests run, but it has a next time.
    schedule: '0 0 1 1 *',
    timezone: 'UTC',
    select: 'changed',
    filters: { entry_terms: [TERM] },
    file: { name: 'console-{run}.csv' },
    destination: { type: 'folder', path: folder },
    columns: [
      { header: 'ID', source: 'application_id' },
      {
        header: 'PROGRAM',
        source: 'answer:applied_major',
        map: { '205': 'BS-CPSC' },
        unmapped: 'keep',
      },
    ],
  });
}

describe.each(databaseKinds)('the feeds in the console on %s', (kind) => {
  let app: FastifyInstance;
  let out: string;
  let ids: string[];

  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'portal-feed-routes-out-'));
    const dir = await mkdtemp(path.join(tmpdir(), 'portal-feed-routes-'));
    await writeFile(path.join(dir, 'console.json'), feedFile(out));
    app = await buildTestApp(kind, { env: { FEEDS_DIR: dir } });
    ids = await insertApplications(app, TERM, [
      {
        status: 'submitted',
        submittedAt: '2027-01-15T20:30:00Z',
        answers: { applied_major: '205' },
      },
      {
        status: 'submitted',
        submittedAt: '2027-01-16T20:30:00Z',
        answers: { applied_major: '999' },
      },
    ]);
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it('lists the configured feeds without secrets, dry-runs, runs and re-runs as the member', async () => {
    const admin = await signedInStaff(app, { role: 'admin' });
    const listed = await call(admin.cookie, 'GET', '/staff/api/feeds');
    expect(listed.statusCode, listed.body).toBe(200);
    const overview = listed.json<FeedsOverview>();
    expect(overview.feeds).toEqual([
      {
        name: 'console-feed',
        description: 'Admitted transfers for the SIS',
        schedule: '0 0 1 1 *',
        timezone: 'UTC',
        nextRunAt: expect.stringMatching(/^\d{4}-01-01T00:00:00\.000Z$/),
        select: 'changed',
        destinationText: `folder ${out}`,
        columnCount: 2,
      },
    ]);

    const dry = await call(admin.cookie, 'POST', '/staff/api/feeds/console-feed/dry-run');
    expect(dry.statusCode, dry.body).toBe(200);
    const dryRun = dry.json<FeedRunResponse>();
    expect(dryRun.run).toMatchObject({ mode: 'dry_run', status: 'succeeded', rowCount: 2 });
    expect(dryRun.problems).toEqual([
      {
        column: 1,
        header: 'PROGRAM',
        kind: 'unmapped',
        value: '999',
        count: 1,
        applicationIds: [ids[1]],
        blocking: false,
      },
    ]);
    expect(await readdir(out)).toEqual([]);

    const ran = await call(admin.cookie, 'POST', '/staff/api/feeds/console-feed/run', {
      select: 'all',
    });
    expect(ran.statusCode, ran.body).toBe(200);
    const run = ran.json<FeedRunResponse>().run;
    expect(run).toMatchObject({
      feed: 'console-feed',
      mode: 'all',
      status: 'succeeded',
      rowCount: 2,
      destination: `folder ${out}`,
      fileName: `console-${run.id}.csv`,
      startedBy: admin.email,
    });

    const again = await call(admin.cookie, 'POST', `/staff/api/feeds/runs/${run.id}/rerun`);
    expect(again.statusCode, again.body).toBe(200);
    const rerun = again.json<FeedRunResponse>().run;
    expect(rerun).toMatchObject({ mode: 'all', rowCount: 2, rerunOf: run.id });
    expect((await readdir(out)).sort()).toEqual(
      [`console-${run.id}.csv`, `console-${rerun.id}.csv`].sort(),
    );

    const runs = (await call(admin.cookie, 'GET', '/staff/api/feeds')).json<FeedsOverview>().runs;
    expect(runs.slice(0, 3).map((row) => row.id)).toEqual([rerun.id, run.id, dryRun.run.id]);

    const audited = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'feed.run'), eq(auditEvents.actorId, admin.staffId)));
    expect(audited).toHaveLength(3);
    expect(audited.every((row) => row.ip === '127.0.0.1')).toBe(true);
  });

  it('answers 404 for an unknown feed or run and 400 for a bad body', async () => {
    const admin = await signedInStaff(app, { role: 'admin' });
    for (const url of [
      '/staff/api/feeds/no-such-feed/dry-run',
      '/staff/api/feeds/no-such-feed/run',
      '/staff/api/feeds/runs/00000000-0000-4000-8000-000000000000/rerun',
    ])
      expect((await call(admin.cookie, 'POST', url, {})).statusCode, url).toBe(404);
    for (const body of [{ select: 'some' }, { select: 'all', extra: true }, { mode: 'all' }, []])
      expect(
        (await call(admin.cookie, 'POST', '/staff/api/feeds/console-feed/run', body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    expect(
      (await call(admin.cookie, 'POST', '/staff/api/feeds/runs/not-a-uuid/rerun')).statusCode,
    ).toBe(400);
    const dry = (
      await call(admin.cookie, 'POST', '/staff/api/feeds/console-feed/dry-run')
    ).json<FeedRunResponse>();
    const refused = await call(admin.cookie, 'POST', `/staff/api/feeds/runs/${dry.run.id}/rerun`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/dry run wrote nothing/);
  });

  it('lets a stale session read but not act, and refuses readers and evaluators', async () => {
    const stale = await signedInStaff(app, { role: 'admin', fresh2fa: false });
    expect((await call(stale.cookie, 'GET', '/staff/api/feeds')).statusCode).toBe(200);
    for (const url of [
      '/staff/api/feeds/console-feed/dry-run',
      '/staff/api/feeds/console-feed/run',
    ]) {
      const response = await call(stale.cookie, 'POST', url, {});
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toMatchObject({ code: 'step_up_required' });
    }
    for (const role of ['reader', 'evaluator'] as const) {
      const member = await signedInStaff(app, { role });
      for (const [method, url] of [
        ['GET', '/staff/api/feeds'],
        ['POST', '/staff/api/feeds/console-feed/dry-run'],
        ['POST', '/staff/api/feeds/console-feed/run'],
        ['POST', '/staff/api/feeds/runs/00000000-0000-4000-8000-000000000000/rerun'],
      ] as const) {
        const response = await call(member.cookie, method, url, method === 'POST' ? {} : undefined);
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
  });
});
