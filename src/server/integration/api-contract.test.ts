import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { ApiScope } from '../../shared/integration/api-scopes';
import { CREDIT_CASE_CEEB, CREDIT_CASE_COURSEWORK } from '../../shared/test/credit-fixtures';
import {
  apiAccessTokens,
  applicationSisIds,
  auditEvents,
  checklistMarks,
  decisions,
  documentAnswers,
} from '../db/schema';
import { fileQuestionKeys } from '../documents/file-question-keys';
import { localDiskStorage } from '../storage/local-disk';
import { newObjectKey } from '../storage/storage';
import { creditApplicant } from '../test/credit-helpers';
import { insertApplications } from '../test/export-helpers';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { startReceiver } from '../webhooks/webhooks-test-support';
import { createApiClients } from './api-clients';
import { createApiClientsStore } from './api-clients-store';
import type { OpenApiDocument } from './openapi-document';

/*
 * The contract: every operation of the served OpenAPI document is called, with good and bad
 * input, and every answer's status, media type, body and Cache-Control are checked against the
 * document. Cases are kept per operationId, so an operation added to the API without cases fails
 * the last test here.
 */

const UPLOAD_SECRET = 'test-upload-secret-of-at-least-32-characters';
const PDF_BYTES = new Uint8Array(Buffer.from('%PDF-1.7\n%%EOF\n'));
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const DOCUMENT_KEY = [...fileQuestionKeys(applicationModel)][0] as string;

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
}

interface ContractCase {
  name: string;
  call: () => Call | Promise<Call>;
  status: number;
  check?: (response: LightMyRequestResponse) => void | Promise<void>;
}

/** Matches a request's path against an operation's template: `/applications/{id}`. */
function templateMatches(template: string, url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  const pattern = template.replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^/api/v1${pattern}$`).test(pathname);
}

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe.each(databaseKinds)('the /api/v1 contract on %s', (kind) => {
  let app: FastifyInstance;
  let dataDir: string;
  let document: OpenApiDocument;
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();
  const exercised = new Map<string, Set<number>>();
  const clients = () => createApiClients(createApiClientsStore(testDatabaseOf(app)));
  const db = () => testDatabaseOf(app);
  let counter = 0;

  /** A client with these scopes and a token for it. */
  async function clientWith(scopes: ApiScope[], rateLimitPerMinute?: number) {
    const made = await clients().create({
      name: `Contract ${kind} ${++counter}`,
      scopes,
      createdBy: 'test',
      rateLimitPerMinute,
    });
    const issued = await clients().issueToken(made.client.client_id, made.secret, null);
    if ('error' in issued) throw new Error(issued.error);
    return {
      id: made.client.id,
      name: made.client.name,
      clientId: made.client.client_id,
      secret: made.secret,
      token: issued.access_token,
      auth: { authorization: `Bearer ${issued.access_token}` },
    };
  }
  type Client = Awaited<ReturnType<typeof clientWith>>;

  /** A subscription of `client` to submitted applications, sent to the receiver at `path`. */
  async function subscribe(client: Client, receiverPath: string): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: client.auth,
      payload: {
        url: `${receiver.url}${receiverPath}`,
        events: ['application.submitted'],
        description: `contract ${receiverPath}`,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }

  let reader: Client;
  let readerWithDecisions: Client;
  let writer: Client;
  let decisionsOnly: Client;
  let expired: Client;
  let revoked: Client;
  let limited: Client;
  let submittedId: string;
  let releasedId: string;
  let recordedOnlyId: string;
  let draftId: string;
  let hooks: Client;
  let otherHooks: Client;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** `hooks`'s subscription to submitted applications, which has a delivery. */
  let subscriptionId: string;
  /** Another client's subscription: `hooks` must not see it. */
  let othersSubscriptionId: string;
  /** The subscription the delete case makes and removes. */
  let deletedId = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-api-contract-'));
    app = await buildTestApp(kind, {
      env: { DATA_DIR: dataDir, UPLOAD_SIGNING_SECRET: UPLOAD_SECRET },
    });
    document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');

    reader = await clientWith(['applications:read']);
    readerWithDecisions = await clientWith(['applications:read', 'decisions:read']);
    writer = await clientWith(['applications:write']);
    decisionsOnly = await clientWith(['decisions:read']);
    expired = await clientWith(['applications:read']);
    await db()
      .update(apiAccessTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(apiAccessTokens.clientId, expired.id));
    revoked = await clientWith(['applications:read']);
    await clients().revoke(revoked.clientId);
    limited = await clientWith(['applications:read'], 1);
    hooks = await clientWith(['applications:read', 'webhooks:manage']);
    otherHooks = await clientWith(['applications:read', 'webhooks:manage']);
    receiver = await startReceiver();

    const applicant = await creditApplicant(app, `contract.${kind}@example.edu`, {
      ceeb: CREDIT_CASE_CEEB,
      coursework: CREDIT_CASE_COURSEWORK,
    });
    submittedId = applicant.id;
    const pdfKey = newObjectKey(submittedId);
    await localDiskStorage({ root: path.join(dataDir, 'uploads'), secret: UPLOAD_SECRET }).put(
      pdfKey,
      PDF_BYTES,
    );
    await db()
      .insert(documentAnswers)
      .values({
        accountId: submittedId,
        answerKey: DOCUMENT_KEY,
        fileKey: newObjectKey(submittedId),
        fileName: 'transcript.docx',
        fileSize: 1234,
        status: 'COMPLETED',
        pdfKey,
      });
    const [released, recordedOnly, draft] = await insertApplications(app, `contract-${kind}`, [
      { status: 'submitted', submittedAt: '2026-11-02T10:00:00Z' },
      { status: 'submitted', submittedAt: '2026-11-03T10:00:00Z' },
      {},
    ]);
    releasedId = released as string;
    recordedOnlyId = recordedOnly as string;
    draftId = draft as string;
    await db()
      .insert(decisions)
      .values([
        {
          accountId: releasedId,
          code: 'admit',
          recordedByLabel: 'test',
          releasedAt: new Date('2026-11-10T12:00:00Z'),
          replyDeadline: new Date('2026-12-01T12:00:00Z'),
        },
        { accountId: recordedOnlyId, code: 'deny', recordedByLabel: 'test' },
      ]);
    await db()
      .update(decisions)
      .set({ reply: 'accepted', repliedAt: new Date('2026-11-11T12:00:00Z') })
      .where(eq(decisions.accountId, releasedId));

    subscriptionId = await subscribe(hooks, '/contract');
    othersSubscriptionId = await subscribe(otherHooks, '/others');
    // Submitted after the subscription, so it is delivered to it.
    await insertApplications(app, `contract-hooks-${kind}`, [
      { status: 'submitted', submittedAt: '2026-11-07T10:00:00Z' },
    ]);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The operation of the document with this id: its method, path and answers. */
  function operationOf(operationId: string) {
    for (const [template, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods))
        if (operation.operationId === operationId) return { template, method, operation };
    throw new Error(`the document has no operation ${operationId}`);
  }

  /** Checks an answer against the document: documented status, media type, body, no-store. */
  function expectConforms(operationId: string, call: Call, response: LightMyRequestResponse) {
    const { template, method, operation } = operationOf(operationId);
    expect(call.method.toLowerCase()).toBe(method);
    expect(templateMatches(template, call.url), `${call.url} is not ${template}`).toBe(true);
    const status = String(response.statusCode);
    const documented = operation.responses[status];
    expect(
      documented,
      `${operationId} does not document ${status}: ${response.body}`,
    ).toBeDefined();
    expect(response.headers['cache-control']).toBe('no-store');
    if (response.statusCode === 204) {
      expect(response.body).toBe('');
      return;
    }
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
    expect(Object.keys(documented?.content ?? {})).toContain(contentType);
    const mediaType = contentType;
    if (mediaType === 'application/pdf') {
      expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      return;
    }
    const at = `openapi#/paths/${pointer(template)}/${method}/responses/${status}/content/${pointer(mediaType ?? '')}/schema`;
    let validate = validators.get(at);
    if (!validate) {
      validate = ajv.getSchema(at);
      if (!validate) throw new Error(`no schema at ${at}`);
      validators.set(at, validate);
    }
    const body: unknown = response.json();
    expect(validate(body), `${operationId} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(
      true,
    );
  }

  const get = (url: string, headers?: Record<string, string>): Call => ({
    method: 'GET',
    url,
    ...(headers ? { headers } : {}),
  });
  const put = (url: string, headers: Record<string, string>, payload: string | object): Call => ({
    method: 'PUT',
    url,
    headers:
      typeof payload === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
    payload,
  });
  const problemNaming = (parameter: string) => (response: LightMyRequestResponse) => {
    const errors = (response.json().errors ?? []) as Array<{
      parameter?: string;
      pointer?: string;
    }>;
    expect(errors.map((error) => error.parameter ?? error.pointer)).toContain(parameter);
  };

  /*
   * A feed shows a change as soon as it is committed; the tests poll rather than assume when
   * another request's work is done.
   */
  const POLL = { timeout: 20_000, interval: 50 };
  /** Long enough for several waits: a test that waits on the feed more than once. */
  const FEED_TEST_TIMEOUT = 90_000;

  /** Waits until the feed at `url` holds these applications (or their decisions). */
  async function feedShows(url: string, client: Client, ids: readonly string[]): Promise<void> {
    await vi.waitFor(async () => {
      const items = (await app.inject(get(url, client.auth))).json().data as Array<{
        id?: string;
        application_id?: string;
      }>;
      const shown = items.map((item) => item.id ?? item.application_id);
      expect(shown).toEqual(expect.arrayContaining([...ids]));
    }, POLL);
  }

  /** Where another feed's next_cursor points: a cursor this feed did not issue. */
  async function cursorOf(url: string, client: Client): Promise<string> {
    return (await app.inject(get(url, client.auth))).json().next_cursor;
  }

  const post = (url: string, headers: Record<string, string>, payload?: string | object): Call => ({
    method: 'POST',
    url,
    headers:
      typeof payload === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(payload === undefined ? {} : { payload }),
  });
  const del = (url: string, headers: Record<string, string>): Call => ({
    method: 'DELETE',
    url,
    headers,
  });
  /** The body of a new subscription to the receiver, with `changes` over it. */
  const newHook = (changes: Record<string, unknown> = {}) => ({
    url: `${receiver.url}/made`,
    events: ['application.submitted'],
    ...changes,
  });
  const isProblem = (response: LightMyRequestResponse) =>
    expect(response.headers['content-type']).toContain('application/problem+json');

  /** The delivery to `hooks`'s subscription of the application submitted for it, once sent. */
  async function deliveredOnce(): Promise<{ id: string; status: string }> {
    let delivered: { id: string; status: string } | undefined;
    await vi.waitFor(async () => {
      const response = await app.inject(
        get(`/api/v1/webhooks/${subscriptionId}/deliveries`, hooks.auth),
      );
      const deliveries: Array<{ id: string; status: string }> = response.json();
      delivered = deliveries.find((delivery) => delivery.status === 'delivered');
      expect(delivered).toBeDefined();
    }, POLL);
    if (!delivered) throw new Error('no delivery was made');
    return delivered;
  }

  const authFailures = (url: () => string, wrongScope: () => Client): ContractCase[] => [
    { name: 'no token', call: () => get(url()), status: 401 },
    {
      name: 'a token never issued',
      call: () => get(url(), { authorization: 'Bearer not-a-token' }),
      status: 401,
    },
    { name: 'an expired token', call: () => get(url(), expired.auth), status: 401 },
    { name: 'a revoked client', call: () => get(url(), revoked.auth), status: 401 },
    { name: 'the wrong scope', call: () => get(url(), wrongScope().auth), status: 403 },
  ];

  const cases: Record<string, ContractCase[]> = {
    createToken: [
      {
        name: 'client credentials in the form',
        call: () => ({
          method: 'POST',
          url: '/api/v1/oauth/token',
          headers: FORM,
          payload: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: reader.clientId,
            client_secret: reader.secret,
          }).toString(),
        }),
        status: 200,
      },
      {
        name: 'a wrong secret',
        call: () => ({
          method: 'POST',
          url: '/api/v1/oauth/token',
          headers: FORM,
          payload: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: reader.clientId,
            client_secret: 'wrong',
          }).toString(),
        }),
        status: 401,
      },
      {
        name: 'no grant type at all',
        call: () => ({ method: 'POST', url: '/api/v1/oauth/token', headers: FORM, payload: '' }),
        status: 400,
      },
      {
        name: 'another grant',
        call: () => ({
          method: 'POST',
          url: '/api/v1/oauth/token',
          headers: FORM,
          payload: 'grant_type=password',
        }),
        status: 400,
      },
    ],
    listApplicationChanges: [
      {
        name: 'the first page',
        call: async () => {
          const url = '/api/v1/applications?limit=1000';
          await feedShows(url, reader, [submittedId, releasedId, recordedOnlyId]);
          return get(url, reader.auth);
        },
        status: 200,
        check: (response) => {
          const ids = response.json().data.map((item: { id: string }) => item.id);
          expect(ids).toEqual(expect.arrayContaining([submittedId, releasedId, recordedOnlyId]));
          expect(ids).not.toContain(draftId);
        },
      },
      {
        name: 'a page of one, then the next from its cursor',
        call: async () => {
          const first = (await app.inject(get('/api/v1/applications?limit=1', reader.auth))).json();
          expect(first.has_more).toBe(true);
          return get(
            `/api/v1/applications?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
            reader.auth,
          );
        },
        status: 200,
        check: (response) => expect(response.json().data).toHaveLength(1),
      },
      ...authFailures(
        () => '/api/v1/applications',
        () => decisionsOnly,
      ),
      {
        name: 'a cursor never issued',
        call: () => get('/api/v1/applications?cursor=garbage', reader.auth),
        status: 400,
        check: problemNaming('cursor'),
      },
      {
        name: 'a tampered cursor',
        call: async () => {
          const cursor = await cursorOf('/api/v1/applications', reader);
          const [payload, mac] = cursor.split('.');
          const forged = Buffer.from(JSON.stringify({ k: 'applications', s: 0 })).toString(
            'base64url',
          );
          expect(forged).not.toBe(payload);
          return get(`/api/v1/applications?cursor=${forged}.${mac}`, reader.auth);
        },
        status: 400,
        check: problemNaming('cursor'),
      },
      {
        name: 'the decisions feed’s cursor',
        call: async () =>
          get(
            `/api/v1/applications?cursor=${encodeURIComponent(await cursorOf('/api/v1/decisions', decisionsOnly))}`,
            reader.auth,
          ),
        status: 400,
        check: problemNaming('cursor'),
      },
      {
        name: 'a limit of 0',
        call: () => get('/api/v1/applications?limit=0', reader.auth),
        status: 400,
        check: problemNaming('limit'),
      },
      {
        name: 'a limit over 1000',
        call: () => get('/api/v1/applications?limit=1001', reader.auth),
        status: 400,
        check: problemNaming('limit'),
      },
      {
        name: 'a limit that is not a number',
        call: () => get('/api/v1/applications?limit=ten', reader.auth),
        status: 400,
      },
      {
        name: 'an unknown parameter',
        call: () => get('/api/v1/applications?since=2026-01-01', reader.auth),
        status: 400,
      },
      {
        name: 'past the client’s rate limit',
        call: async () => {
          await app.inject(get('/api/v1/applications', limited.auth));
          return get('/api/v1/applications', limited.auth);
        },
        status: 429,
      },
    ],
    getApplication: [
      {
        name: 'in full, with the released decision for decisions:read',
        call: () => get(`/api/v1/applications/${releasedId}`, readerWithDecisions.auth),
        status: 200,
        check: (response) =>
          expect(response.json().decision).toMatchObject({
            code: 'admit',
            reply: 'accepted',
            released_at: '2026-11-10T12:00:00.000Z',
          }),
      },
      {
        name: 'without the decision for a token without decisions:read',
        call: () => get(`/api/v1/applications/${releasedId}`, reader.auth),
        status: 200,
        check: (response) => expect(response.json()).not.toHaveProperty('decision'),
      },
      {
        name: 'a decision recorded but not released is never shown',
        call: () => get(`/api/v1/applications/${recordedOnlyId}`, readerWithDecisions.auth),
        status: 200,
        check: (response) => expect(response.json()).not.toHaveProperty('decision'),
      },
      {
        name: 'answers with labels, coursework with totals, documents and the PDF',
        call: () => get(`/api/v1/applications/${submittedId}`, reader.auth),
        status: 200,
        check: (response) => {
          const body = response.json();
          const major = body.answers.find(
            (answer: { code: string }) => answer.code === 'applied_major',
          );
          expect(major).toMatchObject({
            label: expect.any(String),
            value_label: expect.any(String),
          });
          expect(body.answers.map((answer: { code: string }) => answer.code)).not.toContain(
            'applied_major_desc',
          );
          expect(body.receipt?.confirmation_number).toEqual(expect.any(String));
          expect(body.checklist.items.length).toBeGreaterThan(0);
          expect(body.coursework.colleges).toHaveLength(1);
          expect(body.coursework.totals?.gpa).toEqual(expect.any(String));
          expect(body.documents).toEqual([
            expect.objectContaining({
              answer_key: DOCUMENT_KEY,
              href: `/applications/${submittedId}/documents/${DOCUMENT_KEY}`,
            }),
          ]);
          expect(body.pdf_href).toBe(`/applications/${submittedId}/pdf`);
        },
      },
      ...authFailures(
        () => `/api/v1/applications/${submittedId}`,
        () => decisionsOnly,
      ),
      {
        name: 'an application not submitted',
        call: () => get(`/api/v1/applications/${draftId}`, reader.auth),
        status: 404,
      },
      {
        name: 'an unknown id',
        call: () => get(`/api/v1/applications/${UNKNOWN_ID}`, reader.auth),
        status: 404,
      },
      {
        name: 'an id that is not a UUID',
        call: () => get('/api/v1/applications/42', reader.auth),
        status: 400,
        check: problemNaming('id'),
      },
    ],
    getApplicationDocument: [
      {
        name: 'the converted PDF',
        call: () =>
          get(`/api/v1/applications/${submittedId}/documents/${DOCUMENT_KEY}`, reader.auth),
        status: 200,
      },
      {
        name: 'a question without a document',
        call: () => get(`/api/v1/applications/${submittedId}/documents/no_such_key`, reader.auth),
        status: 404,
      },
      {
        name: 'a key out of shape',
        call: () => get(`/api/v1/applications/${submittedId}/documents/BAD-KEY`, reader.auth),
        status: 400,
      },
      {
        name: 'an application not submitted',
        call: () => get(`/api/v1/applications/${draftId}/documents/${DOCUMENT_KEY}`, reader.auth),
        status: 404,
      },
      ...authFailures(
        () => `/api/v1/applications/${submittedId}/documents/${DOCUMENT_KEY}`,
        () => writer,
      ).slice(0, 1),
    ],
    getApplicationPdf: [
      {
        name: 'the application as a PDF',
        call: () => get(`/api/v1/applications/${submittedId}/pdf`, reader.auth),
        status: 200,
      },
      {
        name: 'an unknown id',
        call: () => get(`/api/v1/applications/${UNKNOWN_ID}/pdf`, reader.auth),
        status: 404,
      },
      {
        name: 'the wrong scope',
        call: () => get(`/api/v1/applications/${submittedId}/pdf`, writer.auth),
        status: 403,
      },
    ],
    setApplicationSisId: [
      {
        name: 'written back, audited with from and to',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, { sis_id: 'A001.x-1_2' }),
        status: 200,
        check: async (response) => {
          expect(response.json()).toMatchObject({ sis_id: 'A001.x-1_2', set_by: writer.name });
          const [stored] = await db()
            .select()
            .from(applicationSisIds)
            .where(eq(applicationSisIds.accountId, submittedId));
          expect(stored).toMatchObject({ sisId: 'A001.x-1_2', setByLabel: writer.name });
          const audited = await db()
            .select()
            .from(auditEvents)
            .where(
              and(eq(auditEvents.action, 'sis_id.set'), eq(auditEvents.applicationId, submittedId)),
            );
          expect(audited.map((entry) => entry.detail)).toContainEqual({
            from: null,
            to: 'A001.x-1_2',
          });
        },
      },
      {
        name: 'a read-only token',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, reader.auth, { sis_id: 'A2' }),
        status: 403,
      },
      {
        name: 'characters outside the pattern',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, { sis_id: 'A 1' }),
        status: 400,
        check: problemNaming('#/sis_id'),
      },
      {
        name: 'too long',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, {
            sis_id: 'A'.repeat(65),
          }),
        status: 400,
      },
      {
        name: 'a number instead of text',
        call: () => put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, { sis_id: 12 }),
        status: 400,
      },
      {
        name: 'an unknown key',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, {
            sis_id: 'A3',
            note: 'x',
          }),
        status: 400,
      },
      {
        name: 'a NUL character',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, '{"sis_id":"A\\u0000"}'),
        status: 400,
      },
      {
        name: 'a lone surrogate',
        call: () =>
          put(`/api/v1/applications/${submittedId}/sis-id`, writer.auth, '{"sis_id":"A\\ud800"}'),
        status: 400,
      },
      {
        name: 'an application not submitted',
        call: () => put(`/api/v1/applications/${draftId}/sis-id`, writer.auth, { sis_id: 'A4' }),
        status: 404,
      },
      {
        name: 'no token',
        call: () => put(`/api/v1/applications/${submittedId}/sis-id`, {}, { sis_id: 'A5' }),
        status: 401,
      },
    ],
    markChecklistItem: [
      {
        name: 'a transcript the registrar received, audited as the client',
        call: async () => {
          const checklist = (
            await app.inject(get(`/api/v1/applications/${submittedId}`, reader.auth))
          ).json().checklist;
          const item = checklist.items[0].key;
          return put(
            `/api/v1/applications/${submittedId}/checklist/${encodeURIComponent(item)}`,
            writer.auth,
            { state: 'received' },
          );
        },
        status: 200,
        check: async (response) => {
          const item = response.json().items[0];
          expect(item).toMatchObject({ state: 'received', set_by: `${writer.name} (API)` });
          const [mark] = await db()
            .select()
            .from(checklistMarks)
            .where(
              and(eq(checklistMarks.accountId, submittedId), eq(checklistMarks.itemKey, item.key)),
            );
          expect(mark).toMatchObject({ setById: writer.id, setByLabel: `${writer.name} (API)` });
          const audited = await db()
            .select()
            .from(auditEvents)
            .where(
              and(
                eq(auditEvents.action, 'checklist.mark'),
                eq(auditEvents.applicationId, submittedId),
              ),
            );
          expect(audited.at(-1)).toMatchObject({ actorType: 'api_client', actorId: writer.id });
        },
      },
      {
        name: 'an item the application does not have',
        call: () =>
          put(`/api/v1/applications/${submittedId}/checklist/tenant:nothing`, writer.auth, {
            state: 'received',
          }),
        status: 404,
      },
      {
        name: 'a state that does not exist',
        call: () =>
          put(`/api/v1/applications/${submittedId}/checklist/fee`, writer.auth, { state: 'lost' }),
        status: 400,
      },
      {
        name: 'an item key out of shape',
        call: () =>
          put(`/api/v1/applications/${submittedId}/checklist/everything`, writer.auth, {
            state: 'received',
          }),
        status: 400,
      },
      {
        name: 'an application not submitted',
        call: () =>
          put(`/api/v1/applications/${draftId}/checklist/fee`, writer.auth, { state: 'waived' }),
        status: 404,
      },
      {
        name: 'a read-only token',
        call: () =>
          put(`/api/v1/applications/${submittedId}/checklist/fee`, reader.auth, {
            state: 'waived',
          }),
        status: 403,
      },
    ],
    listDecisionEvents: [
      {
        name: 'releases and replies, never a decision not released',
        call: async () => {
          const url = '/api/v1/decisions?limit=1000';
          await feedShows(url, decisionsOnly, [releasedId]);
          return get(url, decisionsOnly.auth);
        },
        status: 200,
        check: (response) => {
          const items = response.json().data as Array<{ application_id: string; type: string }>;
          expect(
            items.filter((item) => item.application_id === releasedId).map((item) => item.type),
          ).toEqual(['decision.released', 'offer.replied']);
          expect(items.map((item) => item.application_id)).not.toContain(recordedOnlyId);
        },
      },
      {
        name: 'the applications feed’s cursor',
        call: async () =>
          get(
            `/api/v1/decisions?cursor=${encodeURIComponent(await cursorOf('/api/v1/applications', reader))}`,
            decisionsOnly.auth,
          ),
        status: 400,
        check: problemNaming('cursor'),
      },
      ...authFailures(
        () => '/api/v1/decisions',
        () => reader,
      ),
      {
        name: 'a limit over 1000',
        call: () => get('/api/v1/decisions?limit=5000', decisionsOnly.auth),
        status: 400,
      },
    ],

    createWebhook: [
      {
        name: 'a subscription to the token’s own events, its secret shown once',
        call: () => post('/api/v1/webhooks', hooks.auth, newHook({ description: 'contract' })),
        status: 201,
        check: (response) => {
          expect(response.json()).toMatchObject({
            url: `${receiver.url}/made`,
            events: ['application.submitted'],
            scopes: ['applications:read', 'webhooks:manage'],
            created_by: hooks.name,
            state: 'active',
          });
          expect(response.json().secret).toMatch(/^whsec_/);
        },
      },
      {
        name: 'an unknown key',
        call: () => post('/api/v1/webhooks', hooks.auth, newHook({ secret: 'mine' })),
        status: 400,
      },
      {
        name: 'an event needing a scope the token lacks',
        call: () =>
          post('/api/v1/webhooks', hooks.auth, newHook({ events: ['decision.released'] })),
        status: 400,
        check: (response) => expect(response.json().detail).toContain('decisions:read'),
      },
      {
        name: 'an unknown event',
        call: () => post('/api/v1/webhooks', hooks.auth, newHook({ events: ['application.lost'] })),
        status: 400,
        check: problemNaming('#/events/0'),
      },
      {
        name: 'a URL that is not http',
        call: () => post('/api/v1/webhooks', hooks.auth, newHook({ url: 'ftp://127.0.0.1/hook' })),
        status: 400,
        check: (response) => expect(response.json().detail).toContain('https://'),
      },
      {
        name: 'no events',
        call: () => post('/api/v1/webhooks', hooks.auth, newHook({ events: [] })),
        status: 400,
        check: problemNaming('#/events'),
      },
      {
        name: 'a NUL character in the description',
        call: () =>
          post(
            '/api/v1/webhooks',
            hooks.auth,
            JSON.stringify(newHook()).replace(/\}$/, ',"description":"a\\u0000"}'),
          ),
        status: 400,
        check: (response) => {
          isProblem(response);
          problemNaming('#/description')(response);
        },
      },
      {
        name: 'a lone surrogate in the description',
        call: () =>
          post(
            '/api/v1/webhooks',
            hooks.auth,
            JSON.stringify(newHook()).replace(/\}$/, ',"description":"a\\ud800"}'),
          ),
        status: 400,
        check: (response) => {
          isProblem(response);
          problemNaming('#/description')(response);
        },
      },
      {
        name: 'no token',
        call: () => post('/api/v1/webhooks', {}, newHook()),
        status: 401,
      },
      {
        name: 'the wrong scope',
        call: () => post('/api/v1/webhooks', reader.auth, newHook()),
        status: 403,
      },
    ],
    listWebhooks: [
      {
        name: 'this client’s subscriptions, never another’s',
        call: () => get('/api/v1/webhooks', hooks.auth),
        status: 200,
        check: (response) => {
          const ids = response.json().map((hook: { id: string }) => hook.id);
          expect(ids).toContain(subscriptionId);
          expect(ids).not.toContain(othersSubscriptionId);
          expect(JSON.stringify(response.json())).not.toContain('whsec_');
        },
      },
      ...authFailures(
        () => '/api/v1/webhooks',
        () => reader,
      ),
    ],
    getWebhook: [
      {
        name: 'one of this client’s',
        call: () => get(`/api/v1/webhooks/${subscriptionId}`, hooks.auth),
        status: 200,
        check: (response) =>
          expect(response.json()).toMatchObject({
            id: subscriptionId,
            description: 'contract /contract',
          }),
      },
      {
        name: 'another client’s',
        call: () => get(`/api/v1/webhooks/${othersSubscriptionId}`, hooks.auth),
        status: 404,
      },
      {
        name: 'an unknown id',
        call: () => get(`/api/v1/webhooks/${UNKNOWN_ID}`, hooks.auth),
        status: 404,
      },
      {
        name: 'an id out of shape',
        call: () => get('/api/v1/webhooks/not-an-id', hooks.auth),
        status: 400,
        check: problemNaming('id'),
      },
      ...authFailures(
        () => `/api/v1/webhooks/${subscriptionId}`,
        () => reader,
      ),
    ],
    deleteWebhook: [
      {
        name: 'one of this client’s, gone afterwards',
        call: async () => {
          deletedId = await subscribe(hooks, '/deleted');
          return del(`/api/v1/webhooks/${deletedId}`, hooks.auth);
        },
        status: 204,
        check: async (response) => {
          expect(response.body).toBe('');
          const again = await app.inject(get(`/api/v1/webhooks/${deletedId}`, hooks.auth));
          expect(again.statusCode).toBe(404);
        },
      },
      {
        name: 'another client’s, which stays',
        call: () => del(`/api/v1/webhooks/${othersSubscriptionId}`, hooks.auth),
        status: 404,
        check: async () => {
          const kept = await app.inject(
            get(`/api/v1/webhooks/${othersSubscriptionId}`, otherHooks.auth),
          );
          expect(kept.statusCode).toBe(200);
        },
      },
      {
        name: 'an unknown id',
        call: () => del(`/api/v1/webhooks/${UNKNOWN_ID}`, hooks.auth),
        status: 404,
      },
      {
        name: 'the wrong scope',
        call: () => del(`/api/v1/webhooks/${subscriptionId}`, reader.auth),
        status: 403,
      },
      {
        name: 'no token',
        call: () => del(`/api/v1/webhooks/${subscriptionId}`, {}),
        status: 401,
      },
    ],
    listWebhookDeliveries: [
      {
        name: 'the submitted application’s delivery, with its attempt',
        call: async () => {
          await deliveredOnce();
          return get(`/api/v1/webhooks/${subscriptionId}/deliveries`, hooks.auth);
        },
        status: 200,
        check: (response) => {
          const delivered = response
            .json()
            .find((delivery: { status: string }) => delivery.status === 'delivered');
          expect(delivered).toMatchObject({
            event_type: 'application.submitted',
            last_status_code: 204,
          });
          expect(delivered.attempt_log).toEqual([
            expect.objectContaining({ status_code: 204, replay: false }),
          ]);
        },
      },
      {
        name: 'another client’s',
        call: () => get(`/api/v1/webhooks/${othersSubscriptionId}/deliveries`, hooks.auth),
        status: 404,
      },
      {
        name: 'an unknown id',
        call: () => get(`/api/v1/webhooks/${UNKNOWN_ID}/deliveries`, hooks.auth),
        status: 404,
      },
      ...authFailures(
        () => `/api/v1/webhooks/${subscriptionId}/deliveries`,
        () => reader,
      ),
    ],
    replayWebhookDelivery: [
      {
        name: 'sent again with the same id, logged as a replay',
        call: async () => {
          const delivery = await deliveredOnce();
          return post(
            `/api/v1/webhooks/${subscriptionId}/deliveries/${encodeURIComponent(delivery.id)}/replay`,
            hooks.auth,
          );
        },
        status: 200,
        check: (response) => {
          const delivery = response.json();
          expect(delivery.attempt_log.at(-1)).toMatchObject({ replay: true, status_code: 204 });
          const sent = receiver.received.filter(
            (request) =>
              request.path === '/contract' && request.headers['webhook-id'] === delivery.id,
          );
          expect(sent.length).toBeGreaterThanOrEqual(2);
        },
      },
      {
        name: 'no such delivery',
        call: () =>
          post(`/api/v1/webhooks/${subscriptionId}/deliveries/msg_nothing/replay`, hooks.auth),
        status: 404,
      },
      {
        name: 'another client’s subscription',
        call: async () => {
          const delivery = await deliveredOnce();
          return post(
            `/api/v1/webhooks/${othersSubscriptionId}/deliveries/${encodeURIComponent(delivery.id)}/replay`,
            hooks.auth,
          );
        },
        status: 404,
      },
      {
        name: 'the wrong scope',
        call: () =>
          post(`/api/v1/webhooks/${subscriptionId}/deliveries/msg_nothing/replay`, reader.auth),
        status: 403,
      },
    ],
  };

  for (const [operationId, operationCases] of Object.entries(cases)) {
    for (const contractCase of operationCases) {
      it(`${operationId}: ${contractCase.name} (${contractCase.status})`, async () => {
        const call = await contractCase.call();
        const response = await app.inject(call);
        expect(response.statusCode, response.body.slice(0, 500)).toBe(contractCase.status);
        expectConforms(operationId, call, response);
        await contractCase.check?.(response);
        const statuses = exercised.get(operationId) ?? new Set<number>();
        statuses.add(response.statusCode);
        exercised.set(operationId, statuses);
      });
    }
  }

  it('serves the reference page without scripts', async () => {
    const response = await app.inject(get('/api/v1/reference'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).not.toMatch(/<script/i);
    for (const { operation } of Object.keys(cases).map(operationOf))
      expect(response.body).toContain(operation.operationId);
  });

  it('files an API call under an application only when the operation is about one', async () => {
    const client = await clientWith(['applications:read', 'webhooks:manage']);
    const hook = await subscribe(client, '/audited');
    for (const call of [
      get(`/api/v1/webhooks/${hook}`, client.auth),
      get(`/api/v1/webhooks/${hook}/deliveries`, client.auth),
      get(`/api/v1/applications/${submittedId}`, client.auth),
    ])
      expect((await app.inject(call)).statusCode).toBe(200);
    const calls = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api.call'), eq(auditEvents.actorId, client.id)));
    const byOperation = (operation: string) =>
      calls.filter((entry) => (entry.detail as { operation?: string }).operation === operation);
    for (const operation of ['createWebhook', 'getWebhook', 'listWebhookDeliveries'])
      expect(byOperation(operation), operation).toHaveLength(1);
    for (const operation of ['getWebhook', 'listWebhookDeliveries'])
      expect(byOperation(operation)[0]).toMatchObject({
        applicationId: null,
        detail: { operation, method: 'GET', subscriptionId: hook },
      });
    expect(byOperation('getApplication')).toEqual([
      expect.objectContaining({
        applicationId: submittedId,
        detail: { operation: 'getApplication', method: 'GET' },
      }),
    ]);
  });

  it('exercised every operation of the document, with a success and an error', () => {
    const inDocument = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect([...exercised.keys()].sort()).toEqual([...inDocument].sort());
    for (const [operationId, statuses] of exercised) {
      expect(
        [...statuses].some((status) => status < 300),
        operationId,
      ).toBe(true);
      expect(
        [...statuses].some((status) => status >= 400),
        operationId,
      ).toBe(true);
    }
  });

  describe('the change feed', () => {
    /** Every item after `cursor`, a page of `limit` at a time, and where the feed ended. */
    async function readAll(client: Client, cursor: string | null, limit = 2) {
      const ids: string[] = [];
      let next = cursor;
      for (;;) {
        const query = new URLSearchParams({ limit: String(limit) });
        if (next) query.set('cursor', next);
        const page = (await app.inject(get(`/api/v1/applications?${query}`, client.auth))).json();
        ids.push(...page.data.map((item: { id: string }) => item.id));
        next = page.next_cursor;
        if (!page.has_more) return { ids, cursor: next as string };
      }
    }

    /**
     * Reads from `cursor` until the test's own applications (`own`) stand as `expected`: other
     * applications in the feed belong to other tests, and a transaction elsewhere on the server
     * may hold a change back for a while.
     */
    async function readUntil(
      client: Client,
      cursor: string | null,
      own: readonly string[],
      expected: readonly string[],
    ) {
      let read = { ids: [] as string[], cursor: '' };
      await vi.waitFor(async () => {
        read = await readAll(client, cursor);
        expect(read.ids.filter((id) => own.includes(id))).toEqual(expected);
      }, POLL);
      return read;
    }
    const mine = (ids: readonly string[], own: readonly string[]) =>
      ids.filter((id) => own.includes(id));

    it(
      'pages in a stable order, and an application changed again moves to the end once',
      async () => {
        const client = await clientWith(['applications:read', 'applications:write']);
        const start = await readAll(client, null, 1000);
        const fresh = await insertApplications(app, `feed-${kind}`, [
          { status: 'submitted', submittedAt: '2026-11-04T10:00:00Z' },
          { status: 'submitted', submittedAt: '2026-11-04T11:00:00Z' },
          { status: 'submitted', submittedAt: '2026-11-04T12:00:00Z' },
        ]);
        const first = await readUntil(client, start.cursor, fresh, fresh);
        expect(mine((await readAll(client, first.cursor)).ids, fresh)).toEqual([]);

        const again = await app.inject(
          put(`/api/v1/applications/${fresh[0]}/sis-id`, client.auth, { sis_id: 'MOVED1' }),
        );
        expect(again.statusCode).toBe(200);
        await readUntil(client, start.cursor, fresh, [fresh[1], fresh[2], fresh[0]] as string[]);
        await readUntil(client, first.cursor, fresh, [fresh[0]] as string[]);
      },
      FEED_TEST_TIMEOUT,
    );

    it.runIf(kind === 'postgres')(
      'never skips a transaction that commits after a later one',
      async () => {
        const client = await clientWith(['applications:read', 'applications:write']);
        const own = await insertApplications(app, `held-${kind}`, [
          { status: 'submitted', submittedAt: '2026-11-05T10:00:00Z' },
          { status: 'submitted', submittedAt: '2026-11-05T11:00:00Z' },
        ]);
        const [early, late] = own as [string, string];
        const start = await readUntil(client, null, own, own);
        let whileHeld = { ids: [] as string[], cursor: '' };
        await db().transaction(async (tx) => {
          await tx.execute(
            sql`insert into checklist_marks (account_id, item_key, state, set_by_type, set_by_label)
                values (${early}, 'fee', 'received', 'staff', 'held')`,
          );
          const committed = await app.inject(
            put(`/api/v1/applications/${late}/sis-id`, client.auth, { sis_id: 'LATE1' }),
          );
          expect(committed.statusCode).toBe(200);
          whileHeld = await readAll(client, start.cursor);
        });
        // The committed change is shown at once; the open transaction's, at an earlier position,
        // follows when it commits, from the cursor that had already passed it.
        expect(mine(whileHeld.ids, own)).toEqual([late]);
        await readUntil(client, whileHeld.cursor, own, [early]);
      },
      FEED_TEST_TIMEOUT,
    );

    it.runIf(kind === 'postgres')(
      'never skips a change written earlier by a transaction that commits later',
      async () => {
        const client = await clientWith(['applications:read']);
        const own = await insertApplications(app, `inverted-${kind}`, [
          { status: 'submitted', submittedAt: '2026-11-06T10:00:00Z' },
          { status: 'submitted', submittedAt: '2026-11-06T11:00:00Z' },
        ]);
        const [first, second] = own as [string, string];
        const start = await readUntil(client, null, own, own);
        const mark = (id: string) =>
          sql`insert into checklist_marks (account_id, item_key, state, set_by_type, set_by_label)
              values (${id}, 'fee', 'waived', 'staff', 'inverted')`;
        // The older transaction writes its change after the younger one: its change has the
        // later position, and it commits while the younger one is still open.
        let wroteSecond: () => void = () => undefined;
        const secondWritten = new Promise<void>((resolve) => {
          wroteSecond = resolve;
        });
        let commitSecond: () => void = () => undefined;
        const secondMayCommit = new Promise<void>((resolve) => {
          commitSecond = resolve;
        });
        let younger: Promise<void> = Promise.resolve();
        try {
          await db().transaction(async (older) => {
            await older.execute(sql`select pg_current_xact_id()`);
            younger = db().transaction(async (tx) => {
              await tx.execute(mark(second));
              wroteSecond();
              await secondMayCommit;
            });
            await secondWritten;
            await older.execute(mark(first));
          });
          const whileYoungerOpen = await readUntil(client, start.cursor, own, [first]);
          commitSecond();
          await younger;
          await readUntil(client, whileYoungerOpen.cursor, own, [second]);
          await readUntil(client, start.cursor, own, [second, first]);
        } finally {
          commitSecond();
          await younger;
        }
      },
      FEED_TEST_TIMEOUT,
    );
  });
});
