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
 * null when every one can. Every request body, query and parameter goes through this once. It
 * walks with a list of its own rather than the call stack, so no nesting can overflow it.
 */
export function unstorableTextPath(value: unknown): string | null {
  // Children are pushed last first, so they are read in document order: a key, then its value.
  const pending: Array<{ value: unknown; path: string; key?: string }> = [{ value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, path, key } = next;
    if (key !== undefined && !isStorableText(key)) return path;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return path || '_';
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const entries: Array<[string, unknown]> = Array.isArray(item)
      ? item.map((child, index) => [String(index), child])
      : Object.entries(item);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [childKey, child] = entries[index] as [string, unknown];
      pending.push({ value: child, path: path ? `${path}.${childKey}` : childKey, key: childKey });
    }
  }
  return null;
}
