import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryTermOptions } from '../../shared/application/option-lists';
import type { CommandIo } from '../cli/command-support';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import { lockDataDir } from '../db/data-dir-lock';
import {
  accounts,
  applicationPdfs,
  applications,
  collegeTranscripts,
  documentAnswers,
  documentUploads,
  passwordResets,
  serviceTokens,
  sessions,
  temporaryAnswerSets,
  validationReports,
  webStatuses,
} from '../db/schema';
import { createJobQueue } from '../jobs/create-job-queue';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey, type StorageDriver } from '../storage/storage';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { deleteApplicationData, termStart } from './retention';
import { retentionCommand } from './retention-command';
import { msUntilNextRun, RETENTION_JOB, scheduleRetention } from './retention-job';

const DAY_MS = 86_400_000;
const YEAR = new Date().getUTCFullYear();
/** A term whose cycle closed long ago, and one that has not started. */
const CLOSED_TERM = `FA${YEAR - 2}`;
const OPEN_TERM = `FA${YEAR + 1}`;
const dayText = (date: Date) => date.toISOString().slice(0, 10);
/** The day the tests delete before: 30 days ago. */
const BEFORE = dayText(new Date(Date.now() - 30 * DAY_MS));
const BYTES = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF\n'));

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const TABLES = {
  accounts,
  applications,
  documentAnswers,
  documentUploads,
  applicationPdfs,
  collegeTranscripts,
  validationReports,
  webStatuses,
  serviceTokens,
  temporaryAnswerSets,
  sessions,
  passwordResets,
};

interface Seeded {
  accountId: string;
  answers: Record<string, string>;
  /** Every stored object of the application. */
  keys: string[];
}

/** One test's own database and upload folder. */
async function workspace(kind: (typeof databaseKinds)[number]) {
  const database = await createTestDatabase(kind);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-retention-'));
  const storage = localDiskStorage({ root: path.join(dataDir, 'uploads') });
  const db = database.db;
  let counter = 0;

  /**
   * An account with an application changed `daysAgo`, holding a document (upload and PDF), an
   * issued upload key, an application PDF, two validation reports, two web statuses and a staff
   * link, each with its stored object.
   */
  async function application(options: {
    term: string;
    submitted: boolean;
    daysAgo: number;
  }): Promise<Seeded> {
    const email = `retention${++counter}@example.edu`;
    const [account] = await db
      .insert(accounts)
      .values({ email, confirmedAt: sql`now()` })
      .returning({ id: accounts.id });
    const accountId = account?.id as string;
    const changed = sql`now() - make_interval(days => ${options.daysAgo})`;
    const answers = { first_name: `Applicant ${counter}`, entry_term: options.term };
    await db.insert(applications).values({
      accountId,
      answers,
      submittedAt: options.submitted ? changed : null,
      updatedAt: changed,
    });
    const [fileKey, pdfKey, uploadKey, applicationPdfKey, transcriptKey] = [1, 2, 3, 4, 5].map(() =>
      newObjectKey(accountId),
    ) as [string, string, string, string, string];
    for (const key of [fileKey, pdfKey, uploadKey, applicationPdfKey, transcriptKey])
      await storage.put(key, BYTES);
    await db.insert(documentAnswers).values({
      accountId,
      answerKey: 'hs_transcript',
      fileKey,
      fileName: 'transcript.pdf',
      fileSize: BYTES.length,
      status: 'COMPLETED',
      pdfKey,
    });
    await db
      .insert(documentUploads)
      .values({ fileKey: uploadKey, accountId, answerKey: 'hs_transcript', expiresAt: changed });
    await db
      .insert(applicationPdfs)
      .values({ accountId, status: 'COMPLETED', pdfKey: applicationPdfKey });
    // A college's official transcript, attached by an evaluator: a file of the applicant's too.
    await db.insert(collegeTranscripts).values({
      accountId,
      gridKey: 'college_coursework',
      storageKey: transcriptKey,
      fileName: 'official.pdf',
      byteSize: BYTES.length,
      attachedByLabel: 'Evaluator',
    });
    await db.insert(validationReports).values([
      { accountId, errors: { first_name: ['x'] } },
      { accountId, errors: {} },
    ]);
    await db.insert(webStatuses).values([
      { accountId, webStatus: 'started' },
      { accountId, webStatus: 'validating' },
    ]);
    await db.insert(serviceTokens).values({
      tokenHash: `token-${accountId}`,
      accountId,
      expiresAt: sql`now() + interval '1 day'`,
    });
    return {
      accountId,
      answers,
      keys: [fileKey, pdfKey, uploadKey, applicationPdfKey, transcriptKey],
    };
  }

  /** Expired and live answer sets, sessions and reset links of the account. */
  async function records(accountId: string) {
    const long = sql`now() - interval '40 days'`;
    const live = sql`now() + interval '1 day'`;
    await db.insert(temporaryAnswerSets).values([
      { tokenHash: `set-old-${accountId}`, answers: {}, expiresAt: long },
      { tokenHash: `set-live-${accountId}`, answers: {}, expiresAt: live },
    ]);
    await db.insert(sessions).values([
      { tokenHash: `session-old-${accountId}`, accountId, expiresAt: long },
      { tokenHash: `session-live-${accountId}`, accountId, expiresAt: live },
    ]);
    await db.insert(passwordResets).values([
      { tokenHash: `reset-old-${accountId}`, accountId, expiresAt: long },
      { tokenHash: `reset-live-${accountId}`, accountId, expiresAt: live },
    ]);
  }

  /** The five kinds of application the rules tell apart, and expired records beside them. */
  async function seedAll() {
    const seeded = {
      oldDraft: await application({ term: OPEN_TERM, submitted: false, daysAgo: 60 }),
      newDraft: await application({ term: OPEN_TERM, submitted: false, daysAgo: 0 }),
      closedSubmitted: await application({ term: CLOSED_TERM, submitted: true, daysAgo: 400 }),
      closedDraft: await application({ term: CLOSED_TERM, submitted: false, daysAgo: 0 }),
      openSubmitted: await application({ term: OPEN_TERM, submitted: true, daysAgo: 60 }),
    };
    await records(seeded.newDraft.accountId);
    return seeded;
  }

  /** Rows per table and which objects exist: what a run may change. */
  async function snapshot(keys: string[]) {
    const counts: Record<string, number> = {};
    for (const [name, table] of Object.entries(TABLES)) {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
      counts[name] = row?.n ?? -1;
    }
    const files = await Promise.all(keys.map(async (key) => (await storage.size(key)) !== null));
    return { counts, files };
  }

  async function run(args: string[], extra: { storage?: StorageDriver } = {}) {
    const io = capture();
    const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    const code = await runCommand(retentionCommand(extra), args, { env, io, database });
    return { code, ...io };
  }

  return {
    database,
    db,
    storage,
    application,
    seedAll,
    snapshot,
    run,
    async close() {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Workspace = Awaited<ReturnType<typeof workspace>>;

const EXPECTED_REPORT = [
  `  unsubmitted applications not changed since ${BEFORE}: 1`,
  `  applications of entry terms started before ${BEFORE}: 2`,
  '    of them submitted: 1',
  '  document answers: 3',
  '  issued upload keys: 3',
  '  application PDFs: 3',
  '  validation reports: 6',
  '  web statuses: 6',
  '  staff links: 3',
  '  stored files: 15',
  '  expired prefilled answer sets: 1',
  '  ended sessions: 1',
  '  expired password-reset links: 1',
];
const NOTHING_REPORT = EXPECTED_REPORT.map((line) => line.replace(/\d+$/, '0'));

describe.each(databaseKinds)('npm run retention on %s', (kind) => {
  const opened: Workspace[] = [];
  const open = async () => {
    const space = await workspace(kind);
    opened.push(space);
    return space;
  };
  afterEach(async () => {
    for (const each of opened.splice(0)) await each.close();
  });

  it('reports in a dry run what it then deletes, keeps the rest readable, and deletes nothing more the second time', async () => {
    const space = await open();
    const seeded = await space.seedAll();
    const allKeys = Object.values(seeded).flatMap((application) => application.keys);
    // A file already gone is not an error.
    await space.storage.delete(seeded.oldDraft.keys[0] as string);
    const before = await space.snapshot(allKeys);

    const dry = await space.run(['--before', BEFORE, '--dry-run']);
    expect(dry.stderr).toEqual([]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toEqual([
      `Dry run: nothing was changed. Retention before ${BEFORE} would delete:`,
      ...EXPECTED_REPORT,
    ]);
    expect(await space.snapshot(allKeys)).toEqual(before);

    const real = await space.run(['--before', BEFORE]);
    expect(real.stderr).toEqual([]);
    expect(real.code).toBe(0);
    expect(real.stdout).toEqual([`Retention before ${BEFORE} deleted:`, ...EXPECTED_REPORT]);

    const gone = [seeded.oldDraft, seeded.closedSubmitted, seeded.closedDraft];
    const kept = [seeded.newDraft, seeded.openSubmitted];
    for (const application of gone) {
      const { accountId } = application;
      for (const [name, table] of Object.entries(TABLES)) {
        if (!('accountId' in table) || name === 'sessions' || name === 'passwordResets') continue;
        const rows = await space.db.select().from(table).where(eq(table.accountId, accountId));
        expect(rows, `${name} of a deleted application`).toEqual([]);
      }
      for (const key of application.keys) expect(await space.storage.get(key)).toBeNull();
    }
    for (const application of kept) {
      const [row] = await space.db
        .select({ answers: applications.answers })
        .from(applications)
        .where(eq(applications.accountId, application.accountId));
      expect(row?.answers).toEqual(application.answers);
      for (const key of application.keys) expect(await space.storage.get(key)).toEqual(BYTES);
    }
    const after = await space.snapshot([]);
    // Accounts stay; 3 applications of 5 and the expired records went.
    expect(after.counts).toEqual({
      ...before.counts,
      applications: 2,
      documentAnswers: 2,
      documentUploads: 2,
      applicationPdfs: 2,
      collegeTranscripts: 2,
      validationReports: 4,
      webStatuses: 4,
      serviceTokens: 2,
      temporaryAnswerSets: 1,
      sessions: 1,
      passwordResets: 1,
    });

    const again = await space.run(['--before', BEFORE]);
    expect(again.code).toBe(0);
    expect(again.stdout).toEqual([`Retention before ${BEFORE} deleted:`, ...NOTHING_REPORT]);
    expect(await space.snapshot([])).toEqual(after);
  });

  it('refuses a missing, unreadable or future date and unknown flags, changing nothing', async () => {
    const space = await open();
    const seeded = await space.seedAll();
    const allKeys = Object.values(seeded).flatMap((application) => application.keys);
    const before = await space.snapshot(allKeys);
    const tomorrow = dayText(new Date(Date.now() + DAY_MS));
    const cases: Array<[string[], string]> = [
      [[], '--before is required.'],
      [['--dry-run'], '--before is required.'],
      [['--before', 'last year'], '--before must be a date as YYYY-MM-DD, not "last year".'],
      [['--before', '2025-02-30'], 'not "2025-02-30"'],
      [['--before', '2025-1-5'], 'not "2025-1-5"'],
      [['--before', tomorrow], `--before ${tomorrow} is in the future`],
      [['--before', BEFORE, '--force'], "Unknown option '--force'"],
      [['--before'], 'argument missing'],
      [['--before', BEFORE, 'extra'], 'Unexpected argument'],
    ];
    for (const [args, message] of cases) {
      const result = await space.run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toEqual([]);
      expect(result.stderr.join('\n'), args.join(' ')).toContain(message);
      expect(result.stderr.join('\n'), args.join(' ')).toContain('npm run retention -- --before');
    }
    expect(await space.snapshot(allKeys)).toEqual(before);
    const help = await space.run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toContain(
      'Winter on January 1, Summer on May 1, Fall on August 1',
    );
  });

  it('names the files it could not remove and exits 1, with their rows deleted', async () => {
    const space = await open();
    const draft = await space.application({ term: OPEN_TERM, submitted: false, daysAgo: 60 });
    const stuck = draft.keys[1] as string;
    const { storage } = space;
    const failing: StorageDriver = {
      ...storage,
      async delete(key) {
        if (key === stuck) throw new Error('storage unavailable');
        await storage.delete(key);
      },
    };
    const result = await space.run(['--before', BEFORE], { storage: failing });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`  unsubmitted applications not changed since ${BEFORE}: 1`);
    expect(result.stderr.join('\n')).toContain(`1 stored files could not be removed`);
    expect(result.stderr.join('\n')).toContain(stuck);
    expect(await space.db.select().from(applications)).toEqual([]);
    expect(await storage.get(stuck)).toEqual(BYTES);
    expect(await storage.get(draft.keys[0] as string)).toBeNull();
  });

  it('leaves an application changed since it was found, and rolls back a failed deletion', async () => {
    const space = await open();
    const draft = await space.application({ term: OPEN_TERM, submitted: false, daysAgo: 60 });
    const limits = { unsubmittedBefore: new Date(BEFORE), cycleStartedBefore: new Date(BEFORE) };
    await space.db
      .update(applications)
      .set({ updatedAt: sql`now()` })
      .where(eq(applications.accountId, draft.accountId));
    expect(await deleteApplicationData(space.db, draft.accountId, limits)).toBeNull();

    await space.db
      .update(applications)
      .set({ updatedAt: sql`now() - interval '60 days'` })
      .where(eq(applications.accountId, draft.accountId));
    const before = await space.snapshot(draft.keys);
    await expect(
      space.db.transaction(async (tx) => {
        expect(await deleteApplicationData(tx, draft.accountId, limits)).not.toBeNull();
        throw new Error('the connection dropped');
      }),
    ).rejects.toThrow('the connection dropped');
    expect(await space.snapshot(draft.keys)).toEqual(before);
  });

  it('runs as a daily job when RETENTION_* days are set, and not at all otherwise', async () => {
    const space = await open();
    const seeded = await space.seedAll();
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const queue = await createJobQueue(space.database, { log, pollIntervalMs: 20 });
    try {
      const base = { db: space.db, storage: space.storage, log };
      expect(await scheduleRetention(queue, { ...base, settings: {} })).toBeNull();
      expect(Object.keys(await queue.depths())).not.toContain(RETENTION_JOB);

      // Only the rule of unsubmitted applications: closed cycles stay.
      const schedule = await scheduleRetention(queue, {
        ...base,
        settings: { unsubmittedDays: 30 },
      });
      await schedule?.enqueueToday();
      await queue.idle();
      expect(log.error).not.toHaveBeenCalled();
      expect(log.info).toHaveBeenCalledWith(
        {
          retention: expect.objectContaining({
            unsubmittedApplications: 1,
            closedCycleApplications: 0,
            temporaryAnswerSets: 1,
          }),
        },
        'data retention run finished',
      );
      const left = await space.db
        .select({ accountId: applications.accountId })
        .from(applications)
        .orderBy(applications.accountId);
      const expected = [
        seeded.newDraft,
        seeded.closedSubmitted,
        seeded.closedDraft,
        seeded.openSubmitted,
      ]
        .map((application) => ({ accountId: application.accountId }))
        .sort((a, b) => a.accountId.localeCompare(b.accountId));
      expect(left).toEqual(expected);
      schedule?.stop();
    } finally {
      await queue.close();
    }
  });
});

describe('the retention schedule and cycles', () => {
  it('runs next at 03:00 UTC', () => {
    expect(msUntilNextRun(new Date('2026-03-10T01:00:00Z'))).toBe(2 * 3_600_000);
    expect(msUntilNextRun(new Date('2026-03-10T03:00:00Z'))).toBe(DAY_MS);
    expect(msUntilNextRun(new Date('2026-12-31T04:30:00Z'))).toBe(DAY_MS - 1.5 * 3_600_000);
  });

  it('knows the start of every entry term the form offers', () => {
    for (const option of entryTermOptions(YEAR).slice(1))
      expect(termStart(option.value), option.value).not.toBeNull();
    expect(termStart('WI2027')?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(termStart('SU2027')?.toISOString()).toBe('2027-05-01T00:00:00.000Z');
    expect(termStart('FA2026')?.toISOString()).toBe('2026-08-01T00:00:00.000Z');
    for (const unknown of ['', 'XX2026', 'FA26', 'fa2026', null, 2026])
      expect(termStart(unknown)).toBeNull();
  });
});

describe('npm run retention on the embedded database of DATA_DIR', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-retention-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const env = () => loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });

  it('refuses while a server holds the database', async () => {
    const lock = lockDataDir(dataDir);
    try {
      const io = capture();
      const code = await runCommand(retentionCommand(), ['--before', BEFORE], { env: env(), io });
      expect(code).toBe(1);
      expect(io.stderr.join('\n')).toContain('is in use by the running server');
    } finally {
      lock.release();
    }
  });

  it('opens the database itself when no server runs', async () => {
    const io = capture();
    const code = await runCommand(retentionCommand(), ['--before', BEFORE, '--dry-run'], {
      env: env(),
      io,
    });
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    expect(io.stdout.slice(1)).toEqual(NOTHING_REPORT);
    lockDataDir(dataDir).release();
  });
});
