import {
  EQUIVALENCY_COLUMNS,
  EQUIVALENCY_KINDS,
  type EquivalencyKind,
  equivalencyKey,
  REQUIRED_EQUIVALENCY_COLUMNS,
  REQUIREMENT_CODE,
} from '../../shared/credit/equivalency';
import type { AppDatabase } from '../db/database';
import { CsvError, type CsvRecord, parseCsv } from '../lookup/csv';
import { createEquivalenciesStore, type EquivalencyRow } from './equivalencies-store';

export type { EquivalencyRow } from './equivalencies-store';

/** What a file gives: its rows, and the sending colleges it names in the order it names them. */
export interface EquivalencyList {
  rows: EquivalencyRow[];
  colleges: string[];
}

export interface EquivalencyStoreSummary {
  colleges: Array<{ ceeb: string; rows: number }>;
  rows: number;
}

/** A file that cannot be imported; `problems` name their lines. Nothing of it was stored. */
export class EquivalencyImportError extends Error {
  override name = 'EquivalencyImportError';
  constructor(readonly problems: readonly string[]) {
    super(`Nothing was imported:\n  ${problems.join('\n  ')}`);
  }
}

export const MAX_PROBLEMS_LISTED = 50;
export const INSERT_BATCH_ROWS = 1000;
const MAX_UNITS = 30;
export const EQUIVALENCY_TEXT_MAX_LENGTH = {
  sending_ceeb: 10,
  subject: 10,
  number: 10,
  title: 100,
  local_course: 40,
} as const;
/** A header row is short; a first line longer than this is not one. */
const MAX_HEADER_LENGTH = 1000;

// Control characters (a NUL included) are damage, not course titles; a lone surrogate is not text.
const UNREADABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// The replacement character: bytes that were not UTF-8 (a spreadsheet, an image, random bytes).
const NOT_UTF8 = /\uFFFD/;
const CODE = /^[A-Za-z0-9]+$/;
const DECIMAL = /^(\d+(\.\d{1,2})?|\.\d{1,2})$/;

type Column = (typeof EQUIVALENCY_COLUMNS)[number];

/** A value as a problem quotes it: long ones cut, so a list of problems stays readable. */
function shown(text: string): string {
  const characters = [...text];
  return characters.length > 40 ? `${characters.slice(0, 40).join('')}...` : text;
}

/** How much of the file's start is looked at to tell text from binary data. */
const SNIFF_LENGTH = 8192;
// Control characters and replacement characters, counted in the file's start.
const UNREADABLE_GLOBAL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B-\u000C\u000E-\u001F\u007F\uFFFD]/g;

/**
 * The file must be text, its first line the header: one that is not (a spreadsheet, a PDF,
 * random bytes) is refused before anything else is read, with one sentence rather than a
 * problem per line. Text with a stray control character here and there is read, and each one
 * reported with its line: only a start that is more than 1% unreadable (and at least 8 such
 * characters) counts as binary.
 */
function refuseNonText(text: string): void {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const end = input.search(/[\r\n]/);
  const first = end < 0 ? input : input.slice(0, end);
  const start = input.slice(0, SNIFF_LENGTH);
  const unreadable = start.match(UNREADABLE_GLOBAL)?.length ?? 0;
  const binary = unreadable >= 8 && unreadable > start.length / 100;
  if (
    binary ||
    first.length > MAX_HEADER_LENGTH ||
    UNREADABLE.test(first) ||
    NOT_UTF8.test(first)
  ) {
    throw new EquivalencyImportError([
      `the file is not a CSV text file (UTF-8): line 1 should be the header row (${EQUIVALENCY_COLUMNS.join(',')}), but the file holds binary data or is not text.`,
    ]);
  }
}

function checkHeader(columns: readonly string[]): void {
  const problems: string[] = [];
  const found = `line 1 (the header) has: ${columns.join(', ') || 'nothing'}`;
  const missing = REQUIRED_EQUIVALENCY_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    problems.push(
      `the header has no ${missing.map((column) => `"${column}"`).join(', ')} column${missing.length > 1 ? 's' : ''}; ${found}.`,
    );
  const known = new Set<string>(EQUIVALENCY_COLUMNS);
  for (const column of columns) {
    if (column === '') problems.push(`the header has an empty column name; ${found}.`);
    else if (!known.has(column))
      problems.push(
        `the header has a column "${column}" that is not one of: ${EQUIVALENCY_COLUMNS.join(', ')}.`,
      );
  }
  const repeated = new Set(
    columns.filter((column, index) => column !== '' && columns.indexOf(column) !== index),
  );
  for (const column of repeated) problems.push(`the header names "${column}" twice.`);
  if (problems.length > 0) throw new EquivalencyImportError(problems);
}

/** A number of units from 0 to 30 with at most two decimals, or a sentence saying why not. */
function unitsOf(column: string, text: string): number | string {
  if (!DECIMAL.test(text))
    return `${column} "${shown(text)}" is not a number (write it like 3 or 4.5, at most 2 decimals).`;
  const value = Number(text);
  if (value > MAX_UNITS) return `${column} ${text} is more than ${MAX_UNITS}.`;
  return value;
}

function isKind(text: string): text is EquivalencyKind {
  return (EQUIVALENCY_KINDS as readonly string[]).includes(text);
}

/**
 * Reads an equivalency table file: a header row naming EQUIVALENCY_COLUMNS (`satisfies` may be
 * left out, in any order), then one course of a sending college a row. A file may hold several
 * colleges. Every problem of the whole file is collected and the file refused with all of them
 * (the first MAX_PROBLEMS_LISTED, and how many more): an import is all or nothing.
 */
export function readEquivalencyCsv(text: string): EquivalencyList {
  refuseNonText(text);
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) throw new EquivalencyImportError([error.message]);
    throw error;
  }
  const [header, ...body] = records;
  if (!header) throw new EquivalencyImportError(['the file is empty; it needs a header row.']);
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  checkHeader(columns);
  const indexOf = new Map(columns.map((column, index) => [column as Column, index]));

  const problems: string[] = [];
  const rows: EquivalencyRow[] = [];
  const colleges: string[] = [];
  const keyLines = new Map<string, number>();

  for (const { line, fields } of body) {
    if (fields.length !== columns.length) {
      problems.push(
        `line ${line}: expected ${columns.length} fields as in the header, found ${fields.length}.`,
      );
      continue;
    }
    const rowProblems: string[] = [];
    const value = (column: Column): string => {
      const index = indexOf.get(column);
      return index === undefined ? '' : (fields[index] ?? '').trim();
    };
    for (const column of columns) {
      if (UNREADABLE.test(value(column as Column)))
        rowProblems.push(`${column} holds control characters or is not text.`);
    }
    for (const [column, max] of Object.entries(EQUIVALENCY_TEXT_MAX_LENGTH)) {
      if ([...value(column as Column)].length > max)
        rowProblems.push(`${column} is longer than ${max} characters.`);
    }
    for (const column of ['sending_ceeb', 'subject', 'number', 'title', 'units', 'kind'] as const)
      if (value(column) === '') rowProblems.push(`${column} is empty.`);

    const ceeb = value('sending_ceeb').toUpperCase();
    if (ceeb !== '' && !CODE.test(ceeb))
      rowProblems.push(`sending_ceeb "${shown(ceeb)}" may hold only letters and digits.`);

    const kindText = value('kind').toLowerCase();
    const kind = isKind(kindText) ? kindText : null;
    if (kindText !== '' && kind === null)
      rowProblems.push(
        `kind "${shown(value('kind'))}" is not one of: ${EQUIVALENCY_KINDS.join(', ')}.`,
      );

    let units = 0;
    if (value('units') !== '') {
      const parsed = unitsOf('units', value('units'));
      if (typeof parsed === 'string') rowProblems.push(parsed);
      else units = parsed;
    }
    const localCourse = value('local_course');
    let localUnits = 0;
    const localUnitsText = value('local_units');
    if (localUnitsText !== '') {
      const parsed = unitsOf('local_units', localUnitsText);
      if (typeof parsed === 'string') rowProblems.push(parsed);
      else localUnits = parsed;
    }
    if (kind === 'no_credit') {
      if (localUnits !== 0) rowProblems.push('local_units must be 0 (or empty) for no_credit.');
    } else if (kind !== null) {
      if (localCourse === '') rowProblems.push(`local_course is empty (needed for ${kind}).`);
      if (localUnitsText === '') rowProblems.push(`local_units is empty (needed for ${kind}).`);
    }

    const satisfies: string[] = [];
    for (const code of value('satisfies').split(/[;\s]+/)) {
      if (code === '') continue;
      const upper = code.toUpperCase();
      if (!REQUIREMENT_CODE.test(upper))
        rowProblems.push(
          `satisfies "${shown(code)}" is not a requirement code (letters, digits, - _ . up to 40, like GE-A2).`,
        );
      else if (!satisfies.includes(upper)) satisfies.push(upper);
    }

    if (ceeb !== '' && value('subject') !== '' && value('number') !== '') {
      const key = `${ceeb}\u0001${equivalencyKey(value('subject'), value('number'))}`;
      const earlier = keyLines.get(key);
      if (earlier !== undefined)
        rowProblems.push(
          `${shown(value('subject'))} ${shown(value('number'))} of ${shown(ceeb)} repeats line ${earlier}.`,
        );
      else keyLines.set(key, line);
    }

    if (rowProblems.length > 0) {
      problems.push(...rowProblems.map((problem) => `line ${line}: ${problem}`));
      continue;
    }
    if (!colleges.includes(ceeb)) colleges.push(ceeb);
    rows.push({
      sendingCeeb: ceeb,
      subject: value('subject'),
      number: value('number'),
      title: value('title'),
      units,
      localCourse,
      localUnits,
      kind: kind as EquivalencyKind,
      satisfies,
      line,
    });
  }

  if (problems.length === 0 && rows.length === 0)
    problems.push('the file has no rows to import, only a header.');
  if (problems.length > MAX_PROBLEMS_LISTED) {
    const more = problems.length - MAX_PROBLEMS_LISTED;
    problems.splice(MAX_PROBLEMS_LISTED);
    problems.push(`... and ${more} more problem${more === 1 ? '' : 's'}.`);
  }
  if (problems.length > 0) throw new EquivalencyImportError(problems);
  return { rows, colleges };
}

/** How many rows each college of a list has, in the list's order. */
export function summaryOf(list: EquivalencyList): EquivalencyStoreSummary {
  const counts = new Map(list.colleges.map((ceeb) => [ceeb, 0]));
  for (const row of list.rows) counts.set(row.sendingCeeb, (counts.get(row.sendingCeeb) ?? 0) + 1);
  return {
    colleges: [...counts].map(([ceeb, rows]) => ({ ceeb, rows })),
    rows: list.rows.length,
  };
}

/**
 * Replaces the table of every college the list names with its rows, in one transaction: mapping
 * sees each old table or its new one, never a mix, and a failure leaves every old table. Colleges
 * the file does not name keep theirs. Rows go in batches of INSERT_BATCH_ROWS, one statement each.
 */
export async function storeEquivalencies(
  db: AppDatabase,
  list: EquivalencyList,
  source: {
    fileName: string;
    importedBy: string;
    /** Runs in the import's transaction (the audit entry): when it fails, nothing is stored. */
    onStored?: (summary: EquivalencyStoreSummary, tx: AppDatabase) => Promise<unknown>;
  },
): Promise<EquivalencyStoreSummary> {
  const store = createEquivalenciesStore(db);
  const summary = summaryOf(list);
  await store.transaction(async (tx) => {
    await store.lockColleges(list.colleges, tx);
    await store.deleteColleges(list.colleges, tx);
    for (let start = 0; start < list.rows.length; start += INSERT_BATCH_ROWS)
      await store.insertRows(list.rows.slice(start, start + INSERT_BATCH_ROWS), tx);
    await store.insertTables(
      summary.colleges.map(({ ceeb, rows }) => ({
        ceeb,
        rowCount: rows,
        fileName: source.fileName,
        importedByLabel: source.importedBy,
      })),
      tx,
    );
    await source.onStored?.(summary, tx);
  });
  return summary;
}
