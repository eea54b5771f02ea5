import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInApplicant } from '../test/accounts-helpers';
import { buildTestApp } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { jsonNestsDeeperThan } from './json-body';

const JSON_WITHOUT_BODY = { 'content-type': 'application/json', 'content-length': '0' };

describe.each(databaseKinds)('calls that declare JSON but send no body on %s', (kind) => {
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    cookie = await signedInApplicant(app, `empty-body.${kind}@example.edu`);
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['GET', '/api/profile'],
    ['POST', '/api/keep-alive'],
    ['POST', '/api/submit'],
    ['DELETE', '/api/pdf/document-answer/hs_transcript'],
    ['DELETE', '/api/document-answer/hs_transcript'],
  ] as const)(
    'are answered as without the header when the route takes none: %s %s',
    async (method, url) => {
      const plain = await app.inject({ method, url, headers: { cookie } });
      const declared = await app.inject({ method, url, headers: { cookie, ...JSON_WITHOUT_BODY } });
      expect(declared.statusCode, declared.body).toBe(plain.statusCode);
      expect(declared.statusCode, declared.body).toBeLessThan(500);
      expect(declared.body).not.toMatch(/body is empty/);
    },
  );

  it('still refuses an empty body where the route needs one', async () => {
    const tabs = await app.inject({
      method: 'PUT',
      url: '/api/tabs',
      headers: { cookie, ...JSON_WITHOUT_BODY },
    });
    expect(tabs.statusCode).toBe(400);
    expect(tabs.json()).toEqual({ message: 'The request body is empty; send a JSON object.' });
    const answers = await app.inject({
      method: 'PUT',
      url: '/api/answer',
      headers: { cookie, ...JSON_WITHOUT_BODY },
    });
    expect(answers.statusCode).toBe(400);
  });

  it('still parses a body that is sent, and refuses one that is not JSON', async () => {
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/answer',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ first_name: 'Ada' }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const broken = await app.inject({
      method: 'POST',
      url: '/api/submit',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{ nope',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });
});

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects inside one another', () => {
    expect(jsonNestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('[[],[],[],[]]', 2)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('["\\"[[[[", "\\\\"]', 1)).toBe(false);
    expect(jsonNestsDeeperThan('["\\\\", [[]]]', 2)).toBe(true);
  });
});
