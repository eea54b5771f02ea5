/**
 * Confirmation numbers: `<PREFIX>-<CYCLE>-<SEQUENCE>`, e.g. `NSU-FA26-000123`. Capital letters
 * and digits only, so it reads aloud on the phone without spelling out punctuation or case.
 */

const ENTRY_TERM = /^([A-Z]{2})\d{2}(\d{2})$/;

/**
 * The cycle of an application: its entry term shortened (`FA2026` → `FA26`), or, for a model
 * without an entry term answer, `YR` and the submit year (`YR26`): the same shape, two letters
 * and two digits, and a cycle that turns over once a year.
 */
export function cycleOf(entryTerm: unknown, submitYear: number): string {
  const match = typeof entryTerm === 'string' ? ENTRY_TERM.exec(entryTerm) : null;
  if (match) return `${match[1]}${match[2]}`;
  return `YR${String(submitYear % 100).padStart(2, '0')}`;
}

/** At least six digits; a cycle past 999,999 receipts simply grows a seventh. */
export function confirmationNumber(prefix: string, cycle: string, sequence: number): string {
  return `${prefix}-${cycle}-${String(sequence).padStart(6, '0')}`;
}

export const CONFIRMATION_NUMBER = /^[A-Z]{2,6}-[A-Z]{2}\d{2}-\d{6,}$/;
