import { isValidIsoDate } from '../../shared/form/iso-date';

/** What the applicant typed in the Day, Month and Year boxes, as typed. */
export interface DateParts {
  day: string;
  month: string;
  year: string;
}

export type DatePartsReading =
  | { kind: 'empty' }
  | { kind: 'date'; isoDate: string }
  /** Something typed that is not yet, or never will be, a real date: a half year, 31 February. */
  | { kind: 'notADate' };

export const EMPTY_DATE_PARTS: DateParts = { day: '', month: '', year: '' };

const ISO_DATE_PARTS = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Spaces anywhere are dropped (a pasted '04 ' or a phone keyboard's stray space), and full-width
 * digits from an East Asian input method read as the digits they are.
 */
function cleaned(part: string): string {
  return part.normalize('NFKC').replace(/\s/g, '');
}

/** Digits only, with as many leading zeros as the applicant likes, at least one of them not zero. */
function dayOrMonth(part: string): string | null {
  if (!/^\d+$/.test(part)) return null;
  const number = Number(part);
  return number >= 1 && number <= 99 ? String(number).padStart(2, '0') : null;
}

/**
 * The stored answer the three boxes stand for. A year needs all four digits: '01' or '201' is a
 * year still being typed, never a guess at a century.
 */
export function readDateParts(parts: DateParts): DatePartsReading {
  const day = cleaned(parts.day);
  const month = cleaned(parts.month);
  const year = cleaned(parts.year);
  if (day === '' && month === '' && year === '') return { kind: 'empty' };
  const dd = dayOrMonth(day);
  const mm = dayOrMonth(month);
  if (dd === null || mm === null || !/^\d{4}$/.test(year)) return { kind: 'notADate' };
  const isoDate = `${year}-${mm}-${dd}`;
  return isValidIsoDate(isoDate) ? { kind: 'date', isoDate } : { kind: 'notADate' };
}

/** The boxes for a stored answer; anything that is not a real date leaves them empty. */
export function partsOfIsoDate(value: string): DateParts {
  const match = ISO_DATE_PARTS.exec(value);
  if (!match || !isValidIsoDate(value)) return EMPTY_DATE_PARTS;
  return { year: match[1] ?? '', month: match[2] ?? '', day: match[3] ?? '' };
}
