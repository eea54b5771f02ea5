/** Several values at once come from an address or a saved view; the select shows them as one. */
export const SEVERAL = '\u0000several';

/**
 * What a one-choice select shows for the values a filter holds: any, the one, or "several"; and
 * a single value the select does not offer (an old address), so it can still be shown.
 */
export function choiceSelection(
  chosen: readonly string[],
  known: ReadonlyMap<string, string>,
): { value: string; unknown: string | undefined } {
  const unknown = chosen.length === 1 && !known.has(chosen[0] ?? '') ? chosen[0] : undefined;
  const value = chosen.length === 0 ? '' : chosen.length === 1 ? (chosen[0] ?? '') : SEVERAL;
  return { value, unknown };
}

/**
 * Typing a year into a date box passes through years like 0002 and 0020; only a whole date (or
 * an emptied box) that differs from the filter changes the list.
 */
export function dateFilterChanges(next: string, value: string): boolean {
  return next !== value && (next === '' || /^(19|20)\d\d-\d\d-\d\d$/.test(next));
}
