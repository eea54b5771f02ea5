import {
  columnFormats,
  DELIMITERS,
  type FeedColumn,
  type FeedFilters,
  type FeedMapping,
  fileStamp,
  formatValue,
  parseSource,
} from '../../shared/integration/feed-mapping';
import type { Checklist } from '../../shared/staff/application-api';
import type { ExportApplication } from '../exports/exports-store';

/** One submitted application as a feed reads it. */
export interface FeedRecord {
  id: string;
  email: string;
  receiptNumber: string | null;
  submittedAt: Date | null;
  sisId: string | null;
  answers: Record<string, string | boolean>;
  decision: ExportApplication['decision'];
  coursework: ExportApplication['coursework'];
  /** Read only when a column names the checklist. */
  checklist: Checklist | null;
}

export type FeedProblemKind = 'unmapped' | 'too_long' | 'not_formattable' | 'needs_quoting';

/** The same problem with the same value in one column, however many applications have it. */
export interface FeedProblem {
  column: number;
  header: string;
  kind: FeedProblemKind;
  value: string;
  count: number;
  /** The first few, to look at. */
  applicationIds: string[];
  /** Whether a real run refuses to write because of it (an unmapped value the column lets through does not). */
  blocking: boolean;
}

export interface FeedRows {
  header: string[];
  rows: string[][];
  /** The applications of the rows, in order. */
  applicationIds: string[];
  problems: FeedProblem[];
}

const EXAMPLE_IDS = 5;

const text = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const iso = (value: Date | null | undefined) => (value ? value.toISOString() : '');

/** Whether any column reads the checklist: it is read only then. */
export function readsChecklist(mapping: FeedMapping): boolean {
  return mapping.columns.some((column) => {
    const source = parseSource(column.source);
    return (
      source?.kind === 'checklist' ||
      (source?.kind === 'fixed' && source.name === 'checklist_missing')
    );
  });
}

/** A column's value as stored, before any translation or format. */
export function sourceValue(column: FeedColumn, record: FeedRecord): string {
  const source = parseSource(column.source);
  if (!source) return '';
  switch (source.kind) {
    case 'answer':
      return text(record.answers[source.key]);
    case 'label':
      return text(record.answers[`${source.key}_desc`]);
    case 'checklist':
      return record.checklist?.items.find((item) => item.key === source.key)?.state ?? '';
    case 'const':
      return source.key;
    case 'fixed':
      break;
  }
  const { decision, coursework } = record;
  switch (source.name) {
    case 'application_id':
      return record.id;
    case 'receipt_number':
      return text(record.receiptNumber);
    case 'email':
      return record.email;
    case 'submitted_at':
      return iso(record.submittedAt);
    case 'sis_id':
      return text(record.sisId);
    case 'decision_code':
      return text(decision?.code);
    case 'decision_released_at':
      return iso(decision?.releasedAt);
    case 'reply':
      return text(decision?.reply);
    case 'replied_at':
      return iso(decision?.repliedAt);
    case 'transfer_gpa':
      return text(coursework?.gpa);
    case 'transfer_units':
      return text(coursework?.transferUnits);
    case 'in_progress_units':
      return text(coursework?.inProgressUnits);
    case 'checklist_missing':
      return record.checklist ? String(record.checklist.missing) : '';
  }
}

/** Whether an application is one the feed sends. */
export function matchesFilters(record: FeedRecord, filters: FeedFilters): boolean {
  const answer = (key: string) => text(record.answers[key]);
  if (filters.entry_terms && !filters.entry_terms.includes(answer('entry_term'))) return false;
  if (filters.programs && !filters.programs.includes(answer('applied_major'))) return false;
  if (filters.decision_codes && !filters.decision_codes.includes(record.decision?.code ?? ''))
    return false;
  const released = Boolean(record.decision?.releasedAt);
  if (filters.decision_released !== undefined && filters.decision_released !== released)
    return false;
  if (filters.replies && !filters.replies.includes(record.decision?.reply ?? 'none')) return false;
  return true;
}

type Cell = {
  value: string;
  problems: Array<{ kind: FeedProblemKind; value: string; blocking: boolean }>;
};

/** One column of one application: map, formats, default, length and width. */
export function cellValue(column: FeedColumn, record: FeedRecord, mapping: FeedMapping): Cell {
  const problems: Cell['problems'] = [];
  const raw = sourceValue(column, record);
  let value = raw;
  if (column.map && raw !== '') {
    const mapped = column.map[raw];
    if (mapped !== undefined) value = mapped;
    else {
      problems.push({ kind: 'unmapped', value: raw, blocking: column.unmapped === 'error' });
      if (column.unmapped === 'blank') value = '';
    }
  }
  for (const format of columnFormats(column)) {
    const formatted = formatValue(value, format, mapping.timezone);
    if (formatted === null) {
      problems.push({ kind: 'not_formattable', value, blocking: true });
      value = '';
      break;
    }
    value = formatted;
  }
  if (value === '' && column.default !== undefined) value = column.default;
  if (column.max_length !== undefined && [...value].length > column.max_length) {
    if (column.truncate) value = [...value].slice(0, column.max_length).join('');
    else problems.push({ kind: 'too_long', value, blocking: true });
  }
  if (column.pad) {
    const { length, char, side } = column.pad;
    value = side === 'left' ? value.padStart(length, char) : value.padEnd(length, char);
  }
  const delimiter = DELIMITERS[mapping.file.delimiter];
  if (
    mapping.file.quoting === 'none' &&
    (value.includes(delimiter) || value.includes('\r') || value.includes('\n'))
  )
    problems.push({ kind: 'needs_quoting', value, blocking: true });
  return { value, problems };
}

/**
 * The feed's rows for the applications it reads (those its filters leave out are skipped), with
 * every problem gathered per column and value: what a dry run lists and a real run refuses.
 */
export function buildFeedRows(mapping: FeedMapping, records: readonly FeedRecord[]): FeedRows {
  const problems = new Map<string, FeedProblem>();
  const rows: string[][] = [];
  const applicationIds: string[] = [];
  for (const record of records) {
    if (!matchesFilters(record, mapping.filters)) continue;
    const row = mapping.columns.map((column, index) => {
      const cell = cellValue(column, record, mapping);
      for (const problem of cell.problems) {
        const key = JSON.stringify([index, problem.kind, problem.value]);
        const known = problems.get(key);
        if (known) {
          known.count++;
          if (known.applicationIds.length < EXAMPLE_IDS) known.applicationIds.push(record.id);
        } else {
          problems.set(key, {
            column: index,
            header: column.header,
            ...problem,
            count: 1,
            applicationIds: [record.id],
          });
        }
      }
      return cell.value;
    });
    rows.push(row);
    applicationIds.push(record.id);
  }
  return {
    header: mapping.columns.map((column) => column.header),
    rows,
    applicationIds,
    problems: [...problems.values()].sort(
      (a, b) => a.column - b.column || b.count - a.count || a.value.localeCompare(b.value),
    ),
  };
}

const PROBLEM_TEXT: Record<FeedProblemKind, string> = {
  unmapped: 'not in the map',
  too_long: 'longer than max_length',
  not_formattable: 'cannot take the format',
  needs_quoting: 'holds the delimiter or a line break, and quoting is none',
};

/** One problem as a line of a dry run's list or a failed run's error. */
export function problemText(problem: FeedProblem): string {
  return `column ${problem.column + 1} (${problem.header}): "${problem.value}" ${PROBLEM_TEXT[problem.kind]}, ${problem.count} application${problem.count === 1 ? '' : 's'} (e.g. ${problem.applicationIds.join(', ')})`;
}

/**
 * The file's text. Not the staff CSV writer: a load file for another system wants the office's
 * delimiter and line ending, no byte order mark, and values exactly as mapped (the spreadsheet
 * formula guard would change a value that starts with `-`).
 */
export function renderFeedFile(
  mapping: FeedMapping,
  feedRows: Pick<FeedRows, 'header' | 'rows'>,
): string {
  const { delimiter: name, quoting, line_ending: lineEnding, header } = mapping.file;
  const delimiter = DELIMITERS[name];
  const end = lineEnding === 'CRLF' ? '\r\n' : '\n';
  const field = (value: string) => {
    const needs =
      value.includes(delimiter) ||
      value.includes('"') ||
      value.includes('\r') ||
      value.includes('\n');
    if (quoting === 'all' || (quoting === 'minimal' && needs))
      return `"${value.replaceAll('"', '""')}"`;
    return value;
  };
  const lines = [...(header ? [feedRows.header] : []), ...feedRows.rows];
  return lines.map((line) => `${line.map(field).join(delimiter)}${end}`).join('');
}

/** The file's name from its pattern: `{date}` and `{time}` in the feed's time zone, `{run}` the run's id. */
export function feedFileName(mapping: FeedMapping, at: Date, runId: string): string {
  const stamp = fileStamp(at, mapping.timezone);
  return mapping.file.name
    .replaceAll('{date}', stamp.date)
    .replaceAll('{time}', stamp.time)
    .replaceAll('{run}', runId);
}
