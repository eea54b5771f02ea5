import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { accounts, applications, auditEvents } from '../db/schema';
import { TEST_AUDIT_CHAIN_KEY } from '../test/test-app';
import { createTestDatabase } from '../test/test-database';
import { FEEDS_USAGE, feedsCommand } from './feeds-command';

describe('npm run feeds', () => {
  let database: DatabaseHandle;
  const dir = mkdtempSync(path.join(tmpdir(), 'feeds-command-'));
  const out = path.join(dir, 'out');
  const feedsDir = path.join(dir, 'feeds');
  const file = (name: string, value: unknown) => {
    const full = path.join(dir, name);
    writeFileSync(full, typeof value === 'string' ? value : JSON.stringify(value));
    return full;
  };
  const feed = {
    name: 'cli-feed',
    schedule: '0 3 * * *',
    select: 'changed',
    file: { name: 'cli-{run}.csv', line_ending: 'LF' },
    destination: { type: 'folder', path: out },
    columns: [
      { header: 'ID', source: 'application_id' },
      { header: 'PROGRAM', source: 'answer:applied_major', map: { '205': 'BS-CPSC' } },
    ],
  };

  async function run(...argv: string[]) {
    const lines = { out: [] as string[], err: [] as string[] };
    const code = await runCommand(feedsCommand, argv, {
      env: loadEnv({
        NODE_ENV: 'test',
        DATA_DIR: dir,
        AUDIT_CHAIN_KEY: TEST_AUDIT_CHAIN_KEY,
        FEEDS_DIR: feedsDir,
      }),
      io: { out: (line) => lines.out.push(line), err: (line) => lines.err.push(line) },
      database,
    });
    return { code, out: lines.out.join('\n'), err: lines.err.join('\n') };
  }

  async function submit(email: string, major: string) {
    const [account] = await database.db.insert(accounts).values({ email }).returning();
    await database.db.insert(applications).values({
      accountId: account?.id as string,
      answers: { applied_major: major },
      submittedAt: new Date('2027-01-15T20:30:00Z'),
    });
    return account?.id as string;
  }

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    await database.close();
  });

  it('checks a mapping file and summarises it', async () => {
    const result = await run('check', file('good.json', feed));
    expect(result.code).toBe(0);
    expect(result.out).toContain('good.json: the feed cli-feed, ready to run.');
    expect(result.out).toContain(`destination: folder ${out}`);
    expect(result.out).toMatch(/schedule: {4}0 3 \* \* \* \(UTC\), next at \d{4}-/);
  });

  it('refuses a mapping file with unknown keys, naming them', async () => {
    const bad = file('bad.json', {
      ...feed,
      columns: [...feed.columns, { header: 'X', source: 'email', fromat: 'upper' }],
    });
    expect(await run('check', bad)).toEqual({
      code: 1,
      out: '',
      err: 'bad.json cannot be used:\n  columns[2].fromat is not a known key',
    });
  });

  it('says how to use it when the arguments are wrong', async () => {
    expect(await run('launch')).toMatchObject({
      code: 2,
      err: `Say what to do: check, run, runs, rerun.\n${FEEDS_USAGE}`,
    });
    expect((await run('run', 'a.json', '--all', '--changed')).code).toBe(2);
    expect((await run('rerun', 'yesterday')).code).toBe(2);
    expect((await run('check')).err).toContain('Name exactly one feed mapping file');
  });

  it('dry-runs, runs, lists the runs and re-runs one, audited as the command line', async () => {
    const mapping = file('feed.json', feed);
    const first = await submit('cli-a@example.edu', '205');
    const second = await submit('cli-b@example.edu', '209');

    const dry = await run('run', mapping, '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.out).toContain('Dry run of cli-feed: 2 rows would be written; nothing was.');
    expect(dry.out).toContain(
      `refused: column 2 (PROGRAM): "209" not in the map, 1 application (e.g. ${second})`,
    );
    expect(dry.err).toBe('A real run would refuse: 1 value cannot go into the file (above).');

    const refused = await run('run', mapping);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Run \S+ of cli-feed failed: Nothing was written/);

    const fixed = file('fixed.json', {
      ...feed,
      columns: [feed.columns[0], { ...feed.columns[1], unmapped: 'keep' }],
    });
    const done = await run('run', fixed, '--all');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(
      /^Run (\S+) of cli-feed: 2 rows written to cli-\1\.csv \(folder .*\)\.$/,
    );
    const runId = /^Run (\S+)/.exec(done.out)?.[1] as string;

    const runs = await run('runs', '--feed', 'cli-feed');
    expect(runs.code).toBe(0);
    const table = runs.out.split('\n');
    expect(table[0]).toMatch(/^started \(UTC\) +feed +mode +status +rows +destination +file +run$/);
    expect(table).toHaveLength(4);
    expect(table[1]).toMatch(
      new RegExp(`cli-feed +all +succeeded +2 +folder .* cli-${runId}\\.csv +${runId}$`),
    );
    expect(table[2]).toMatch(/cli-feed +changed +failed +- .*error: Nothing was written/);
    expect(table[3]).toMatch(/cli-feed +dry_run +succeeded +2 +- +- /);

    const again = await run('rerun', runId, fixed);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/of cli-feed: 2 rows written/);
    expect(readdirSync(out)).toHaveLength(2);
    expect(first).toBeDefined();

    const missing = await run('rerun', '00000000-0000-4000-8000-000000000000', fixed);
    expect(missing).toMatchObject({
      code: 1,
      err: 'There is no feed run 00000000-0000-4000-8000-000000000000.',
    });

    const audited = await database.db.select().from(auditEvents);
    const feedRuns = audited.filter((entry) => entry.action === 'feed.run');
    expect(feedRuns).toHaveLength(4);
    expect(feedRuns.every((entry) => entry.actorLabel === 'command line')).toBe(true);
  });
});
