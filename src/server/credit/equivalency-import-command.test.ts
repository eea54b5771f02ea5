import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase } from '../test/test-database';
import { createEquivalenciesStore } from './equivalencies-store';
import { EQUIVALENCY_IMPORT_USAGE, equivalencyImportCommand } from './equivalency-import-command';

const HEADER = 'sending_ceeb,subject,number,title,units,local_course,local_units,kind,satisfies';

describe('npm run equivalencies:import', () => {
  let database: DatabaseHandle;
  const dir = mkdtempSync(path.join(tmpdir(), 'equivalencies-import-'));
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, text);
    return full;
  };
  const store = () => createEquivalenciesStore(database.db);

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(equivalencyImportCommand, argv, {
      env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dir }),
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      database,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    await database.close();
  });

  it('imports a file and says what it stored, by the command line', async () => {
    const csv = file(
      'tables.csv',
      `${HEADER}\n4144,ENGL,1A,Composition,3,ENGL 100,3,course,GE-A2\n4144,PE,1,Tennis,1,,0,no_credit,\n5074,MATH,1,Calculus,4,MATH 150,4,course,\n`,
    );
    const result = await run(csv);
    expect(result).toMatchObject({
      code: 0,
      out: 'Imported 3 rows for 2 colleges: 4144 (2), 5074 (1) from tables.csv.',
    });
    const tables = await store().listTables();
    expect(tables.map((table) => [table.ceeb, table.rowCount, table.importedByLabel])).toEqual(
      expect.arrayContaining([
        ['4144', 2, 'command line'],
        ['5074', 1, 'command line'],
      ]),
    );
  });

  it('checks a file without storing it', async () => {
    const csv = file('check.csv', `${HEADER}\n9999,ENGL,1A,Composition,3,ENGL 100,3,course,\n`);
    const result = await run('--check', csv);
    expect(result).toMatchObject({
      code: 0,
      out: 'check.csv: 1 rows for 1 college: 9999 (1), ready to import.',
    });
    expect((await store().tablesFor(['9999'])).size).toBe(0);
  });

  it('refuses a bad file with every problem listed, keeping the old table', async () => {
    const csv = file(
      'bad.csv',
      `${HEADER}\n4144,ENGL,1A,Composition,x,ENGL 100,3,course,\n4144,ENGL,1A,Again,3,ENGL 100,3,nope,\n`,
    );
    const result = await run(csv);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      [
        'Nothing was imported:',
        '  line 2: units "x" is not a number (write it like 3 or 4.5, at most 2 decimals).',
        '  line 3: kind "nope" is not one of: course, elective, no_credit.',
        '  line 3: ENGL 1A of 4144 repeats line 2.',
      ].join('\n'),
    );
    expect((await store().tablesFor(['4144'])).get('4144')?.size).toBe(2);
  });

  it.each([
    [[], /Name exactly one CSV file to import \(got 0\)/],
    [['a.csv', 'b.csv'], /got 2/],
    [['--force', 'a.csv'], /Unknown option '--force'/],
  ])('refuses the arguments %j with the usage', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain(EQUIVALENCY_IMPORT_USAGE);
  });

  it('says when the file cannot be read', async () => {
    const result = await run(path.join(dir, 'missing.csv'));
    expect(result).toMatchObject({
      code: 1,
      err: `Cannot read ${path.join(dir, 'missing.csv')}: ENOENT.`,
    });
  });
});
