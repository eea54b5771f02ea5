// Reading assignments: a list of 5,000 submitted applications dealt out to 20 readers (first and
// blind second reads) through POST /staff/api/reviews/assignments on the production server,
// beside a yardstick in the same run: one INSERT ... SELECT of 10,000 reads into review_reads on
// the same database, from the bench's own process, before the server starts and after it stops.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import { accounts, applications, staffMembers, staffSessions } from '../src/server/db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import type { DatabaseKind } from '../src/server/test/test-database';
import { type AssignmentResult, REVIEW_API } from '../src/shared/review/review-api';
import { buildServer, scratchPostgres, startProductionServer } from './production-server';

const APPLICATIONS = Number(process.env.BENCH_ASSIGN_APPLICATIONS ?? 5_000);
const READERS = 20;
const TERM = 'BENCHASSIGN';
const PORT = 3397;
const COLLEGES = ['Valley College', 'Hill College', 'Harbor College', 'Mesa College'];

export interface ReviewAssignResult {
  database: DatabaseKind;
  applications: number;
  readers: number;
  /** The one timed POST of the whole list (ms). */
  assignMs: number;
  assigned: number;
  unassigned: number;
  minLoad: number;
  maxLoad: number;
  /** The yardstick's INSERT ... SELECT of 10,000 reads, before the server and after (ms). */
  yardstickMs: [number, number];
  ratio: number;
  loadBefore: number[];
  loadAfter: number[];
}

async function seed(database: DatabaseHandle): Promise<{ cookie: string; readerIds: string[] }> {
  const { db } = database;
  for (let start = 0; start < APPLICATIONS; start += 1000) {
    const count = Math.min(1000, APPLICATIONS - start);
    const rows = await db
      .insert(accounts)
      .values(
        Array.from({ length: count }, (_, offset) => ({
          email: `bench-assign-${start + offset}@example.edu`,
          confirmedAt: new Date(),
        })),
      )
      .returning({ id: accounts.id });
    await db.insert(applications).values(
      rows.map((row, offset) => {
        const index = start + offset;
        return {
          accountId: row.id,
          answers: {
            first_name: `Ana${index}`,
            last_name: 'Reyes',
            entry_term: TERM,
            college_ceeb: String(4000 + (index % 50)),
            college_name: COLLEGES[index % COLLEGES.length] as string,
          },
          submittedAt: new Date(),
        };
      }),
    );
  }
  const members = await db
    .insert(staffMembers)
    .values([
      { email: 'bench-assign-admin@staff.example.edu', role: 'admin', displayName: 'Admin' },
      ...Array.from({ length: READERS }, (_, index) => ({
        email: `bench-reader-${index}@staff.example.edu`,
        role: 'reader' as const,
        displayName: `Reader ${index}`,
      })),
    ])
    .returning({ id: staffMembers.id, role: staffMembers.role });
  const admin = members.find((member) => member.role === 'admin');
  const token = randomToken();
  await db.insert(staffSessions).values({
    tokenHash: sha256(token),
    staffId: admin?.id as string,
    stage: 'signed_in',
    method: 'password',
    // The assignment asks for a second factor within the step-up window: proved at seeding.
    secondFactorAt: new Date(),
    expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
  });
  return {
    cookie: `${staffCookieName(true)}=${token}`,
    readerIds: members.filter((member) => member.role === 'reader').map((member) => member.id),
  };
}

/** One INSERT ... SELECT of two reads per application (10,000 for 5,000), then removed, untimed. */
async function yardstick(database: DatabaseHandle, readerIds: readonly string[]): Promise<number> {
  const { db } = database;
  await db.execute(sql`delete from review_reads`);
  const readers = sql`${`{${readerIds.join(',')}}`}::uuid[]`;
  const start = performance.now();
  await db.execute(sql`insert into review_reads
    (account_id, round, reader_id, form_cycle, form_version, assigned_by)
    select numbered.account_id, rounds.round,
      (${readers})[1 + (numbered.n + rounds.step) % ${readerIds.length}], '*', 1, 'bench'
    from (select account_id, row_number() over (order by account_id) as n from applications)
      as numbered
    cross join (values ('first', 0), ('second', 1)) as rounds(round, step)`);
  const elapsed = performance.now() - start;
  await db.execute(sql`delete from review_reads`);
  return elapsed;
}

export async function benchReviewAssign(kind: DatabaseKind): Promise<ReviewAssignResult> {
  const loadBefore = os.loadavg();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-assign-'));
  const scratch =
    kind === 'postgres' && process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL, 'portal_bench_assign')
      : null;
  const open = () =>
    openDatabase(
      scratch ? { kind: 'postgres', url: scratch.url, poolSize: 2 } : { kind: 'pglite', dataDir },
    );
  try {
    let database = await open();
    const { cookie, readerIds } = await seed(database);
    // Twice, the first warming the database's caches as the server's own first calls do.
    await yardstick(database, readerIds);
    const before = await yardstick(database, readerIds);
    await database.close();

    const server = await startProductionServer(PORT, {
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
    });
    let result: AssignmentResult;
    let assignMs: number;
    try {
      const headers = { cookie, origin: server.base, 'content-type': 'application/json' };
      const body = (expected: number) =>
        JSON.stringify({ query: `term=${TERM}`, reader_ids: readerIds, expected_count: expected });
      // Untimed: a refused call (the count differs) warms the route, the selection and the plans.
      const warm = await fetch(`${server.base}${REVIEW_API.assignments}`, {
        method: 'POST',
        headers,
        body: body(APPLICATIONS + 1),
      });
      if (warm.status !== 409) throw new Error(`warm-up: ${warm.status} ${await warm.text()}`);
      const start = performance.now();
      const response = await fetch(`${server.base}${REVIEW_API.assignments}`, {
        method: 'POST',
        headers,
        body: body(APPLICATIONS),
      });
      const text = await response.text();
      assignMs = performance.now() - start;
      if (!response.ok) throw new Error(`assign: ${response.status} ${text}`);
      result = JSON.parse(text) as AssignmentResult;
    } finally {
      await server.stop();
    }

    database = await open();
    const after = await yardstick(database, readerIds);
    await database.close();
    const counts = result.per_reader.map((row) => row.count);
    const best = Math.min(before, after);
    return {
      database: kind,
      applications: APPLICATIONS,
      readers: READERS,
      assignMs: Number(assignMs.toFixed(0)),
      assigned: result.assigned,
      unassigned: result.unassigned,
      minLoad: Math.min(...counts),
      maxLoad: Math.max(...counts),
      yardstickMs: [Number(before.toFixed(0)), Number(after.toFixed(0))],
      ratio: assignMs / best,
      loadBefore,
      loadAfter: os.loadavg(),
    };
  } finally {
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer();
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : ['pglite']) {
    console.log(await benchReviewAssign(kind as DatabaseKind));
  }
}
