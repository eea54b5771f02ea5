// A NUL cannot be stored in PostgreSQL text or JSON, and a lone surrogate is not text at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'This contains characters that cannot be stored.';

/** True when the text can be stored and read back as it was sent. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * The dotted path of the first string (or object key) in a JSON value that cannot be stored, or
 * null when every one can. Every request body, query and parameter goes through this once.
 */
export function unstorableTextPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || '_';
  if (typeof value !== 'object' || value === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const here = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return here;
    const found = unstorableTextPath(item, here);
    if (found !== null) return found;
  }
  return null;
}
