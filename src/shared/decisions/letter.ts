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
  /** The last day to reply (`2027-05-01`), when the tenant sets one. */
  replyDeadline: string | null;
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

const DEADLINE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** `2027-05-01` as `May 1, 2027`; '' when there is none. */
export function formatReplyDeadline(date: string | null): string {
  if (!date) return '';
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? '' : DEADLINE_FORMAT.format(parsed);
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
    reply_deadline: formatReplyDeadline(source.replyDeadline),
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
