import {
  type ListCategory,
  LOOKUP_FIELD_MAX_LENGTH,
  LOOKUP_ID_MAX_LENGTH,
  LOOKUP_RECORD_FIELDS,
  type LookupRecordField,
} from '../../shared/lookup/lookup-api';
import type { LookupRecord } from '../../shared/lookup/lookup-schemas';
import type { AppDatabase } from '../db/database';
import { CsvError, parseCsv } from './csv';
import { createLookupStore } from './lookup-store';

/** What a list file gives: the rows to store, the rows left out and why, the columns not used. */
export interface LookupList {
  rows: LookupRecord[];
  skipped: Array<{ line: number; reason: string }>;
  ignoredColumns: string[];
}

export interface ImportSummary {
  category: ListCategory;
  imported: number;
  skipped: LookupList['skipped'];
  ignoredColumns: string[];
}

/** A file that cannot be imported; `problems` name their lines. Nothing of it was stored. */
export class LookupImportError extends Error {
  override name = 'LookupImportError';
  constructor(readonly problems: readonly string[]) {
    super(`Nothing was imported:\n  ${problems.join('\n  ')}`);
  }
}

const REQUIRED_COLUMNS = ['name', 'ceeb'] as const;
const ID_COLUMN = 'id';
const MAX_PROBLEMS_LISTED = 20;
const INSERT_BATCH_ROWS = 1000;
// A NUL cannot be stored in PostgreSQL text; other control characters are damage, not names.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F]/;
const CODE = /^[A-Za-z0-9]+$/;

/** Postal names for military mail, which stay in capitals. */
const CAPITALISED_PLACES = new Set(['APO', 'FPO', 'DPO', 'USAFA']);

/**
 * Some lists write every city in capitals ('NEW YORK'); an applicant's form shows 'New York'.
 * Values already in mixed case, and military post offices, are kept as they are.
 */
export function calmCapitals(text: string): string {
  if (text !== text.toUpperCase() || CAPITALISED_PLACES.has(text)) return text;
  return text
    .toLowerCase()
    .replace(
      /(^|[\s\-'.(/])(\p{L})/gu,
      (_, before: string, letter: string) => before + letter.toUpperCase(),
    );
}

/**
 * Reads a list file (one header row, then one school a row; see lookup-lists/README.md for
 * the columns). `name` and `ceeb` are required columns; `address_line_1`, `city`, `state`,
 * `zip` and `country` are used when present; other columns (a source's own keys such as
 * `ipeds_unitid`) are ignored. Each row's id is its `id` column when the file has one, else its
 * CEEB code, with `-2`, `-3`... added when two campuses share one code.
 *
 * A row without a name cannot be found by searching, so it is left out and reported. Every other
 * problem stops the import: the list would be wrong, and an import is all or nothing.
 */
export function readLookupList(csvText: string): LookupList {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(csvText);
  } catch (error) {
    if (error instanceof CsvError) throw new LookupImportError([error.message]);
    throw error;
  }
  const [header, ...body] = records;
  if (!header) throw new LookupImportError(['the file is empty; it needs a header row.']);
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  checkHeader(columns);
  const hasIdColumn = columns.includes(ID_COLUMN);
  const known = new Set<string>([ID_COLUMN, ...LOOKUP_RECORD_FIELDS]);
  const ignoredColumns = columns.filter((column) => !known.has(column));

  const problems: string[] = [];
  const skipped: LookupList['skipped'] = [];
  const rows: LookupRecord[] = [];
  const idLines = new Map<string, number>();
  const codeCounts = new Map<string, number>();

  for (const record of body) {
    if (problems.length >= MAX_PROBLEMS_LISTED) break;
    const { line, fields } = record;
    if (fields.length !== columns.length) {
      problems.push(
        `line ${line}: expected ${columns.length} fields as in the header, found ${fields.length}.`,
      );
      continue;
    }
    const value = (column: string) => {
      const index = columns.indexOf(column);
      return index < 0 ? '' : (fields[index] ?? '').trim();
    };
    const row: LookupRecord = {
      id: '',
      name: value('name'),
      address_line_1: value('address_line_1'),
      city: calmCapitals(value('city')),
      state: value('state'),
      zip: value('zip'),
      ceeb: value('ceeb'),
      country: value('country'),
    };
    if (row.name === '') {
      skipped.push({ line, reason: 'it has no name, so no one could find it' });
      continue;
    }
    const rowProblems = fieldProblems(row);
    if (row.ceeb === '') rowProblems.push('ceeb is empty.');
    else if (!CODE.test(row.ceeb))
      rowProblems.push(`ceeb "${row.ceeb}" may hold only letters and digits.`);

    if (hasIdColumn) {
      row.id = value(ID_COLUMN);
      if (row.id === '' || row.id.length > LOOKUP_ID_MAX_LENGTH) {
        rowProblems.push(`id must be 1 to ${LOOKUP_ID_MAX_LENGTH} characters.`);
      } else if (idLines.has(row.id)) {
        rowProblems.push(`id "${row.id}" repeats line ${idLines.get(row.id)}.`);
      }
    } else {
      const seen = (codeCounts.get(row.ceeb) ?? 0) + 1;
      codeCounts.set(row.ceeb, seen);
      row.id = seen === 1 ? row.ceeb : `${row.ceeb}-${seen}`;
    }
    if (rowProblems.length > 0) {
      problems.push(...rowProblems.map((problem) => `line ${line}: ${problem}`));
      continue;
    }
    idLines.set(row.id, line);
    rows.push(row);
  }

  if (problems.length >= MAX_PROBLEMS_LISTED) {
    problems.splice(MAX_PROBLEMS_LISTED);
    problems.push(`(stopped after ${MAX_PROBLEMS_LISTED} problems)`);
  }
  if (problems.length === 0 && rows.length === 0) {
    problems.push('the file has no rows to import.');
  }
  if (problems.length > 0) throw new LookupImportError(problems);
  return { rows, skipped, ignoredColumns };
}

function checkHeader(columns: readonly string[]): void {
  const problems: string[] = [];
  const found = `line 1 (the header) has: ${columns.join(', ')}`;
  for (const required of REQUIRED_COLUMNS) {
    if (!columns.includes(required))
      problems.push(`the header has no "${required}" column; ${found}.`);
  }
  if (columns.some((column) => column === ''))
    problems.push(`the header has an empty column name; ${found}.`);
  const repeated = columns.filter(
    (column, index) => column !== '' && columns.indexOf(column) !== index,
  );
  if (repeated.length > 0) problems.push(`the header names "${repeated[0]}" twice.`);
  if (problems.length > 0) throw new LookupImportError(problems);
}

function fieldProblems(row: LookupRecord): string[] {
  const problems: string[] = [];
  for (const field of LOOKUP_RECORD_FIELDS) {
    const text = row[field];
    const max = LOOKUP_FIELD_MAX_LENGTH[field as LookupRecordField];
    if ([...text].length > max) problems.push(`${field} is longer than ${max} characters.`);
    if (CONTROL_CHARACTERS.test(text)) problems.push(`${field} holds control characters.`);
  }
  return problems;
}

/**
 * Replaces a category's records with `list` in one transaction: searches see the old list or the
 * new one, never a mix, and a failure leaves the old list. Importing the same file again gives
 * the same rows. Two imports of one category at once run one after the other.
 *
 * With `onlyIntoEmpty`, a category that holds records when the lock is taken is left as it is
 * and the answer is null: of several servers starting at once on one empty table, one imports
 * and the others, waiting on its lock, then find its rows.
 */
export async function storeLookupList(
  db: AppDatabase,
  category: ListCategory,
  list: LookupList,
  options: { onlyIntoEmpty: true },
): Promise<ImportSummary | null>;
export async function storeLookupList(
  db: AppDatabase,
  category: ListCategory,
  list: LookupList,
  options?: { onlyIntoEmpty?: false },
): Promise<ImportSummary>;
export async function storeLookupList(
  db: AppDatabase,
  category: ListCategory,
  list: LookupList,
  options: { onlyIntoEmpty?: boolean } = {},
): Promise<ImportSummary | null> {
  const store = createLookupStore(db);
  const stored = await store.transaction(async (tx) => {
    await store.lockCategory(category, tx);
    // Read after the lock: in READ COMMITTED this sees what an import that held it committed.
    if (options.onlyIntoEmpty && (await store.holdsAny(category, tx))) return false;
    await store.deleteCategory(category, tx);
    for (let start = 0; start < list.rows.length; start += INSERT_BATCH_ROWS)
      await store.insertRecords(category, list.rows.slice(start, start + INSERT_BATCH_ROWS), tx);
    return true;
  });
  if (!stored) return null;
  return {
    category,
    imported: list.rows.length,
    skipped: list.skipped,
    ignoredColumns: list.ignoredColumns,
  };
}

/** Reads and stores a list file; see readLookupList and storeLookupList. */
export async function importLookupCsv(
  db: AppDatabase,
  category: ListCategory,
  csvText: string,
): Promise<ImportSummary> {
  return storeLookupList(db, category, readLookupList(csvText));
}
