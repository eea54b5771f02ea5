// The ZIP export of application PDFs (goal: 1,000 applications in under 60 s on one 2-core
// server): 1,000 applications with every answer of the transfer application and a converted
// one-page transcript each, written straight to a fresh database and its storage; the server
// started as production starts it (the compiled build in its own process); then one export of
// all of them timed from POST /staff/api/exports/zip to completed, and its download.
// Run alone with `node --import tsx bench/export-zip.ts`.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { type DatabaseHandle, openDatabase, rowsOf } from '../src/server/db/database';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import { makePdf } from '../src/server/test/sample-files';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import {
  buildServer,
  type RunningServer,
  scratchPostgres,
  startProductionServer,
} from './production-server';

const APPLICATIONS = Number(process.env.BENCH_EXPORT_APPLICATIONS ?? 1000);
const PORT = 3392;
const BASE = `http://127.0.0.1:${PORT}`;

export interface ExportZipBenchResult {
  database: 'pglite' | 'postgres';
  applications: number;
  fillSeconds: number;
  /** From the POST to the job's completed state. */
  exportSeconds: number;
  downloadSeconds: number;
  zipMegabytes: number;
  pdfPages: number;
  applicationsPerSecond: number;
  pagesPerSecond: number;
  loadBefore: number[];
  loadAfter: number[];
}

const FIRST = ['Maria', 'José', 'Wei', 'Aisha', 'Søren', 'Chloé', 'Kwame', 'Priya', 'Olga', 'Ben'];
const LAST = ['Lopez', 'Nguyen', 'Okafor', 'Demir', 'Hansen', 'Dubois', 'Mensah', 'Iyer', 'Ruiz'];

/** Accounts, applications with every answer, and a converted transcript in storage for each. */
async function fill(db: DatabaseHandle['db'], uploads: string): Promise<void> {
  const transcript = await makePdf([['Official transcript', 'Fall 2024: Biology 101, A']]);
  const answers = { ...validApplicationAnswers(), hs_transcript: 'ANSWERED' };
  const rows: Array<{ id: string; email: string; answers: string; pdfKey: string }> = [];
  for (let i = 0; i < APPLICATIONS; i++) {
    const id = randomUUID();
    const pdfKey = `${id}/${randomUUID()}`;
    await mkdir(path.join(uploads, id), { recursive: true });
    await writeFile(path.join(uploads, ...pdfKey.split('/')), transcript);
    rows.push({
      id,
      email: `bench${i}@example.edu`,
      pdfKey,
      answers: JSON.stringify({
        ...answers,
        first_name: FIRST[i % FIRST.length],
        last_name: `${LAST[i % LAST.length]}${i}`,
      }),
    });
  }
  for (let start = 0; start < rows.length; start += 250) {
    const batch = rows.slice(start, start + 250);
    await db.execute(sql`insert into accounts (id, email, confirmed_at)
      values ${sql.join(
        batch.map((row) => sql`(${row.id}, ${row.email}, now())`),
        sql`, `,
      )}`);
    await db.execute(sql`insert into applications (account_id, answers, submitted_at)
      values ${sql.join(
        batch.map((row) => sql`(${row.id}, ${row.answers}::jsonb, now())`),
        sql`, `,
      )}`);
    await db.execute(sql`insert into document_answers
      (account_id, answer_key, file_key, file_name, file_size, status, pdf_key)
      values ${sql.join(
        batch.map(
          (row) =>
            sql`(${row.id}, 'hs_transcript', ${row.pdfKey}, 'transcript.pdf', ${transcript.length}, 'COMPLETED', ${row.pdfKey})`,
        ),
        sql`, `,
      )}`);
    for (const status of ['started', 'validating', 'submitted']) {
      await db.execute(sql`insert into web_statuses (account_id, web_status)
        values ${sql.join(
          batch.map((row) => sql`(${row.id}, ${status})`),
          sql`, `,
        )}`);
    }
  }
}

/** A reader signed in with a fresh second factor, as a finished sign-in and step-up leave it. */
async function readerCookie(db: DatabaseHandle['db']): Promise<string> {
  const token = randomToken();
  const [member] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into staff_members (email, role, display_name)
      values ('bench-exporter@staff.example.edu', 'reader', 'Bench') returning id`),
  );
  await db.execute(sql`insert into staff_sessions
    (token_hash, staff_id, stage, method, second_factor_at, expires_at)
    values (${sha256(token)}, ${member?.id}, 'signed_in', 'password', now(),
      now() + make_interval(hours => ${STAFF_SESSION_ABSOLUTE_HOURS}))`);
  return `${staffCookieName(true)}=${token}`;
}

async function pageCount(files: Record<string, Uint8Array>): Promise<number> {
  let pages = 0;
  for (const [name, bytes] of Object.entries(files)) {
    if (!name.endsWith('.pdf')) continue;
    pages += (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
  }
  return pages;
}

export async function benchExportZip(): Promise<ExportZipBenchResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-export-'));
  const adminUrl = process.env.DATABASE_URL;
  // On PostgreSQL a database of its own, dropped afterwards.
  const scratch = adminUrl ? await scratchPostgres(adminUrl, 'portal_bench_export') : null;
  const postgresUrl = scratch?.url;
  let server: RunningServer | null = null;
  try {
    // Filled before the server starts: the embedded database is locked by the process using it.
    const database = await openDatabase(
      postgresUrl
        ? { kind: 'postgres', url: postgresUrl, poolSize: 2 }
        : { kind: 'pglite', dataDir },
    );
    const fillStart = performance.now();
    await fill(database.db, path.join(dataDir, 'uploads'));
    const fillSeconds = Math.round((performance.now() - fillStart) / 100) / 10;
    const cookie = await readerCookie(database.db);
    await database.close();

    buildServer();
    server = await startProductionServer(PORT, {
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrl,
    });

    const loadBefore = os.loadavg();
    const started = performance.now();
    const created = await fetch(`${BASE}/staff/api/exports/zip`, {
      method: 'POST',
      headers: { cookie, origin: BASE, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '' }),
    });
    if (created.status !== 200)
      throw new Error(`POST answered ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    for (;;) {
      const job = (await (
        await fetch(`${BASE}/staff/api/exports/zip/${id}`, { headers: { cookie } })
      ).json()) as { status: string; done: number; total: number; message: string | null };
      if (job.status === 'failed') throw new Error(`the export failed: ${job.message}`);
      if (job.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const exportSeconds = (performance.now() - started) / 1000;
    const downloadStart = performance.now();
    const download = await fetch(`${BASE}/staff/api/exports/zip/${id}/download`, {
      headers: { cookie },
    });
    if (download.status !== 200) throw new Error(`download answered ${download.status}`);
    const zip = new Uint8Array(await download.arrayBuffer());
    const downloadSeconds = (performance.now() - downloadStart) / 1000;
    const loadAfter = os.loadavg();

    const files = unzipSync(zip);
    const pdfs = Object.keys(files).filter((name) => name.endsWith('.pdf')).length;
    if (pdfs !== APPLICATIONS) throw new Error(`the ZIP holds ${pdfs} PDFs`);
    const pdfPages = await pageCount(files);
    const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;
    return {
      database: postgresUrl ? 'postgres' : 'pglite',
      applications: APPLICATIONS,
      fillSeconds,
      exportSeconds: round(exportSeconds),
      downloadSeconds: round(downloadSeconds, 2),
      zipMegabytes: round(zip.length / 1_048_576),
      pdfPages,
      applicationsPerSecond: round(APPLICATIONS / exportSeconds),
      pagesPerSecond: round(pdfPages / exportSeconds),
      loadBefore,
      loadAfter,
    };
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchExportZip(), null, 2));
}
