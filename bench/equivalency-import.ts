// Importing a 20,000-row equivalency table through the console's route on the compiled server in
// production mode, beside its yardstick: the same 20,000 rows sent as plain INSERT statements
// (1,000 rows each, values written out, one transaction, the colleges' old rows deleted first),
// straight to the same database. On the embedded database the server holds the database while it
// runs, so the yardstick (and storeEquivalencies called directly, to show what HTTP and the
// checks add) run in this process before the server starts and again after it stops.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { readEquivalencyCsv, storeEquivalencies } from '../src/server/credit/equivalency-import';
import { type DatabaseHandle, openDatabase } from '../src/server/db/database';
import { staffMembers, staffSessions } from '../src/server/db/schema';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import type { DatabaseKind } from '../src/server/test/test-database';
import { EQUIVALENCY_COLUMNS, equivalencyKey } from '../src/shared/credit/equivalency';
import { equivalencyUrls } from '../src/shared/credit/equivalency-api';
import { scratchPostgres, startProductionServer } from './production-server';
import { percentile } from './timing';

const ROWS = 20_000;
const COLLEGES = 10;
const ROUNDS = 3;
const PORT = 3397;
const KINDS = ['course', 'course', 'course', 'elective', 'no_credit'] as const;
const SUBJECTS = ['MATH', 'ENGL', 'CHEM', 'HIST', 'PSYC', 'BIOL', 'PHYS', 'ECON'];

/** A file of `ROWS` rows over `COLLEGES` colleges, as an office's export would look. */
export function sampleEquivalencyCsv(): string {
  const lines = [EQUIVALENCY_COLUMNS.join(',')];
  for (let index = 0; index < ROWS; index++) {
    const ceeb = String(4100 + (index % COLLEGES));
    const subject = SUBJECTS[index % SUBJECTS.length] ?? 'MATH';
    const number = `${100 + Math.floor(index / COLLEGES)}`;
    const kind = KINDS[index % KINDS.length] ?? 'course';
    const local =
      kind === 'no_credit'
        ? ',,0'
        : kind === 'elective'
          ? `,${subject} 1XX,3`
          : `,${subject} ${number},3`;
    const satisfies = kind === 'course' ? ['GE-A1', 'GE-B4', 'MAJOR-CS-CALC1'][index % 3] : '';
    lines.push(
      `${ceeb},${subject},${number},"Course ${number} of ${subject}, a sample title",3${local},${kind},${satisfies}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The yardstick: the same rows as plain statements, values written out, in one transaction. */
async function plainInserts(database: DatabaseHandle, csv: string): Promise<number> {
  const { rows, colleges } = readEquivalencyCsv(csv);
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += 1000) {
    const values = rows
      .slice(start, start + 1000)
      .map(
        (row) =>
          `(${[
            row.sendingCeeb,
            equivalencyKey(row.subject, row.number),
            row.subject,
            row.number,
            row.title,
          ]
            .map(literal)
            .join(
              ',',
            )},${row.units},${literal(row.localCourse)},${row.localUnits},${literal(row.kind)},${literal(JSON.stringify(row.satisfies))},${row.line})`,
      );
    statements.push(
      `insert into equivalencies (sending_ceeb, course_key, subject, number, title, units, local_course, local_units, kind, satisfies, line) values ${values.join(',')}`,
    );
  }
  const started = performance.now();
  await database.db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(
        `delete from equivalencies where sending_ceeb in (${colleges.map(literal).join(',')})`,
      ),
    );
    for (const statement of statements) await tx.execute(sql.raw(statement));
  });
  return performance.now() - started;
}

/** storeEquivalencies called directly, parsing included: the import without HTTP. */
async function direct(database: DatabaseHandle, csv: string): Promise<number> {
  const started = performance.now();
  await storeEquivalencies(database.db, readEquivalencyCsv(csv), {
    fileName: 'bench.csv',
    importedBy: 'bench',
  });
  return performance.now() - started;
}

async function seedAdmin(database: DatabaseHandle): Promise<string> {
  const token = randomToken();
  const [member] = await database.db
    .insert(staffMembers)
    .values({ email: 'bench-admin@staff.example.edu', role: 'admin', displayName: 'Bench' })
    .returning({ id: staffMembers.id });
  await database.db.insert(staffSessions).values({
    tokenHash: sha256(token),
    staffId: member?.id as string,
    stage: 'signed_in',
    method: 'password',
    secondFactorAt: new Date(),
    expiresAt: new Date(Date.now() + STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000),
  });
  return `${staffCookieName(true)}=${token}`;
}

export interface EquivalencyImportResult {
  database: DatabaseKind;
  fileKb: number;
  /** Milliseconds per round. */
  route: number[];
  check: number[];
  direct: number[];
  plain: number[];
  /** The route's median over the plain statements' median. */
  ratio: number;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export async function benchEquivalencyImport(kind: DatabaseKind): Promise<EquivalencyImportResult> {
  const csv = sampleEquivalencyCsv();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-equivalencies-'));
  const adminUrl = process.env.DATABASE_URL;
  if (kind === 'postgres' && !adminUrl) throw new Error('DATABASE_URL is needed for PostgreSQL');
  const scratch =
    kind === 'postgres' && adminUrl ? await scratchPostgres(adminUrl, 'portal_bench_equiv') : null;
  const open = () =>
    scratch
      ? openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 })
      : openDatabase({ kind: 'pglite', dataDir });
  const plain: number[] = [];
  const directTimes: number[] = [];
  const route: number[] = [];
  const check: number[] = [];
  /** The yardstick and the direct import taking turns, on a database of this process. */
  const beside = async () => {
    const database = await open();
    try {
      for (let round = 0; round < 2; round++) {
        plain.push(await plainInserts(database, csv));
        directTimes.push(await direct(database, csv));
      }
    } finally {
      await database.close();
    }
  };
  try {
    const seeded = await open();
    const cookie = await seedAdmin(seeded).finally(() => seeded.close());
    await beside();
    const server = await startProductionServer(PORT, {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
      LOG_LEVEL: undefined,
    });
    try {
      const send = async (url: string) => {
        const started = performance.now();
        const response = await fetch(`${server.base}${url}?file_name=bench.csv`, {
          method: 'POST',
          headers: { cookie, origin: server.base, 'content-type': 'text/csv' },
          body: csv,
        });
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`);
        return performance.now() - started;
      };
      await send(equivalencyUrls.check); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        check.push(await send(equivalencyUrls.check));
        route.push(await send(equivalencyUrls.tables));
      }
    } finally {
      await server.stop();
    }
    await beside();
  } finally {
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return {
    database: kind,
    fileKb: Buffer.byteLength(csv) / 1024,
    route,
    check,
    direct: directTimes,
    plain,
    ratio: median(route) / median(plain),
  };
}

export { median as medianOf };
