import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LOOKUP_MESSAGES } from '../../shared/lookup/lookup-api';
import type { LookupRecord, LookupResult } from '../../shared/lookup/lookup-schemas';
import type { DatabaseHandle } from '../db/database';
import { registerErrorHandling } from '../http/errors-plugin';
import { zodValidatorCompiler } from '../http/zod-validation';
import { createRateLimiter } from '../rate-limit/rate-limiter';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import type { AddressProvider } from './address-provider';
import { countList } from './list-search';
import { importLookupCsv } from './lookup-import';
import { ADDRESSES_UNAVAILABLE_MESSAGE, LOOKUP_LIMIT, lookupRoutes } from './lookup-routes';

describe.each(databaseKinds)('GET /lookup/find on %s', (kind) => {
  let app: FastifyInstance;
  let address = 0;
  // Each test asks from an address of its own, so the per-address limit is its own too.
  const find = (query: Record<string, string | string[]>, from = `10.1.0.${++address}`) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      for (const one of [value].flat()) search.append(key, one);
    return app.inject({ url: `/lookup/find?${search}`, remoteAddress: from });
  };
  const results = async (query: Record<string, string>) => {
    const response = await find(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LookupResult[]>();
  };
  const names = async (text: string, category = 'hs_ceeb') =>
    (await results({ text, category, max_results: '5' })).map((result) => result.text);

  beforeAll(async () => {
    app = await buildTestApp(kind, { defaultLookupLists: true });
    // The default lists are needed here: fail loudly when they are missing.
    expect(await countList(testDatabaseOf(app), 'hs_ceeb')).toBeGreaterThan(0);
    expect(await countList(testDatabaseOf(app), 'college_ceeb')).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers at most max_results results of text, id and sub_text, without a session', async () => {
    const response = await find({ text: 'lincoln high', category: 'hs_ceeb', max_results: '5' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const list = response.json<LookupResult[]>();
    expect(list).toHaveLength(5);
    for (const result of list) {
      expect(Object.keys(result).sort()).toEqual(['id', 'sub_text', 'text']);
      expect(result.text).toBe('Lincoln High School');
    }
    expect(list[0]?.sub_text).toMatch(/^[A-Za-z .'-]+, [A-Z]{2} \d{5} · CEEB \d{6}$/);
    expect(await results({ text: 'lincoln', category: 'hs_ceeb', max_results: '2' })).toHaveLength(
      2,
    );
    // Without max_results, the spec's 5.
    expect(await results({ text: 'high', category: 'hs_ceeb' })).toHaveLength(5);
  });

  it('ranks a name that starts with the text before one that holds it', async () => {
    const found = await names('stuyvesant');
    expect(found.slice(0, 2)).toEqual([
      'Stuyvesant High School',
      'Bedford Stuyvesant Preparatory High School',
    ]);
    const brooklyn = await names('brooklyn tech');
    expect(brooklyn[0]).toBe('Brooklyn Technical High School');
  });

  it('ranks the typed code first, then codes that start with it', async () => {
    const exact = await results({ text: '334070', category: 'hs_ceeb' });
    expect(exact[0]).toMatchObject({ id: '334070', text: 'Stuyvesant High School' });
    const prefix = await results({ text: '3340', category: 'hs_ceeb' });
    const codes = prefix.map((result) => /CEEB (\d+)$/.exec(result.sub_text)?.[1]);
    expect(codes.every((code) => code?.startsWith('3340'))).toBe(true);
    expect(codes).toEqual([...codes].sort());
  });

  it('finds a school by its name and its city together', async () => {
    const found = await results({ text: 'lincoln portland', category: 'hs_ceeb' });
    expect(found[0]).toMatchObject({ text: 'Lincoln High School' });
    expect(found[0]?.sub_text).toMatch(/^Portland, OR/);
  });

  it('finds a near spelling when nothing matches exactly', async () => {
    expect((await names('Stuyvesent'))[0]).toBe('Stuyvesant High School');
  });

  it('treats the text literally and answers an empty list when nothing is near', async () => {
    expect(await names('100%_\\')).toEqual([]);
    expect(await names('qqqqzzzz')).toEqual([]);
    expect(await names('   ')).toEqual([]);
  });

  it('searches each list apart', async () => {
    const colleges = await names('university of florida', 'college_ceeb');
    expect(colleges[0]).toBe('University of Florida');
    expect(await names('university of florida', 'hs_ceeb')).not.toContain('University of Florida');
  });

  it('answers a record whose fields map to answer keys', async () => {
    const [first] = await results({ text: 'auburn university', category: 'college_ceeb' });
    const response = await find({ id: first?.id ?? '', category: 'college_ceeb' });
    expect(response.statusCode).toBe(200);
    expect(response.json<LookupRecord>()).toEqual({
      id: '1005',
      name: 'Auburn University',
      address_line_1: 'Auburn, Alabama',
      city: 'Auburn University',
      state: 'AL',
      zip: '36849',
      ceeb: '1005',
      country: 'USA',
    });
    const school = await find({ id: '334070', category: 'hs_ceeb' });
    expect(school.json<LookupRecord>()).toMatchObject({
      name: 'Stuyvesant High School',
      address_line_1: '',
      city: 'New York',
      state: 'NY',
      zip: '10282',
      ceeb: '334070',
    });
  });

  it('answers 404 for an id the list does not hold, or one from another list', async () => {
    for (const query of [
      { id: 'no-such-school', category: 'hs_ceeb' },
      { id: '1005', category: 'hs_ceeb' },
    ]) {
      const response = await find(query);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: LOOKUP_MESSAGES.notFound });
    }
  });

  it('suggests city, state and ZIP code for an address, keeping the street', async () => {
    const list = await results({ text: '12 Main St, 33314', category: 'address' });
    expect(list).toEqual([
      {
        text: '12 Main St, Fort Lauderdale, FL 33314',
        id: 'zip:33314|12 Main St',
        sub_text: 'ZIP code',
      },
    ]);
    const response = await find({ id: list[0]?.id ?? '', category: 'address' });
    expect(response.json<LookupRecord>()).toEqual({
      id: 'zip:33314|12 Main St',
      name: '12 Main St, Fort Lauderdale, FL 33314',
      address_line_1: '12 Main St',
      city: 'Fort Lauderdale',
      state: 'FL',
      zip: '33314',
      ceeb: '',
      country: 'USA',
    });
    const unknown = await find({ id: 'zip:00000', category: 'address' });
    expect(unknown.statusCode).toBe(404);
  });

  it.each([
    ['no category', { text: 'x' }, 'category'],
    ['an unknown category', { text: 'x', category: 'colleges' }, 'category'],
    ['neither text nor id', { category: 'hs_ceeb' }, '_'],
    ['both text and id', { text: 'x', id: '1', category: 'hs_ceeb' }, '_'],
    ['an unknown parameter', { text: 'x', category: 'hs_ceeb', limit: '5' }, 'limit'],
    ['max_results above 5', { text: 'x', category: 'hs_ceeb', max_results: '6' }, 'max_results'],
    ['max_results 0', { text: 'x', category: 'hs_ceeb', max_results: '0' }, 'max_results'],
    [
      'max_results not a number',
      { text: 'x', category: 'hs_ceeb', max_results: 'five' },
      'max_results',
    ],
    [
      'a fractional max_results',
      { text: 'x', category: 'hs_ceeb', max_results: '2.5' },
      'max_results',
    ],
    ['text too long', { text: 'x'.repeat(101), category: 'hs_ceeb' }, 'text'],
    ['text given twice', { text: ['a', 'b'], category: 'hs_ceeb' }, 'text'],
    ['an empty id', { id: '', category: 'hs_ceeb' }, 'id'],
  ])('refuses %s with 400', async (_case, query, key) => {
    const response = await find(query);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: Record<string, string[]> }>();
    expect(body.message).toBe('Some of the information sent is not valid.');
    expect(Object.keys(body.errors)).toContain(key);
  });

  it('limits each address, answering 429 with Retry-After', async () => {
    // The limit counts per fixed window: on a slow machine the requests could straddle two. The
    // clock is held a second into a window so that they all count in one.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1000));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const from = '10.9.9.9';
    const query = { text: '', category: 'hs_ceeb' };
    for (let i = 0; i < LOOKUP_LIMIT.max; i++) {
      const response = await find(query, from);
      expect(response.statusCode).toBe(200);
    }
    const limited = await find(query, from);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Too many attempts\./);
    expect((await find(query, '10.9.9.10')).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('the lookup plugin on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function pluginApp(options: { addresses?: AddressProvider; importFrom?: string }) {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(zodValidatorCompiler);
    registerErrorHandling(app);
    const failing: AddressProvider = {
      suggest: () => Promise.reject(new Error('geocoder down')),
      find: () => Promise.reject(new Error('geocoder down')),
    };
    await app.register(lookupRoutes, {
      db: database.db,
      limiter: createRateLimiter(database.db),
      addresses: options.addresses ?? failing,
      ...(options.importFrom ? { defaultListsDir: options.importFrom } : {}),
    });
    await app.ready();
    return app;
  }

  it('answers 503 when the address provider fails, so the form lets the applicant type', async () => {
    const app = await pluginApp({});
    try {
      for (const url of [
        '/lookup/find?text=12%20Main&category=address',
        '/lookup/find?id=x&category=address',
      ]) {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ message: ADDRESSES_UNAVAILABLE_MESSAGE });
      }
    } finally {
      await app.close();
    }
  });

  it('imports default lists into empty categories before it is ready when asked to', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lookup-lists-'));
    writeFileSync(path.join(dir, 'high_schools.csv'), 'ceeb,name\n000001,First School\n');
    writeFileSync(path.join(dir, 'colleges.csv'), 'ceeb,name\n0001,First College\n');
    await importLookupCsv(database.db, 'college_ceeb', 'ceeb,name\n0002,Kept College\n');
    const app = await pluginApp({ importFrom: dir });
    try {
      expect(await countList(database.db, 'hs_ceeb')).toBe(1);
      const response = await app.inject({ url: '/lookup/find?text=first&category=hs_ceeb' });
      expect(response.json()).toEqual([
        { text: 'First School', id: '000001', sub_text: 'CEEB 000001' },
      ]);
      // A list that is already there is never replaced.
      const college = await app.inject({ url: '/lookup/find?text=kept&category=college_ceeb' });
      expect(college.json<LookupResult[]>().map((result) => result.text)).toEqual(['Kept College']);
    } finally {
      await app.close();
    }
  });
});
