import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListCategory } from '../../shared/lookup/lookup-api';
import { projectRoot } from '../config/project-root';
import type { AppDatabase } from '../db/database';
import { countList } from './list-search';
import { type ImportSummary, readLookupList, storeLookupList } from './lookup-import';

/**
 * The lists that ship with the project (real colleges and high schools; sources and licences in
 * lookup-lists/README.md): a fresh server has schools to find, and tests and demos use them. An
 * institution imports its own lists, which these never replace.
 */
export const DEFAULT_LISTS_DIR = path.join(projectRoot, 'lookup-lists');

export const DEFAULT_LIST_FILES: Readonly<Record<ListCategory, string>> = {
  college_ceeb: 'colleges.csv',
  hs_ceeb: 'high_schools.csv',
};

export function defaultListPath(category: ListCategory, dir = DEFAULT_LISTS_DIR): string {
  return path.join(dir, DEFAULT_LIST_FILES[category]);
}

/** Reads a default list, or says where it should be. */
export function readDefaultList(category: ListCategory, dir = DEFAULT_LISTS_DIR): string {
  const file = defaultListPath(category, dir);
  if (!existsSync(file)) throw new Error(`The ${category} list is missing: expected ${file}.`);
  return readFileSync(file, 'utf8');
}

/**
 * Imports every list found in `dir` (the default lists unless told otherwise). With
 * `onlyIntoEmpty`, only into categories that hold nothing, checked again under the import's lock,
 * so a list an institution imported is never replaced and servers starting together on one empty
 * table import each list once.
 */
export async function importDefaultLists(
  db: AppDatabase,
  options: { dir?: string; onlyIntoEmpty?: boolean } = {},
): Promise<ImportSummary[]> {
  const dir = options.dir ?? DEFAULT_LISTS_DIR;
  const summaries: ImportSummary[] = [];
  for (const category of Object.keys(DEFAULT_LIST_FILES) as ListCategory[]) {
    if (!existsSync(defaultListPath(category, dir))) continue;
    if (!options.onlyIntoEmpty) {
      summaries.push(await storeLookupList(db, category, parseDefaultList(category, dir)));
      continue;
    }
    // Reading a list costs more than counting: a table already filled is left at once.
    if ((await countList(db, category)) > 0) continue;
    const summary = await storeLookupList(db, category, parseDefaultList(category, dir), {
      onlyIntoEmpty: true,
    });
    if (summary) summaries.push(summary);
  }
  return summaries;
}

function parseDefaultList(category: ListCategory, dir: string) {
  return readLookupList(readDefaultList(category, dir));
}
