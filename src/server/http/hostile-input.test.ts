import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSTORABLE_TEXT_MESSAGE } from '../../shared/validation/storable-text';
import { rowsOf } from '../db/database';
import { API_PREFIX } from '../integration/api-v1-plugin';
import { STRONG_PASSWORD, signedInApplicant } from '../test/accounts-helpers';
import { listRoutes } from '../test/route-list';
import { enrolMember } from '../test/staff-sign-in';
import { buildTestApp, devToolsPath, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { MAX_JSON_DEPTH, NESTED_TOO_DEEPLY_MESSAGE } from './json-body';

const NUL = '\u0000';
const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';

/**
 * A fingerprint of each table. Rate-limit counters may move on any request that reached a limit,
 * and a session's last-seen mark on any signed-in request; nothing else may.
 */
async function databaseFingerprint(app: FastifyInstance): Promise<Record<string, string>> {
  const db = testDatabaseOf(app);
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not in ('rate_limits', 'sessions', '__drizzle_migrations',
          'staff_sessions', 'staff_members', 'audit_events')
      order by table_name`),
  ).map((row) => row.name);
  const parts = tables.map(
    (name) =>
      `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from "${name}" t) as "${name}"`,
  );
  parts.push(
    `(select md5(coalesce(string_agg(token_hash || account_id || coalesce(revoked_at::text, ''), '|' order by token_hash), '')) from sessions) as sessions`,
  );
  parts.push(
    `(select md5(coalesce(string_agg(token_hash || staff_id || stage || coalesce(revoked_at::text, ''), '|' order by token_hash), '')) from staff_sessions) as staff_sessions`,
  );
  // A refused sign-in or code counts against the member and is on record: that is its point.
  parts.push(
    `(select md5(coalesce(string_agg(id || email || role || password_hash || coalesce(totp_secret, '') || coalesce(disabled_at::text, ''), '|' order by id), '')) from staff_members) as staff_members`,
  );
  parts.push(
    `(select md5(coalesce(string_agg(seq::text || action, '|' order by seq), '')) from audit_events where action not in ('staff.sign_in_failed', 'staff.second_factor_failed')) as audit_events`,
  );
  const [row] = rowsOf<Record<string, string>>(
    await db.execute(sql.raw(`select ${parts.join(', ')}`)),
  );
  return row ?? {};
}

/** Percent-encodes text as WTF-8, so a lone surrogate reaches the server as its three bytes. */
function percentEncode(text: string): string {
  let encoded = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      encoded += bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      encoded += encodeURIComponent(char);
    }
  }
  return encoded;
}

describe.each(databaseKinds)('hostile input on %s', (kind) => {
  let app: FastifyInstance;
  let cookie: string;
  let staffCookie: string;
  let counter = 0;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    cookie = await signedInApplicant(app, `hostile.${kind}@example.edu`);
    staffCookie = (await enrolMember(app, `hostile-admin.${kind}@staff.example.edu`, 'admin'))
      .cookie;
  });
  afterAll(async () => {
    await app.close();
  });

  const send = (options: InjectOptions) =>
    app.inject({ ...options, headers: { cookie, ...options.headers } });

  /** Sends the request and asserts 400 naming the unstorable text, with nothing changed. */
  async function expectRefusedUnchanged(options: InjectOptions, errorKey: string) {
    const before = await databaseFingerprint(app);
    const response = await send(options);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors?.[errorKey], response.body).toEqual([UNSTORABLE_TEXT_MESSAGE]);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await databaseFingerprint(app)).toEqual(before);
  }

  it('refuses a NUL in the username of every account call with 400', async () => {
    const username = `ab${NUL}c${++counter}@example.edu`;
    const calls: Array<[string, object]> = [
      ['/public/signup', { username, password: STRONG_PASSWORD }],
      ['/public/login', { username, password: STRONG_PASSWORD }],
      ['/public/confirm', { username, code: '123456' }],
      ['/public/resend-confirm', { username }],
      ['/public/forgot-password', { username }],
    ];
    for (const [url, payload] of calls) {
      await expectRefusedUnchanged({ method: 'POST', url, payload }, 'username');
    }
  });

  it('refuses a NUL in a file key, and in lookup text and ids', async () => {
    await expectRefusedUnchanged(
      {
        method: 'POST',
        url: '/api/pdf/document-answer/hs_transcript',
        payload: { file_key: `uploads/${NUL}x`, file_name: 'a.pdf' },
      },
      'file_key',
    );
    for (const query of ['text', 'id']) {
      await expectRefusedUnchanged(
        { url: `/lookup/find?category=hs_ceeb&${query}=lincoln%00` },
        `query.${query}`,
      );
    }
  });

  it('refuses a NUL or a lone surrogate anywhere in a validation report', async () => {
    for (const bad of [NUL, LONE_HIGH, LONE_LOW, `x${LONE_HIGH}y`]) {
      await expectRefusedUnchanged(
        { method: 'POST', url: '/api/validations', payload: { errors: { first_name: [bad] } } },
        'errors.first_name.0',
      );
      await expectRefusedUnchanged(
        { method: 'POST', url: '/api/validations', payload: { errors: { [`k${bad}`]: ['x'] } } },
        `errors.k${bad}`,
      );
    }
  });

  it('refuses a deeply nested body with 400 on every route that takes one, signed in or not', async () => {
    const bodies = [
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      `${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}`,
      `{"answers":{"first_name":${'['.repeat(MAX_JSON_DEPTH)}"x"${']'.repeat(MAX_JSON_DEPTH)}}}`,
    ];
    const routes = listRoutes(app).filter(
      (route) => route.url !== '*' && !route.methods.includes('GET'),
    );
    expect(routes.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/api/answer', '/public/login', '/staff/api/sign-in']),
    );
    const refused = new Set<string>();
    for (const route of routes) {
      const method = route.methods[0] ?? 'POST';
      const path = route.url.replace(/:[a-z_]+/g, 'hs_transcript');
      const url = path.startsWith('/test/') || path.startsWith('/dev/') ? devToolsPath(path) : path;
      for (const viewer of [undefined, `${cookie}; ${staffCookie}`]) {
        for (const payload of bodies) {
          const before = await databaseFingerprint(app);
          const response = await app.inject({
            method,
            url,
            payload,
            headers: { 'content-type': 'application/json', ...(viewer ? { cookie: viewer } : {}) },
          });
          const what = `${method} ${url} ${viewer ? 'signed in' : 'anonymous'} (${payload.length} characters)`;
          // A route that needs another session turns the caller away before reading the body.
          if (response.statusCode === 401 || response.statusCode === 403) continue;
          expect(response.statusCode, `${what} -> ${response.body}`).toBe(400);
          // The integrators' API answers problem details (RFC 9457) where the others say `message`.
          if (route.url.startsWith(API_PREFIX))
            expect(response.json(), what).toMatchObject({
              status: 400,
              detail: NESTED_TOO_DEEPLY_MESSAGE,
            });
          else expect(response.json(), what).toEqual({ message: NESTED_TOO_DEEPLY_MESSAGE });
          refused.add(`${viewer ? 'signed in' : 'anonymous'} ${method} ${route.url}`);
          expect(await databaseFingerprint(app), `${what} changed the database`).toEqual(before);
        }
      }
    }
    expect([...refused]).toEqual(
      expect.arrayContaining([
        ...[
          'PUT /api/answer',
          'PUT /api/last-page',
          'POST /api/web-status',
          'POST /api/validations',
          'PUT /api/add-another',
          'PUT /api/tabs',
          'POST /api/presigned-url',
          'POST /api/pdf/document-answer/:key',
          'PUT /staff/api/applications/:applicationId/checklist/:item',
        ].map((call) => `signed in ${call}`),
        ...[
          'POST /public/signup',
          'POST /public/login',
          'POST /public/confirm',
          'POST /public/resend-confirm',
          'POST /public/forgot-password',
          'POST /public/reset-password',
          'POST /staff/api/sign-in',
        ].map((call) => `anonymous ${call}`),
      ]),
    );
  });

  it('answers no 5xx and changes nothing it refuses, on every route, whatever is sent', async () => {
    // Left out: the catch-all 405, log-out (it would end the session the rest relies on) and
    // GET /api/pdf, which reads no input and starts a PDF whose job writes while later requests run.
    const inputless = new Set(['*', '/api/logout', '/api/pdf', '/staff/api/sign-out']);
    const routes = listRoutes(app).filter((route) => !inputless.has(route.url));
    expect(routes.length).toBeGreaterThan(25);
    const hostileText = fc.oneof(
      fc.constantFrom(
        NUL,
        LONE_HIGH,
        LONE_LOW,
        `a${NUL}b`,
        '\u202Eexe.pdf',
        '\uFEFF',
        '__proto__',
        'constructor',
        '../../etc/passwd',
        "'; drop table accounts; --",
        '%00',
        'x'.repeat(5000),
        '',
        ' ',
        'NaN',
        '1e309',
        `hostile${Math.random()}@example.edu`,
        'hs_transcript',
        'ANSWERED',
      ),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ maxLength: 20 }),
    );
    const knownKeys = fc.constantFrom(
      'username',
      'password',
      'code',
      'confirm_password',
      'id',
      'answer_key',
      'file_key',
      'file_name',
      'last_page',
      'tab_id',
      'chosen_tab',
      'button_id',
      'num_components',
      'web_status',
      'errors',
      'email',
      'ttl',
      'answers',
      'label',
      'first_name',
      'gender',
      'birth_date',
      'hs_transcript',
      '__proto__',
      'constructor',
    );
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        hostileText,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(knownKeys, hostileText), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    // Around the bound and far past it, in arrays, objects and inside an otherwise valid body.
    const deeplyNested = fc
      .record({
        depth: fc.oneof(
          fc.integer({ min: MAX_JSON_DEPTH - 2, max: MAX_JSON_DEPTH + 2 }),
          fc.integer({ min: 1_000, max: 60_000 }),
        ),
        open: fc.constantFrom('[', '{"a":', '{"answers":[', '[{"x":'),
        within: fc.constantFrom('', '{"username":"x","answers":'),
      })
      .map(({ depth, open, within }) => {
        const close = [...open]
          .filter((char) => char === '[' || char === '{')
          .reverse()
          .map((char) => (char === '[' ? ']' : '}'))
          .join('');
        const levels = Math.ceil(depth / close.length);
        const inner = `${open.repeat(levels)}1${close.repeat(levels)}`;
        return within ? `${within}${inner}}` : inner;
      });
    const body = fc.oneof(
      fc.dictionary(fc.oneof(knownKeys, hostileText), value, { maxKeys: 6 }).map(JSON.stringify),
      value.map((v) => JSON.stringify(v) ?? 'null'),
      fc.constantFrom(
        '{',
        '{"username":',
        '[]',
        'null',
        '""',
        '{"a":1}}',
        '\u0000',
        '{"__proto__":{"x":1}}',
      ),
      fc.string({ unit: 'binary', maxLength: 60 }),
      deeplyNested,
    );
    const request = fc.record({
      route: fc.constantFrom(...routes),
      param: hostileText,
      query: fc.dictionary(
        fc.oneof(
          knownKeys,
          fc.constantFrom('category', 'text', 'max_results', 'token', 'service_token'),
        ),
        hostileText,
        { maxKeys: 3 },
      ),
      body,
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
      signedIn: fc.constantFrom('nobody', 'applicant', 'staff', 'both'),
    });
    const cookies = {
      nobody: undefined,
      applicant: cookie,
      staff: staffCookie,
      both: `${cookie}; ${staffCookie}`,
    };

    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const method = input.route.methods[0] ?? 'GET';
        const path = input.route.url.replace(/:[a-z_]+/g, percentEncode(input.param));
        const query = Object.entries(input.query)
          .map(([name, text]) => `${percentEncode(name)}=${percentEncode(text)}`)
          .join('&');
        const url =
          path.startsWith('/test/') || path.startsWith('/dev/')
            ? devToolsPath(query ? `${path}?${query}` : path)
            : query
              ? `${path}?${query}`
              : path;
        const hasBody = !['GET', 'HEAD'].includes(method);
        const before = await databaseFingerprint(app);
        const response = await app.inject({
          method,
          url,
          headers: {
            ...(cookies[input.signedIn] ? { cookie: cookies[input.signedIn] } : {}),
            ...(hasBody ? { 'content-type': input.contentType } : {}),
          },
          ...(hasBody ? { payload: input.body } : {}),
        });
        const what = `${method} ${url} ${input.contentType} ${input.body.slice(0, 200)}`;
        expect(response.statusCode, `${what} -> ${response.body.slice(0, 300)}`).toBeLessThan(500);
        if (response.statusCode >= 400 && response.statusCode !== 429) {
          expect(await databaseFingerprint(app), `${what} changed the database`).toEqual(before);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });
});
