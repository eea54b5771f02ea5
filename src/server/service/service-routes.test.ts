import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVICE_LINK_REFUSED_MESSAGE,
  SERVICE_READ_ONLY_MESSAGE,
  serviceDocumentPdfUrl,
  servicePdfUrl,
  serviceViewSchema,
  serviceViewUrl,
} from '../../shared/api/service';
import { fixtureModel } from '../../shared/test/fixture-model';
import { sha256 } from '../accounts/secrets';
import { accounts, applications, documentAnswers, serviceTokens } from '../db/schema';
import { redactUrl } from '../http/redact-url';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import { signedInApplicant } from '../test/accounts-helpers';
import { extractPdfText } from '../test/pdf-text';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { mintServiceToken, revokeServiceTokens } from './service-tokens';

const DOC_KEY = 'statement_doc';
const SECRET = 'test-upload-secret-of-at-least-32-characters';
const DAY_MS = 86_400_000;
const PDF_BYTES = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF\n'));

describe.each(databaseKinds)('service tokens on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let counter = 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-service-'));
    app = await buildTestApp(kind, {
      model: fixtureModel,
      env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: SECRET },
    });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const db = () => testDatabaseOf(app);
  const put = (cookie: string, url: string, payload: object) =>
    app.inject({ method: 'PUT', url, payload, headers: { cookie } });

  /** A signed-in applicant with answers, a tab choice, an add-another count and a converted PDF. */
  async function applicantWithApplication(tag: string) {
    const email = `${tag}${++counter}.${kind}@example.edu`;
    const cookie = await signedInApplicant(app, email);
    const [account] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    const accountId = account?.id as string;
    expect((await put(cookie, '/api/answer', { first_name: tag, military: 'Y' })).statusCode).toBe(
      200,
    );
    expect(
      (await put(cookie, '/api/tabs', { tab_id: 'statement_tabs', chosen_tab: 'upload' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await put(cookie, '/api/add-another', { button_id: 'branches', num_components: 2 }))
        .statusCode,
    ).toBe(200);
    const pdfKey = newObjectKey(accountId);
    await localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: SECRET }).put(
      pdfKey,
      PDF_BYTES,
    );
    await db()
      .insert(documentAnswers)
      .values({
        accountId,
        answerKey: DOC_KEY,
        fileKey: newObjectKey(accountId),
        fileName: `${tag}-essay.docx`,
        fileSize: 1234,
        status: 'COMPLETED',
        pdfKey,
      });
    return { email, cookie, accountId };
  }

  it('reads exactly the application the token was minted for', async () => {
    const owner = await applicantWithApplication('owner');
    await applicantWithApplication('other');
    const { token } = await mintServiceToken(db(), owner.accountId, DAY_MS);

    const response = await app.inject(serviceViewUrl(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const view = serviceViewSchema.parse(response.json());
    expect(Object.keys(response.json()).sort()).toEqual([
      'add_another',
      'answer',
      'document_answer',
      'tabs',
    ]);
    expect(view).toEqual({
      answer: expect.objectContaining({ first_name: 'owner', military: 'Y' }),
      add_another: { branches: 2 },
      document_answer: { [DOC_KEY]: { file_name: 'owner-essay.docx', file_size: 1234 } },
      tabs: { statement_tabs: 'upload' },
    });

    const pdf = await app.inject(serviceDocumentPdfUrl(DOC_KEY, token));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="owner-essay.pdf"');
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    expect(pdf.rawPayload.equals(Buffer.from(PDF_BYTES))).toBe(true);
  });

  it('downloads the whole application as one PDF, of that application only', async () => {
    const owner = await applicantWithApplication('pdfowner');
    await applicantWithApplication('pdfother');
    const { token } = await mintServiceToken(db(), owner.accountId, DAY_MS);

    const response = await app.inject(servicePdfUrl(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".+\.pdf"$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const text = await extractPdfText(new Uint8Array(response.rawPayload));
    expect(text).toContain('pdfowner');
    expect(text).not.toContain('pdfother');

    const refused = await app.inject(servicePdfUrl(`${token}x`));
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(SERVICE_LINK_REFUSED_MESSAGE);
  });

  it('shows an application without answers or documents as empty', async () => {
    const email = `empty${++counter}.${kind}@example.edu`;
    await signedInApplicant(app, email);
    const [account] = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, email));
    await db()
      .delete(applications)
      .where(eq(applications.accountId, account?.id as string));
    const { token } = await mintServiceToken(db(), account?.id as string, DAY_MS);
    const response = await app.inject(serviceViewUrl(token));
    expect(response.json()).toEqual({ answer: {}, add_another: {}, document_answer: {}, tabs: {} });
    expect((await app.inject(serviceDocumentPdfUrl(DOC_KEY, token))).statusCode).toBe(404);
    expect((await app.inject(serviceDocumentPdfUrl('first_name', token))).statusCode).toBe(404);
  });

  it('stores only the hash, and the hash itself opens nothing', async () => {
    const owner = await applicantWithApplication('hash');
    const { token } = await mintServiceToken(db(), owner.accountId, DAY_MS);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db()
      .select()
      .from(serviceTokens)
      .where(eq(serviceTokens.accountId, owner.accountId));
    expect(rows.map((row) => row.tokenHash)).toEqual([sha256(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const leaked = await app.inject(serviceViewUrl(sha256(token)));
    expect(leaked.statusCode).toBe(401);
    expect(leaked.json()).toEqual({ message: SERVICE_LINK_REFUSED_MESSAGE });
    expect((await app.inject(serviceDocumentPdfUrl(DOC_KEY, sha256(token)))).statusCode).toBe(401);
  });

  it('refuses missing, malformed, expired and revoked tokens', async () => {
    const owner = await applicantWithApplication('expiry');
    const refused = async (url: string) => {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().message).toBe(SERVICE_LINK_REFUSED_MESSAGE);
    };
    await refused('/service/tmp-pdf');
    await refused('/service/tmp-pdf?service_token=');
    await refused(`/service/tmp-pdf?service_token=${'a'.repeat(500)}`);
    await refused('/service/tmp-pdf?service_token=a&service_token=b');
    await refused(serviceViewUrl('not-a-token'));

    const expired = await mintServiceToken(db(), owner.accountId, DAY_MS);
    await db()
      .update(serviceTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(serviceTokens.tokenHash, sha256(expired.token)));
    await refused(serviceViewUrl(expired.token));
    await refused(serviceDocumentPdfUrl(DOC_KEY, expired.token));

    const revoked = await mintServiceToken(db(), owner.accountId, DAY_MS);
    expect((await app.inject(serviceViewUrl(revoked.token))).statusCode).toBe(200);
    expect(await revokeServiceTokens(db(), owner.accountId)).toBe(1);
    await refused(serviceViewUrl(revoked.token));
    expect(await revokeServiceTokens(db(), owner.accountId)).toBe(0);
  });

  it('is read-only: every write and every other route refuses the token', async () => {
    const owner = await applicantWithApplication('writes');
    const { token } = await mintServiceToken(db(), owner.accountId, DAY_MS);
    const query = `service_token=${token}`;

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [serviceViewUrl(token), serviceDocumentPdfUrl(DOC_KEY, token)]) {
        const response = await app.inject({ method, url, payload: { first_name: 'Changed' } });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.json()).toEqual({ message: SERVICE_READ_ONLY_MESSAGE });
        expect(response.headers.allow).toBe('GET, HEAD');
      }
    }
    const malformed = await app.inject({
      method: 'POST',
      url: serviceViewUrl(token),
      headers: { 'content-type': 'application/json' },
      payload: '{"first_name":',
    });
    expect(malformed.statusCode).toBe(400);

    const elsewhere: Array<
      [method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: object]
    > = [
      ['GET', `/api/profile?${query}`],
      ['PUT', `/api/answer?${query}`, { first_name: 'Changed' }],
      ['PUT', `/api/answer?keep_existing=true&${query}`, { first_name: 'Changed' }],
      ['GET', `/api/tabs?${query}`],
      ['PUT', `/api/tabs?${query}`, { tab_id: 'statement_tabs', chosen_tab: 'write' }],
      ['POST', `/api/submit?${query}`],
      ['GET', `/api/document/${DOC_KEY}/pdf?${query}`],
      ['DELETE', `/api/document-answer/${DOC_KEY}?${query}`],
      ['GET', `/api/document-answer?${query}`],
    ];
    for (const [method, url, body] of elsewhere) {
      const response = await app.inject({ method, url, ...(body ? { payload: body } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    // Nor does it pass for a session cookie.
    const asCookie = await app.inject({
      url: '/api/profile',
      headers: { cookie: `tp_session=${token}` },
    });
    expect(asCookie.statusCode).toBe(401);

    const view = (await app.inject(serviceViewUrl(token))).json();
    expect(view.answer.first_name).toBe('writes');
    expect(view.tabs).toEqual({ statement_tabs: 'upload' });
    expect(view.document_answer[DOC_KEY]).toBeDefined();
    expect((await app.inject(`/service/unknown?${query}`)).statusCode).toBe(404);
  });

  it('reaches one application only: another applicant’s documents stay out of reach', async () => {
    const owner = await applicantWithApplication('scope');
    const other = await applicantWithApplication('scope-other');
    await db().delete(documentAnswers).where(eq(documentAnswers.accountId, owner.accountId));
    const { token } = await mintServiceToken(db(), owner.accountId, DAY_MS);
    const view = (await app.inject(serviceViewUrl(token))).json();
    expect(view.answer.first_name).toBe('scope');
    expect(view.document_answer).toEqual({});
    // The other applicant has a converted document under the same key: the token cannot reach it.
    expect((await app.inject(serviceDocumentPdfUrl(DOC_KEY, token))).statusCode).toBe(404);
    const otherToken = await mintServiceToken(db(), other.accountId, DAY_MS);
    expect((await app.inject(serviceDocumentPdfUrl(DOC_KEY, otherToken.token))).statusCode).toBe(
      200,
    );
  });

  it('keeps tokens out of logged addresses', () => {
    const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi12YWx1ZS0xMjM0NTY3';
    for (const url of [serviceViewUrl(token), serviceDocumentPdfUrl(DOC_KEY, token)]) {
      expect(redactUrl(url)).not.toContain(token);
      expect(redactUrl(url)).toContain('service_token=%5Bredacted%5D');
    }
    expect(redactUrl(`/about?service_token=${token}&x=1`)).not.toContain(token);
    expect(redactUrl(`/public/tmp?token=${token}`)).not.toContain(token);
  });
});
