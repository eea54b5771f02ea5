import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EQUIVALENCY_REFUSED_MESSAGE,
  type EquivalencyTableView,
  equivalencyUrls,
} from '../../shared/credit/equivalency-api';
import { auditEvents, lookupRecords } from '../db/schema';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';
import { createEquivalenciesStore } from './equivalencies-store';

const HEADER = 'sending_ceeb,subject,number,title,units,local_course,local_units,kind,satisfies';
const OLD_4144 = [
  HEADER,
  '4144,ENGL,1A,Composition,3,ENGL 100,3,course,GE-A2',
  '4144,CHEM,1A,General Chemistry,5,CHEM 111,5,course,GE-B1',
].join('\n');
const OLD_5074 = `${HEADER}\n5074,MATH,1,Calculus I,4,MATH 150,4,course,MAJOR-CS-CALC1\n`;

describe.each(databaseKinds)('equivalency tables in the console on %s', (kind) => {
  let app: FastifyInstance;
  let admin: SignedInStaff;
  let reader: SignedInStaff;
  let evaluator: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    admin = await signedInStaff(app, { role: 'admin' });
    reader = await signedInStaff(app, { role: 'reader' });
    evaluator = await signedInStaff(app, { role: 'evaluator' });
    await testDatabaseOf(app)
      .insert(lookupRecords)
      .values({ category: 'college_ceeb', id: '4144', name: 'De Anza College', ceeb: '4144' });
  });
  afterAll(async () => {
    await app.close();
  });

  const store = () => createEquivalenciesStore(testDatabaseOf(app));
  const send = (url: string, csv: string, fileName = 'table.csv', member: SignedInStaff = admin) =>
    app.inject({
      method: 'POST',
      url: `${url}?file_name=${encodeURIComponent(fileName)}`,
      headers: { cookie: member.cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
  const importFile = (csv: string, fileName?: string, member?: SignedInStaff) =>
    send(equivalencyUrls.tables, csv, fileName, member);
  const list = async () =>
    (
      await app.inject({
        method: 'GET',
        url: equivalencyUrls.tables,
        headers: { cookie: admin.cookie },
      })
    ).json() as EquivalencyTableView[];
  /** Each college's course keys, as mapping reads them. */
  const keys = async (...ceebs: string[]) => {
    const tables = await store().tablesFor(ceebs);
    return Object.fromEntries(ceebs.map((ceeb) => [ceeb, [...(tables.get(ceeb)?.keys() ?? [])]]));
  };

  it('imports a file of two colleges, lists them and records it in the audit trail', async () => {
    const response = await importFile(`${OLD_4144}\n${OLD_5074.split('\n')[1]}\n`, 'first.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      colleges: [
        { ceeb: '4144', rows: 2 },
        { ceeb: '5074', rows: 1 },
      ],
      rows: 3,
      file_name: 'first.csv',
    });
    const tables = await list();
    const byCeeb = Object.fromEntries(tables.map((table) => [table.ceeb, table]));
    expect(byCeeb['4144']).toMatchObject({
      name: 'De Anza College',
      row_count: 2,
      file_name: 'first.csv',
      imported_by_label: admin.email.split('@')[0],
    });
    expect(byCeeb['5074']).toMatchObject({ name: null, row_count: 1 });
    const table = (await store().tablesFor(['4144'])).get('4144');
    expect(table?.get('ENGL 1A')).toEqual({
      sendingCeeb: '4144',
      subject: 'ENGL',
      number: '1A',
      title: 'Composition',
      units: 3,
      localCourse: 'ENGL 100',
      localUnits: 3,
      kind: 'course',
      satisfies: ['GE-A2'],
      line: 2,
    });
    const [event] = await testDatabaseOf(app)
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'equivalencies.imported'));
    expect(event?.detail).toEqual({
      colleges: [
        { ceeb: '4144', rows: 2 },
        { ceeb: '5074', rows: 1 },
      ],
      rows: 3,
      file_name: 'first.csv',
    });
  });

  it('stores text as it was written: quotes, braces, backslashes, commas, accents, NULL', async () => {
    const title = 'Intro: "Sets", {braces} \\ back\\slash, café NULL ∑ 😀';
    const csv = `${HEADER}\n7777,NULL,1,"${title.replace(/"/g, '""')}",3,"A ""B"", {C}",3,course,\n`;
    expect((await importFile(csv, 'text.csv')).statusCode).toBe(200);
    const row = (await store().tablesFor(['7777'])).get('7777')?.get('NULL 1');
    expect(row).toMatchObject({ subject: 'NULL', title, localCourse: 'A "B", {C}' });
  });

  it('checks a file without storing it', async () => {
    const response = await send(
      equivalencyUrls.check,
      `${HEADER}\n4144,HIST,17A,US History,3,HIST 110,3,course,\n`,
      'check.csv',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      colleges: [{ ceeb: '4144', rows: 1 }],
      rows: 1,
      file_name: 'check.csv',
    });
    expect((await keys('4144'))['4144']).toEqual(['ENGL 1A', 'CHEM 1A']);
  });

  it("replaces a college's table and leaves the others", async () => {
    const response = await importFile(
      `${HEADER}\n4144,HIST,17A,US History,3,HIST 110,3,course,GE-D\n`,
      'second.csv',
    );
    expect(response.statusCode).toBe(200);
    expect(await keys('4144', '5074')).toEqual({ '4144': ['HIST 17A'], '5074': ['MATH 1'] });
    const byCeeb = Object.fromEntries((await list()).map((table) => [table.ceeb, table]));
    expect(byCeeb['4144']).toMatchObject({ row_count: 1, file_name: 'second.csv' });
    expect(byCeeb['5074']).toMatchObject({ row_count: 1, file_name: 'first.csv' });
  });

  it.each([
    [
      'missing columns',
      'sending_ceeb,subject,number\n4144,ENGL,1\n',
      /^the header has no "title", "units", "local_course", "local_units", "kind" columns; line 1 \(the header\) has: sending_ceeb, subject, number\.$/,
    ],
    [
      'units that are not a number',
      `${HEADER}\n4144,ENGL,1A,Composition,three,ENGL 100,3,course,\n`,
      /^line 2: units "three" is not a number/,
    ],
    [
      'a kind not in the list',
      `${HEADER}\n4144,ENGL,1A,Composition,3,ENGL 100,3,equivalent,\n`,
      /^line 2: kind "equivalent" is not one of: course, elective, no_credit\.$/,
    ],
    [
      'a repeated row',
      `${HEADER}\n4144,ENGL,1A,Composition,3,ENGL 100,3,course,\n4144,engl,1a,Again,3,ENGL 100,3,course,\n`,
      /^line 3: engl 1a of 4144 repeats line 2\.$/,
    ],
    [
      'a NUL',
      `${HEADER}\n4144,ENGL,1A,Compo\u0000sition,3,ENGL 100,3,course,\n`,
      /^line 2: title holds control characters or is not text\.$/,
    ],
    [
      'a megabyte of random bytes',
      randomBytes(1024 * 1024).toString('latin1'),
      /^the file is not a CSV text file \(UTF-8\)/,
    ],
  ])('refuses %s with every problem, keeping the old table', async (_name, csv, problem) => {
    const response = await importFile(csv, 'bad.csv');
    expect(response.statusCode).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      message: EQUIVALENCY_REFUSED_MESSAGE,
      problems: [expect.stringMatching(problem)],
    });
    const checked = await send(equivalencyUrls.check, csv, 'bad.csv');
    expect(checked.statusCode).toBe(400);
    expect(await keys('4144', '5074')).toEqual({ '4144': ['HIST 17A'], '5074': ['MATH 1'] });
  });

  it('refuses 10 MB of random bytes as too large, keeping the old table', async () => {
    const response = await importFile(randomBytes(10 * 1024 * 1024).toString('latin1'));
    expect(response.statusCode).toBe(413);
    expect(await keys('4144')).toEqual({ '4144': ['HIST 17A'] });
  });

  it('takes only a CSV body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: equivalencyUrls.tables,
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      payload: { csv: OLD_4144 },
    });
    expect(response.statusCode).toBe(415);
  });

  it.each([
    ['a reader', () => reader],
    ['an evaluator', () => evaluator],
  ])('refuses %s', async (_name, member) => {
    expect((await importFile(OLD_4144, 'x.csv', member())).statusCode).toBe(403);
    expect((await send(equivalencyUrls.check, OLD_4144, 'x.csv', member())).statusCode).toBe(403);
    const listed = await app.inject({
      method: 'GET',
      url: equivalencyUrls.tables,
      headers: { cookie: member().cookie },
    });
    expect(listed.statusCode).toBe(403);
    expect(await keys('4144')).toEqual({ '4144': ['HIST 17A'] });
  });
});
