import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListCategory } from '../../shared/lookup/lookup-api';
import { projectRoot } from '../config/project-root';
import { type AppDatabase, type DatabaseOptions, openDatabase } from '../db/database';
import { countList } from './list-search';
import { type ImportSummary, importLookupCsv } from './lookup-import';

/**
 * The development and test lists (real colleges and high schools, see their README). They live
 * beside the project, never in it: an institution imports its own lists in production.
 */
export const SHARED_LISTS_DIR = path.resolve(projectRoot, '..', 'shared', 'data', 'lookup');

export const SHARED_LIST_FILES: Readonly<Record<ListCategory, string>> = {
  college_ceeb: 'colleges.csv',
  hs_ceeb: 'high_schools.csv',
};

export function sharedListPath(category: ListCategory, dir = SHARED_LISTS_DIR): string {
  return path.join(dir, SHARED_LIST_FILES[category]);
}

/** Reads a shared list, or says where it should be: tests and demos need it. */
export function readSharedList(category: ListCategory, dir = SHARED_LISTS_DIR): string {
  const file = sharedListPath(category, dir);
  if (!existsSync(file)) {
    throw new Error(
      `The ${category} list is missing: expected ${file} (see ../shared/data/lookup/README.md).`,
    );
  }
  return readFileSync(file, 'utf8');
}

/**
 * Imports every shared list found in `dir`; with `onlyIntoEmpty`, only into categories that hold
 * nothing yet, so lists an institution imported are never replaced.
 */
export async function importSharedLists(
  db: AppDatabase,
  options: { dir?: string; onlyIntoEmpty?: boolean } = {},
): Promise<ImportSummary[]> {
  const dir = options.dir ?? SHARED_LISTS_DIR;
  const summaries: ImportSummary[] = [];
  for (const category of Object.keys(SHARED_LIST_FILES) as ListCategory[]) {
    if (!existsSync(sharedListPath(category, dir))) continue;
    if (options.onlyIntoEmpty && (await countList(db, category)) > 0) continue;
    summaries.push(await importLookupCsv(db, category, readSharedList(category, dir)));
  }
  return summaries;
}

/**
 * Opens a database, imports the shared lists into it and closes it: for a fresh database that a
 * server is about to use (the end-to-end run). Without the lists it warns and imports nothing.
 */
export async function seedSharedLists(options: DatabaseOptions): Promise<ImportSummary[]> {
  if (!existsSync(SHARED_LISTS_DIR)) {
    console.warn(`No school lists at ${SHARED_LISTS_DIR}: the school search will find nothing.`);
    return [];
  }
  const database = await openDatabase(options);
  try {
    return await importSharedLists(database.db);
  } finally {
    await database.close();
  }
}
