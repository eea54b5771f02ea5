import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase } from '../test/test-database';
import { defaultListPath } from './default-lists';
import { countList } from './list-search';
import { LOOKUP_IMPORT_USAGE, lookupImportCommand } from './lookup-import-command';

describe('npm run lookup:import', () => {
  let database: DatabaseHandle;
  const dir = mkdtempSync(path.join(tmpdir(), 'lookup-import-'));
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, text);
    return full;
  };

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(lookupImportCommand, argv, {
      env: loadEnv({ NODE_ENV: 'test' }),
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

  it('imports a default list and says how many records it stored', async () => {
    const result = await run('--category', 'hs_ceeb', defaultListPath('hs_ceeb'));
    expect(result).toMatchObject({
      code: 0,
      out: 'Imported 21434 hs_ceeb records from high_schools.csv (columns not used: nces_id).',
    });
    expect(result.err).toMatch(/^line \d+: left out, it has no name, so no one could find it\.$/);
    expect(await countList(database.db, 'hs_ceeb')).toBe(21434);
  });

  it('checks a file without storing it', async () => {
    const csv = file('check.csv', 'ceeb,name\n0001,One College\n');
    const result = await run('--check', '--category', 'college_ceeb', csv);
    expect(result).toMatchObject({
      code: 0,
      out: 'check.csv: 1 college_ceeb records ready to import.',
    });
    expect(await countList(database.db, 'college_ceeb')).toBe(0);
  });

  it('refuses a malformed file with its line, storing nothing', async () => {
    const csv = file('bad.csv', 'ceeb,name\n0001,One College\n0002,"Two\n');
    const result = await run('--category', 'hs_ceeb', csv);
    expect(result.code).toBe(1);
    expect(result.err).toBe('Nothing was imported:\n  line 3: a quoted field is never closed.');
    expect(await countList(database.db, 'hs_ceeb')).toBe(21434);
  });

  it.each([
    [['x.csv'], /--category must be college_ceeb or hs_ceeb \(/],
    [['--category', 'address', 'x.csv'], /--category must be .*, not "address" \(addresses come/],
    [['--category', 'hs_ceeb'], /Name exactly one CSV file to import \(got 0\)/],
    [['--category', 'hs_ceeb', 'a.csv', 'b.csv'], /got 2/],
    [['--category', 'hs_ceeb', '--force', 'a.csv'], /Unknown option '--force'/],
  ])('refuses the arguments %j with the usage', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain(LOOKUP_IMPORT_USAGE);
  });

  it('says when the file cannot be read', async () => {
    const result = await run('--category', 'hs_ceeb', path.join(dir, 'missing.csv'));
    expect(result).toMatchObject({
      code: 1,
      err: `Cannot read ${path.join(dir, 'missing.csv')}: ENOENT.`,
    });
  });

  it('prints its usage on --help', async () => {
    expect(await run('--help')).toMatchObject({ code: 0, out: LOOKUP_IMPORT_USAGE });
  });
});
