import { Readable } from 'node:stream';

/**
 * CSV files staff download (the audit trail, application exports), written the way spreadsheet
 * programs read them: UTF-8 with a byte order mark (so Excel does not guess another encoding),
 * CRLF line ends, every field that needs it quoted (RFC 4180).
 */

/** Tells Excel the file is UTF-8; other readers skip it. */
export const CSV_BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** What a spreadsheet may take for the start of a formula (`=HYPERLINK(...)`, `+1`, `@SUM`...). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field. Text that a spreadsheet would run as a formula gets a leading apostrophe, so it shows
 * as typed and runs nothing (OWASP's CSV injection advice). Numbers and booleans are written as
 * they are; dates as ISO 8601; null and undefined as an empty field; objects as JSON.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    text = String(value);
  } else if (value instanceof Date) {
    text = value.toISOString();
  } else if (typeof value === 'object') {
    text = JSON.stringify(value);
  } else {
    text = String(value);
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its line end. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * A whole file as a stream: the byte order mark and the header row first, then each record as
 * the source yields it, so a long export never sits in memory whole.
 */
export function csvStream(
  header: readonly string[],
  records: AsyncIterable<readonly unknown[]>,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `${CSV_BOM}${csvRow(header)}`;
    for await (const record of records) yield csvRow(record);
  }
  return Readable.from(lines(), { objectMode: false });
}
