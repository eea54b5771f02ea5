import { type LetterPlaceholder, PLACEHOLDER_PATTERN } from './decision-config';

/*
 * A decision letter from its template: the placeholders filled from the application. Values
 * come from the applicant and are escaped for Markdown, so a name such as `**x**` or `<b>` is
 * printed as typed and never becomes formatting, a link or markup.
 */

export type LetterValues = Record<LetterPlaceholder, string>;

export interface LetterSource {
  /** The application's answers (strings; other values are ignored). */
  answers: Readonly<Record<string, unknown>>;
  /** The decision's label, as the tenant names it ('Admit'). */
  decisionLabel: string;
  /** The receipt's confirmation number, when the application has one. */
  confirmationNumber: string | null;
  /** The last moment to reply, when the decision is an offer and the tenant sets a day. */
  replyDeadline: Date | null;
  /** The office's time zone, in which the letter states the deadline. */
  timeZone: string;
  partnerName: string;
}

/** Every ASCII punctuation character: CommonMark lets a backslash make each one literal. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** A value printed as typed inside Markdown: on one line, every punctuation character escaped. */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(MARKDOWN_PUNCTUATION, (char) => `\\${char}`);
}

/** The offset of `timeZone` from UTC at `at`, in milliseconds (positive east of Greenwich). */
function zoneOffsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((found) => found.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The last moment of the day `2027-05-01` in the office's time zone: an offer can be answered
 * until that day is over where the office is.
 */
export function replyDeadlineAt(date: string, timeZone: string): Date {
  const nextMidnightAsUtc = Date.parse(`${date}T00:00:00Z`) + 24 * 60 * 60 * 1000;
  // The zone's offset just before its midnight; twice, in case that night changes the clocks.
  let guess = nextMidnightAsUtc - zoneOffsetMs(new Date(nextMidnightAsUtc), timeZone);
  guess = nextMidnightAsUtc - zoneOffsetMs(new Date(guess - 1), timeZone);
  return new Date(guess - 1);
}

/**
 * A deadline as every screen and letter says it: `May 1, 2027 at 11:59 PM EDT`, date, time and
 * the zone named; in `timeZone`, or without one in the reader's own. '' for a moment that is not
 * one.
 */
export function formatDeadline(at: Date | string, timeZone?: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

const text = (answers: LetterSource['answers'], key: string): string => {
  const value = answers[key];
  return typeof value === 'string' ? value.trim() : '';
};

/** The placeholders' values, unescaped. */
export function letterValues(source: LetterSource): LetterValues {
  const { answers } = source;
  const firstName = text(answers, 'first_name');
  return {
    first_name: firstName,
    last_name: text(answers, 'last_name'),
    // Letters greet by the name the applicant goes by; without one, by the first name.
    preferred_name: text(answers, 'preferred_name') || firstName,
    program: text(answers, 'applied_major_desc'),
    term: text(answers, 'entry_term_desc'),
    decision: source.decisionLabel,
    confirmation_number: source.confirmationNumber ?? '',
    reply_deadline: source.replyDeadline
      ? formatDeadline(source.replyDeadline, source.timeZone)
      : '',
    partner_name: source.partnerName,
  };
}

/**
 * The template with each placeholder replaced by its escaped value, in one pass (a value that
 * itself looks like a placeholder stays as typed). An unknown name, which the tenant file's check
 * refuses, is left as written rather than guessed at.
 */
export function fillLetter(template: string, values: LetterValues): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) =>
    Object.hasOwn(values, name) ? escapeMarkdown(values[name as LetterPlaceholder]) : whole,
  );
}
