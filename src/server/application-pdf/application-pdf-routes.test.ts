import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICATION_PDF_FAILED_MESSAGE,
  APPLICATION_PDF_URL,
  type ApplicationPdfStatus,
} from '../../shared/api/application-pdf';
import { applicationModel } from '../../shared/application/application-model';
import { DEFAULT_COURSEWORK_RULES } from '../../shared/coursework/coursework-rules';
import { CHECKED_MARK, DOCUMENT_ATTACHED, UNCHECKED_MARK } from '../../shared/form/printable';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { accounts, applicationPdfs } from '../db/schema';
import { createInProcessQueue } from '../jobs/in-process-queue';
import { localDiskStorage } from '../storage/local-disk';
import type { StorageDriver } from '../storage/storage';
import { signedInApplicant } from '../test/accounts-helpers';
import { multipart } from '../test/document-helpers';
import { extractPdfPages } from '../test/pdf-text';
import { makePdf } from '../test/sample-files';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createApplicationPdfs } from './application-pdfs';

const SECRET = 'test-upload-secret-of-at-least-32-characters';
const silentLog = { warn: () => {}, error: () => {} };

/** The outline as pdf.js (an independent reader) sees it: titles and 0-based page indexes. */
async function outlineOf(bytes: Uint8Array): Promise<Array<{ title: string; page: number }>> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const items = (await pdf.getOutline()) ?? [];
    return Promise.all(
      items.map(async (item) => {
        const destination = Array.isArray(item.dest) ? item.dest : [];
        return { title: item.title, page: await pdf.getPageIndex(destination[0]) };
      }),
    );
  } finally {
    await pdf.loadingTask.destroy();
  }
}

describe.each(databaseKinds)('application PDF on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;
  const email = () => `pdf${++counter}.${kind}@example.edu`;
  const call = (cookie: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const pdfStatus = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/pdf')).json() as ApplicationPdfStatus;

  /** Polls GET /api/pdf, as the browser does, until the PDF is no longer on its way. */
  async function settled(cookie: string): Promise<ApplicationPdfStatus> {
    for (let i = 0; i < 2000; i++) {
      const status = await pdfStatus(cookie);
      if (status.status !== 'UNPROCESSED' && status.status !== 'IN_PROGRESS') return status;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the application PDF did not settle');
  }

  async function attach(cookie: string, answerKey: string, file: Uint8Array, fileName: string) {
    const presigned = await call(cookie, 'POST', '/api/presigned-url', { answer_key: answerKey });
    expect(presigned.statusCode).toBe(200);
    const { fields } = presigned.json() as { fields: Record<string, string> };
    const uploaded = await app.inject({
      method: 'POST',
      url: '/public/upload',
      ...multipart(fields, file, fileName),
    });
    expect(uploaded.statusCode).toBe(204);
    const started = await call(cookie, 'POST', `/api/pdf/document-answer/${answerKey}`, {
      file_key: fields.key,
      file_name: fileName,
    });
    expect(started.statusCode).toBe(202);
    for (let i = 0; i < 2000; i++) {
      const status = (await call(cookie, 'GET', `/api/pdf/document-answer/${answerKey}`)).json();
      if (status.status === 'COMPLETED') return;
      expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(status.status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${answerKey} was not converted`);
  }

  async function accountIdOf(username: string): Promise<string> {
    const [row] = await testDatabaseOf(app)
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, username));
    if (!row) throw new Error(`no account ${username}`);
    return row.id;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-application-pdf-'));
    app = await buildTestApp(kind, { env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET } });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses anonymous calls with 401', async () => {
    for (const url of ['/api/pdf', APPLICATION_PDF_URL]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toEqual(expect.any(String));
    }
  });

  describe('a submitted application with two documents', () => {
    let cookie: string;
    let username: string;
    let pdf: Uint8Array;
    let pages: string[];

    beforeAll(async () => {
      username = email();
      cookie = await signedInApplicant(app, username);
      const saved = await call(cookie, 'PUT', '/api/answer', validApplicationAnswers());
      expect(saved.statusCode).toBe(200);
      const tab = await call(cookie, 'PUT', '/api/tabs', {
        tab_id: 'personal_statement',
        chosen_tab: 'upload',
      });
      expect(tab.statusCode).toBe(200);
      await attach(
        cookie,
        'personal_statement_doc',
        await makePdf([['Why I want to transfer'], ['My second statement page']]),
        'statement.pdf',
      );
      await attach(
        cookie,
        'hs_transcript',
        await makePdf([['Plantation High School official transcript']]),
        'transcript.pdf',
      );
      const submitted = await call(cookie, 'POST', '/api/submit');
      expect(submitted.statusCode).toBe(200);

      const status = await settled(cookie);
      expect(status).toEqual({ status: 'COMPLETED', url: APPLICATION_PDF_URL, message: null });
      const download = await call(cookie, 'GET', APPLICATION_PDF_URL);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe(
        'attachment; filename="transfer-application-Maria-Lopez.pdf"',
      );
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['cache-control']).toBe('private, no-store');
      pdf = new Uint8Array(download.rawPayload);
      pages = await extractPdfPages(pdf);
    });

    it('is a PDF with the page titles and the answers as text', () => {
      expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      const text = pages.join('\n');
      for (const title of ['About You', 'Your Academics', 'Final Steps'])
        expect(text).toContain(title);
      expect(text).toContain('Transfer application');
      expect(text).toContain('Northfield State University');
      expect(text).toContain(username);
      expect(text).toContain('Maria');
      expect(text).toContain('Fort Lauderdale');
      expect(text).toContain('Plantation High School, Plantation, Florida');
      expect(text).toContain(`${CHECKED_MARK} White`);
      expect(text).toContain(`${UNCHECKED_MARK} Asian`);
      expect(text).toContain(DOCUMENT_ATTACHED);
      // The write-it-here tab was not chosen: its question is not printed.
      expect(text).not.toContain('Personal statement\nNot answered');
    });

    it('appends the converted documents in order after the form pages', () => {
      const statement = pages.findIndex((page) => page.includes('Why I want to transfer'));
      const second = pages.findIndex((page) => page.includes('My second statement page'));
      const transcript = pages.findIndex((page) => page.includes('official transcript'));
      const finalSteps = pages.findIndex((page) => page.includes('Final Steps'));
      expect(finalSteps).toBeGreaterThan(0);
      expect(statement).toBeGreaterThan(finalSteps);
      expect(second).toBe(statement + 1);
      expect(transcript).toBe(second + 1);
      expect(transcript).toBe(pages.length - 1);
      expect(pages[statement]).toContain('Document 1: Personal statement document (statement.pdf)');
    });

    it('has one bookmark per form page and per document', async () => {
      const outline = await outlineOf(pdf);
      const pageOf = (needle: string) => pages.findIndex((page) => page.includes(needle));
      expect(outline).toEqual([
        { title: 'About You', page: 0 },
        { title: 'Your Academics', page: pageOf('Your Academics') },
        { title: 'Final Steps', page: pageOf('Final Steps') },
        {
          title: 'Document 1: Personal statement document (statement.pdf)',
          page: pageOf('Why I want to transfer'),
        },
        {
          title: 'Document 2: Unofficial high school transcript (transcript.pdf)',
          page: pageOf('official transcript'),
        },
      ]);
    });

    it('stays up to date: asking again starts nothing new', async () => {
      const before = await testDatabaseOf(app)
        .select({ pdfKey: applicationPdfs.pdfKey })
        .from(applicationPdfs)
        .where(eq(applicationPdfs.accountId, await accountIdOf(username)));
      expect(await pdfStatus(cookie)).toMatchObject({ status: 'COMPLETED' });
      const after = await testDatabaseOf(app)
        .select({ pdfKey: applicationPdfs.pdfKey })
        .from(applicationPdfs)
        .where(eq(applicationPdfs.accountId, await accountIdOf(username)));
      expect(after).toEqual(before);
    });

    it("never gives another applicant this applicant's PDF", async () => {
      const other = await signedInApplicant(app, email());
      expect((await call(other, 'GET', APPLICATION_PDF_URL)).statusCode).toBe(404);
      const ownId = await accountIdOf(username);
      const probing = await call(other, 'GET', `${APPLICATION_PDF_URL}?account_id=${ownId}`);
      expect(probing.statusCode).toBe(404);
      const status = await settled(other);
      expect(status.status).toBe('COMPLETED');
      const theirs = await call(other, 'GET', APPLICATION_PDF_URL);
      expect(theirs.statusCode).toBe(200);
      const text = (await extractPdfPages(new Uint8Array(theirs.rawPayload))).join('\n');
      expect(text).not.toContain('Maria');
      expect(text).not.toContain('Why I want to transfer');
    });
  });

  it('makes a new PDF of a draft once it changes', async () => {
    const cookie = await signedInApplicant(app, email());
    await call(cookie, 'PUT', '/api/answer', { first_name: 'Ana' });
    expect(await settled(cookie)).toMatchObject({ status: 'COMPLETED' });
    const first = (await call(cookie, 'GET', APPLICATION_PDF_URL)).rawPayload;
    expect((await extractPdfPages(new Uint8Array(first))).join('\n')).toContain('Ana');

    await call(cookie, 'PUT', '/api/answer', { first_name: 'Beatriz' });
    expect((await pdfStatus(cookie)).status).toMatch(/^(UNPROCESSED|IN_PROGRESS)$/);
    expect(await settled(cookie)).toMatchObject({ status: 'COMPLETED' });
    const second = (await call(cookie, 'GET', APPLICATION_PDF_URL)).rawPayload;
    const text = (await extractPdfPages(new Uint8Array(second))).join('\n');
    expect(text).toContain('Beatriz');
  });

  it('records FAILED with a message when every attempt fails, and a restart finishes the rest', async () => {
    const username = email();
    const cookie = await signedInApplicant(app, username);
    await call(cookie, 'PUT', '/api/answer', { first_name: 'Chloe' });
    const accountId = await accountIdOf(username);
    const db = testDatabaseOf(app);
    const storage = localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: SECRET });
    const broken: StorageDriver = {
      ...storage,
      put: async () => {
        throw new Error('disk full');
      },
    };
    const failingQueue = createInProcessQueue({ log: silentLog });
    const failing = createApplicationPdfs({
      db,
      storage: broken,
      model: applicationModel,
      queue: failingQueue,
      log: silentLog,
      institution: 'Test University',
      courseworkRules: DEFAULT_COURSEWORK_RULES,
    });
    await failing.register();
    expect((await failing.request(accountId)).status).toMatch(/^(UNPROCESSED|IN_PROGRESS)$/);
    await failingQueue.idle();
    expect(await failing.request(accountId)).toEqual({
      status: 'FAILED',
      url: null,
      message: APPLICATION_PDF_FAILED_MESSAGE,
    });
    expect((await call(cookie, 'GET', APPLICATION_PDF_URL)).statusCode).toBe(404);
    await failingQueue.close();

    // A server that stopped while making it left the row IN_PROGRESS; the next start finishes it.
    await db
      .update(applicationPdfs)
      .set({ status: 'IN_PROGRESS', message: null })
      .where(eq(applicationPdfs.accountId, accountId));
    const queue = createInProcessQueue({ log: silentLog });
    const restarted = createApplicationPdfs({
      db,
      storage,
      model: applicationModel,
      queue,
      log: silentLog,
      institution: 'Test University',
      courseworkRules: DEFAULT_COURSEWORK_RULES,
    });
    await restarted.register();
    expect(await restarted.recover()).toBeGreaterThanOrEqual(1);
    await queue.idle();
    await queue.close();
    const [row] = await db
      .select({ status: applicationPdfs.status })
      .from(applicationPdfs)
      .where(eq(applicationPdfs.accountId, accountId));
    expect(row?.status).toBe('COMPLETED');
    expect((await call(cookie, 'GET', APPLICATION_PDF_URL)).statusCode).toBe(200);
  });

  it('answers only GET on its addresses, and malformed bodies with 400', async () => {
    const cookie = await signedInApplicant(app, email());
    const send = (url: string, payload: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/json' },
        payload,
      });
    for (const url of ['/api/pdf', APPLICATION_PDF_URL]) {
      const posted = await send(url, '{"status":"COMPLETED"}');
      expect(posted.statusCode).toBe(404);
      expect(posted.json().message).toEqual(expect.any(String));
      const malformed = await send(url, '{"status":');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toEqual(expect.any(String));
    }
  });
});
