import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_API_MESSAGES, type ExportJob } from '../../shared/staff/application-api';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, auditEvents, courseworkTotals, exportJobs } from '../db/schema';
import { CSV_BOM } from '../http/csv-writer';
import { STEP_UP_REQUIRED_CODE } from '../staff/staff-sessions';
import { callAs, signedInApplicant } from '../test/accounts-helpers';
import { uploadDocument } from '../test/document-helpers';
import { insertApplications, parseCsv } from '../test/export-helpers';
import { extractPdfText } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { utf8Flags } from '../test/zip-headers';
import { EXPORT_NOT_FOUND_MESSAGE } from './exports-routes';
import { ZIP_EXPORT_TTL_HOURS, ZIP_INDEX_FILE, ZIP_INDEX_HEADER } from './zip-exports';

const ZIPS = '/staff/api/exports/zip';
const TAG = 'zipexport';

describe.each(databaseKinds)('the ZIP export of application PDFs on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let withDocument: string;
  let inserted: string[];

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    // One applicant as the browser makes one, with a converted document to append.
    const cookie = await signedInApplicant(app, `zip-applicant-${kind}@example.com`);
    const saved = await callAs(app, cookie, 'PUT', '/api/answer', validApplicationAnswers());
    expect(saved.statusCode, saved.body).toBe(200);
    const converted = await uploadDocument(
      app,
      cookie,
      'hs_transcript',
      await makePdf([['Plantation High School official transcript']]),
      'transcript.pdf',
    );
    expect(converted.status).toBe('COMPLETED');
    const [account] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, `zip-applicant-${kind}@example.com`));
    withDocument = account?.id as string;
    inserted = await insertApplications(app, TAG, [
      {
        answers: { first_name: 'Zoë', last_name: "O'Brien-Lévy" },
        status: 'submitted',
        submittedAt: '2026-02-01T00:00:00Z',
      },
      { answers: { first_name: '=HYPERLINK("http://evil.example")', last_name: '../../etc' } },
      { answers: { first_name: 'Łukasz', last_name: 'Søndergaard' } },
      { answers: { first_name: '小明', last_name: '王' } },
    ]);
    // Totals as submit stores them: the index writes them; the others have none.
    await testDatabaseOf(app)
      .insert(courseworkTotals)
      .values({
        accountId: inserted[0] as string,
        transferGpa: '3.1',
        transferUnits: '45.5',
        inProgressUnits: '6',
      });
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    cookie = reader.cookie,
    payload?: Record<string, unknown>,
  ) =>
    app.inject(
      payload === undefined
        ? { method, url, headers: { cookie } }
        : { method, url, headers: { cookie }, payload },
    );
  const start = (query: string, cookie = reader.cookie) => call('POST', ZIPS, cookie, { query });

  /** Polls the export's status, as the console does, until it is finished. */
  async function finished(id: string): Promise<ExportJob> {
    for (let i = 0; i < 3000; i++) {
      const job = (await call('GET', `${ZIPS}/${id}`)).json() as ExportJob;
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the export did not finish');
  }

  const audits = (action: string, staffId = reader.staffId) =>
    testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, staffId), eq(auditEvents.action, action)));

  describe('of every application', () => {
    let job: ExportJob;
    let files: Record<string, Uint8Array>;
    let zipBytes: Uint8Array;
    let index: string[][];

    beforeAll(async () => {
      const started = await start('sort=name');
      expect(started.statusCode, started.body).toBe(200);
      const queued: ExportJob = started.json();
      expect(queued).toMatchObject({ kind: 'pdf_zip', total: 5, query: 'sort=name' });
      job = await finished(queued.id);
      const download = await call('GET', `${ZIPS}/${job.id}/download`);
      expect(download.statusCode, download.body).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['cache-control']).toBe('no-store');
      expect(download.headers['content-disposition']).toMatch(
        /^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.zip"$/,
      );
      expect(download.rawPayload.length).toBe(job.byte_size);
      zipBytes = new Uint8Array(download.rawPayload);
      files = unzipSync(zipBytes);
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(files[ZIP_INDEX_FILE]);
      expect(text.startsWith(CSV_BOM)).toBe(true);
      index = parseCsv(text.slice(CSV_BOM.length));
    });

    it('runs to completed with its progress and an expiry', () => {
      expect(job).toMatchObject({ status: 'completed', total: 5, done: 5, message: null });
      expect(job.byte_size).toBeGreaterThan(0);
      const ttl = Date.parse(job.expires_at ?? '') - Date.parse(job.finished_at ?? '');
      expect(Math.abs(ttl - ZIP_EXPORT_TTL_HOURS * 3_600_000)).toBeLessThan(60_000);
    });

    it('holds one real PDF per application, safely named, and an index', async () => {
      const pdfs = Object.keys(files).filter((name) => name !== ZIP_INDEX_FILE);
      expect(pdfs).toHaveLength(5);
      for (const name of pdfs) {
        expect(name).toMatch(/^[\p{L}\p{M}\p{N}-]+_[\p{L}\p{M}\p{N}-]+_[0-9a-f]{8}\.pdf$/u);
        expect(Buffer.from(files[name]?.subarray(0, 5) ?? []).toString('latin1')).toBe('%PDF-');
      }
      // Names keep their letters: a registrar finds Søndergaard under S-ø, not "S-ndergaard".
      expect(pdfs).toContain(`O-Brien-Lévy_Zoë_${inserted[0]?.slice(0, 8)}.pdf`);
      expect(pdfs).toContain(`etc_HYPERLINK-http-evil-example_${inserted[1]?.slice(0, 8)}.pdf`);
      expect(pdfs).toContain(`Søndergaard_Łukasz_${inserted[2]?.slice(0, 8)}.pdf`);
      expect(pdfs).toContain(`王_小明_${inserted[3]?.slice(0, 8)}.pdf`);
      const lopez = pdfs.find((name) => name.startsWith('Lopez_Maria_')) as string;
      const text = await extractPdfText(files[lopez] as Uint8Array);
      // The converted document is appended to the application.
      expect(text).toContain('Plantation High School official transcript');

      expect(index[0]).toEqual([...ZIP_INDEX_HEADER]);
      expect(index).toHaveLength(6);
      const byId = new Map(index.slice(1).map((row) => [row[0], row]));
      expect(byId.get(withDocument)?.[ZIP_INDEX_HEADER.indexOf('file')]).toBe(lopez);
      expect(byId.get(inserted[0] as string)).toEqual([
        inserted[0],
        "O'Brien-Lévy",
        'Zoë',
        `${TAG}-0@example.edu`,
        'submitted',
        '2026-02-01T00:00:00.000Z',
        '3.10',
        '45.50',
        '6.00',
        `O-Brien-Lévy_Zoë_${inserted[0]?.slice(0, 8)}.pdf`,
        '',
      ]);
      expect(index[0]).toEqual([
        'id',
        'last_name',
        'first_name',
        'email',
        'status',
        'submitted_at',
        'transfer_gpa',
        'transfer_units',
        'in_progress_units',
        'file',
        'note',
      ]);
      // Without totals the three are empty.
      expect(byId.get(inserted[2] as string)?.slice(6, 9)).toEqual(['', '', '']);
      expect(byId.get(inserted[1] as string)?.[2]).toBe(`'=HYPERLINK("http://evil.example")`);
    });

    it('marks every name as UTF-8, so unzip tools read the letters as written', () => {
      const flags = utf8Flags(zipBytes);
      expect(flags.length).toBe(2 * Object.keys(files).length);
      expect(flags.filter((flag) => flag.name.normalize('NFC') !== flag.name)).toEqual([]);
      for (const flag of flags.filter((one) => /[^\x20-\x7e]/.test(one.name))) {
        expect(flag.utf8, flag.name).toBe(true);
      }
      expect(flags.some((flag) => flag.name.startsWith('Søndergaard_Łukasz_'))).toBe(true);
    });

    it('is audited when it starts and when it is downloaded', async () => {
      const [created] = await audits('applications.export_zip');
      expect(created?.detail).toMatchObject({ export_id: job.id, query: 'sort=name', rows: 5 });
      const [downloaded] = await audits('applications.export_zip_download');
      expect(downloaded?.detail).toMatchObject({ export_id: job.id, query: 'sort=name', rows: 5 });
    });

    it('is listed for its member only, and hidden from another', async () => {
      const listed = (await call('GET', ZIPS)).json() as ExportJob[];
      expect(listed.map((one) => one.id)).toContain(job.id);
      const other = await signedInStaff(app, { role: 'admin' });
      expect((await call('GET', ZIPS, other.cookie)).json()).toEqual([]);
      for (const url of [`${ZIPS}/${job.id}`, `${ZIPS}/${job.id}/download`]) {
        const response = await call('GET', url, other.cookie);
        expect(response.statusCode).toBe(404);
        expect(response.json().message).toBe(EXPORT_NOT_FOUND_MESSAGE);
      }
    });
  });

  it('exports only what the filters find', async () => {
    const started = await start(`term=${TAG}&status=submitted`);
    expect(started.statusCode, started.body).toBe(200);
    const job = await finished(started.json().id);
    expect(job).toMatchObject({ status: 'completed', total: 1, done: 1 });
    const files = unzipSync(
      new Uint8Array((await call('GET', `${ZIPS}/${job.id}/download`)).rawPayload),
    );
    expect(Object.keys(files).sort()).toEqual([
      `O-Brien-Lévy_Zoë_${inserted[0]?.slice(0, 8)}.pdf`,
      ZIP_INDEX_FILE,
    ]);
  });

  it('answers 409 while running and 410 once expired, deleting the file', async () => {
    const db = testDatabaseOf(app);
    const [running] = await db
      .insert(exportJobs)
      .values({ staffId: reader.staffId, kind: 'pdf_zip', query: '', status: 'running', total: 5 })
      .returning();
    const busy = await call('GET', `${ZIPS}/${running?.id}/download`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(APPLICATION_API_MESSAGES.exportNotReady);

    const started = await start(`term=${TAG}`);
    const job = await finished(started.json().id);
    await db
      .update(exportJobs)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(exportJobs.id, job.id));
    const expired = await call('GET', `${ZIPS}/${job.id}/download`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(APPLICATION_API_MESSAGES.exportExpired);
    const [row] = await db.select().from(exportJobs).where(eq(exportJobs.id, job.id));
    expect(row?.storageKey).toBeNull();
  });

  it('refuses bad queries, empty exports and a stale second factor, starting nothing', async () => {
    const before = (await audits('applications.export_zip')).length;
    const cases: Array<[string, string]> = [
      ['colour=blue', 'colour'],
      ['page_size=1000', 'page_size'],
      ['sort=password', 'sort'],
      ['q=a%00b', 'q'],
      [`q=${'x'.repeat(300)}`, 'q'],
    ];
    for (const [query, key] of cases) {
      const response = await start(query);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().errors ?? {}), query).toContain(key);
    }
    const long = await start(`q=${'x'.repeat(10_000)}`);
    expect(long.statusCode).toBe(400);
    expect((await call('POST', ZIPS, reader.cookie, { query: 'a', extra: 1 })).statusCode).toBe(
      400,
    );
    const empty = await start('term=nothing-matches');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(APPLICATION_API_MESSAGES.exportEmpty);
    expect((await audits('applications.export_zip')).length).toBe(before);

    const stale = await signedInStaff(app, { role: 'reader', fresh2fa: false });
    const refused = await start('', stale.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(STEP_UP_REQUIRED_CODE);
    const applicant = await signedInApplicant(app, `zip-other-${kind}@example.com`);
    expect((await start('', applicant)).statusCode).toBe(401);
  });
});
