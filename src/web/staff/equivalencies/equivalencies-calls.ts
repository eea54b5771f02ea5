import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import {
  EQUIVALENCY_CSV_CONTENT_TYPE,
  type EquivalencyImportSummary,
  type EquivalencyProblemsBody,
  type EquivalencyTableView,
  equivalencyUrls,
} from '../../../shared/credit/equivalency-api';
import { getJson, ServerError, UnauthorizedError } from '../../data/http-client';

/** A file refused by the server: every problem with its line. Nothing was stored. */
export class EquivalencyProblemsError extends Error {
  override readonly name = 'EquivalencyProblemsError';
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(message);
  }
}

function isProblemsBody(value: unknown): value is EquivalencyProblemsBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as EquivalencyProblemsBody).message === 'string' &&
    Array.isArray((value as EquivalencyProblemsBody).problems)
  );
}

/** The file itself as the body (text/csv), not JSON: the one call of the console that sends a file. */
async function sendCsv(url: string, file: File): Promise<EquivalencyImportSummary> {
  const address = `${url}?${new URLSearchParams({ file_name: file.name })}`;
  let response: Response;
  try {
    response = await fetch(address, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': EQUIVALENCY_CSV_CONTENT_TYPE },
      body: file,
    });
  } catch {
    throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, null);
  }
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    parsed = null;
  }
  const message =
    typeof (parsed as { message?: unknown } | null)?.message === 'string'
      ? (parsed as { message: string }).message
      : GENERIC_SERVER_ERROR_MESSAGE;
  if (response.status === 401) throw new UnauthorizedError(message);
  if (response.status === 400 && isProblemsBody(parsed))
    throw new EquivalencyProblemsError(parsed.message, parsed.problems);
  if (response.status === 413)
    throw new ServerError('The file is larger than 8 MB: split it into smaller files.', 413);
  if (!response.ok || parsed === null) throw new ServerError(message, response.status);
  return parsed as EquivalencyImportSummary;
}

/** Equivalency tables (src/shared/credit/equivalency-api.ts has the contract). */
export const equivalenciesCalls = {
  tables: () => getJson<EquivalencyTableView[]>(equivalencyUrls.tables),
  check: (file: File) => sendCsv(equivalencyUrls.check, file),
  importFile: (file: File) => sendCsv(equivalencyUrls.tables, file),
};

export const equivalenciesKeys = {
  tables: ['equivalencies', 'tables'],
} as const;

/** "1,240 rows for 2 colleges: 5074, 4144" */
export function summaryText(summary: EquivalencyImportSummary): string {
  const colleges = summary.colleges.length;
  return `${summary.rows.toLocaleString('en-US')} row${summary.rows === 1 ? '' : 's'} for ${colleges} college${colleges === 1 ? '' : 's'}: ${summary.colleges.map((college) => college.ceeb).join(', ')}`;
}
