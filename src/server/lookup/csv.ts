/** One record of a CSV file and the line it starts on (1-based), for messages that point at it. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  override name = 'CsvError';
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

const QUOTE = '"';
const COMMA = ',';

/**
 * Parses CSV as RFC 4180 writes it: comma-separated fields, records ending in CRLF or LF, fields
 * in double quotes may hold commas, line breaks and doubled quotes. A byte order mark is dropped
 * and blank lines are skipped. Anything else that is not well-formed (a quote inside an unquoted
 * field, text after a closing quote, a quote left open) throws a CsvError naming the line, since
 * guessing would import wrong values silently.
 */
export function parseCsv(text: string): CsvRecord[] {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quotedFieldLine = 0;
  // Whether the current field was quoted and is now closed: only a comma or line end may follow.
  let closedQuote = false;

  const endField = () => {
    fields.push(field);
    field = '';
    closedQuote = false;
  };
  const endRecord = () => {
    endField();
    const blank = fields.length === 1 && fields[0] === '';
    if (!blank) records.push({ line: recordLine, fields });
    fields = [];
  };

  for (let i = 0; i < input.length; i++) {
    const char = input[i] as string;
    if (inQuotes) {
      if (char === QUOTE) {
        if (input[i + 1] === QUOTE) {
          field += QUOTE;
          i++;
        } else {
          inQuotes = false;
          closedQuote = true;
        }
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === COMMA) {
      endField();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && input[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (closedQuote) {
      throw new CsvError(line, 'text follows a closing quote; quote the whole field.');
    } else if (char === QUOTE) {
      if (field !== '') {
        throw new CsvError(
          line,
          'a quote inside an unquoted field; quote the whole field and double the quote.',
        );
      }
      inQuotes = true;
      quotedFieldLine = line;
    } else {
      field += char;
    }
  }
  if (inQuotes) {
    throw new CsvError(quotedFieldLine, 'a quoted field is never closed.');
  }
  if (field !== '' || fields.length > 0 || closedQuote) endRecord();
  return records;
}
