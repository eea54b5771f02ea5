import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isListCategory, LIST_CATEGORIES } from '../../shared/lookup/lookup-api';
import { ConfigError, type Env, loadEnv } from '../config/env';
import { DataDirLockedError } from '../db/data-dir-lock';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { LookupImportError, readLookupList, storeLookupList } from './lookup-import';

export const LOOKUP_IMPORT_USAGE = `Usage: npm run lookup:import -- --category CATEGORY FILE.csv

Replaces one lookup list with the schools in FILE.csv, all at once or not at all.
  --category  ${LIST_CATEGORIES.join(' or ')}
  --check     read and check the file, store nothing
The file has a header row with the columns name and ceeb, and optionally id, address_line_1,
city, state, zip and country (other columns are ignored). The database is the server's own:
DATABASE_URL, or the embedded database under DATA_DIR (stop the server first).`;

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface LookupImportContext {
  io: CommandOutput;
  env?: Env;
  /** An open database (tests); otherwise the server's own is opened and closed. */
  database?: DatabaseHandle;
}

/** `npm run lookup:import`: returns the exit code (0 done, 1 refused, 2 wrong arguments). */
export async function runLookupImport(
  argv: readonly string[],
  context: LookupImportContext,
): Promise<number> {
  const { io } = context;
  let values: { category?: string; check?: boolean; help?: boolean };
  let files: string[];
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: {
        category: { type: 'string' },
        check: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values;
    files = parsed.positionals;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err(LOOKUP_IMPORT_USAGE);
    return 2;
  }
  if (values.help) {
    io.out(LOOKUP_IMPORT_USAGE);
    return 0;
  }
  const category = values.category ?? '';
  if (!isListCategory(category)) {
    const given = category ? `, not "${category}"` : '';
    io.err(
      `--category must be ${LIST_CATEGORIES.join(' or ')}${given} (addresses come from a provider, not a file).`,
    );
    io.err(LOOKUP_IMPORT_USAGE);
    return 2;
  }
  if (files.length !== 1) {
    io.err(`Name exactly one CSV file to import (got ${files.length}).`);
    io.err(LOOKUP_IMPORT_USAGE);
    return 2;
  }
  const file = files[0] as string;

  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
    return 1;
  }

  let database = context.database;
  try {
    const list = readLookupList(text);
    for (const skipped of list.skipped)
      io.err(`line ${skipped.line}: left out, ${skipped.reason}.`);
    const ignored = list.ignoredColumns.length
      ? ` (columns not used: ${list.ignoredColumns.join(', ')})`
      : '';
    const name = path.basename(file);
    if (values.check) {
      io.out(`${name}: ${list.rows.length} ${category} records ready to import${ignored}.`);
      return 0;
    }
    database ??= await openServerDatabase(context.env ?? loadEnv());
    const summary = await storeLookupList(database.db, category, list);
    io.out(`Imported ${summary.imported} ${category} records from ${name}${ignored}.`);
    return 0;
  } catch (error) {
    if (
      error instanceof LookupImportError ||
      error instanceof ConfigError ||
      error instanceof DataDirLockedError
    ) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    if (database && database !== context.database) await database.close();
  }
}

function openServerDatabase(env: Env): Promise<DatabaseHandle> {
  return openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: 2 }
      : { kind: 'pglite', dataDir: env.DATA_DIR },
  );
}
