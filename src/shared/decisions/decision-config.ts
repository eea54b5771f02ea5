import { z } from 'zod';

/*
 * What a university configures about receipts, reminders and decisions (tenant file keys
 * `receipt_prefix`, `missing_item_reminder_days` and `decisions`). Letter templates are Markdown
 * with `{{placeholder}}`s; an unknown placeholder is refused when the tenant file is loaded.
 */

export const LETTER_PLACEHOLDERS = [
  'first_name',
  'last_name',
  'preferred_name',
  'program',
  'term',
  'decision',
  'confirmation_number',
  'reply_deadline',
  'partner_name',
] as const;
export type LetterPlaceholder = (typeof LETTER_PLACEHOLDERS)[number];

/** `{{ first_name }}`: a name of letters and underscores between double braces. */
export const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

/** Whether a template names the placeholder. */
function namesPlaceholder(template: string, name: LetterPlaceholder): boolean {
  return [...template.matchAll(PLACEHOLDER_PATTERN)].some((match) => match[1] === name);
}

/** The placeholders a template names that are not LETTER_PLACEHOLDERS. */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(LETTER_PLACEHOLDERS);
  const unknown = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1] ?? '';
    if (!known.has(name)) unknown.add(name);
  }
  return [...unknown];
}

const letterTemplate = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(20_000)
  .superRefine((template, context) => {
    const unknown = unknownPlaceholders(template);
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `names unknown placeholders: ${unknown.map((name) => `{{${name}}}`).join(', ')} (known: ${LETTER_PLACEHOLDERS.join(', ')})`,
      });
    }
  });

/** An IANA time zone name this runtime knows. */
export const timeZoneSchema = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be a time zone such as America/New_York' },
);

export const DECISION_CODE = /^[a-z][a-z0-9_]{0,29}$/;

export const decisionCodeSchema = z.strictObject({
  code: z
    .string()
    .regex(DECISION_CODE, 'must be 1 to 30 of a-z, 0-9 and _, starting with a letter'),
  label: z.string().trim().min(1, 'is required').max(80),
  /** An offer the applicant accepts or declines by the reply deadline (an admit). */
  offer: z.boolean().default(false),
  letter: letterTemplate,
});
export type DecisionCode = z.infer<typeof decisionCodeSchema>;

const admitLetter = (reply: string) =>
  `# Congratulations, {{first_name}}!\n\nWe are delighted to offer you admission to **{{program}}** at {{partner_name}} for {{term}}.\n\n${reply}\n\nConfirmation number: {{confirmation_number}}`;

/** The built-in admit letter where the tenant sets no reply deadline, so none is to be named. */
const ADMIT_LETTER_WITHOUT_DEADLINE = admitLetter(
  'Please accept or decline this offer on your application status page.',
);

const BUILT_IN_ADMIT_LETTER = admitLetter(
  'Please accept or decline this offer by **{{reply_deadline}}** on your application status page.',
);

/** Used when the tenant file names no codes: a portal that works before anyone writes letters. */
export const DEFAULT_DECISION_CODES: DecisionCode[] = [
  {
    code: 'admit',
    label: 'Admit',
    offer: true,
    letter: BUILT_IN_ADMIT_LETTER,
  },
  {
    code: 'deny',
    label: 'Deny',
    offer: false,
    letter:
      'Dear {{first_name}},\n\nThank you for applying to {{partner_name}}. After careful review, we are unable to offer you admission for {{term}}.\n\nWe wish you every success.',
  },
  {
    code: 'waitlist',
    label: 'Waitlist',
    offer: false,
    letter:
      'Dear {{first_name}},\n\nYour application to **{{program}}** for {{term}} has been placed on our waitlist. We will write to you again as soon as we can make a final decision.',
  },
  {
    code: 'defer',
    label: 'Defer',
    offer: false,
    letter:
      'Dear {{first_name}},\n\nWe have deferred our decision on your application to {{partner_name}} for {{term}}. We will review it again with the next group of applications.',
  },
];

export const decisionsConfigSchema = z
  .strictObject({
    codes: z
      .array(decisionCodeSchema)
      .min(1)
      .max(20)
      .superRefine((codes, context) => {
        const seen = new Set<string>();
        for (const [index, code] of codes.entries()) {
          if (seen.has(code.code))
            context.addIssue({ code: 'custom', path: [index, 'code'], message: 'is used twice' });
          seen.add(code.code);
        }
      })
      .default(DEFAULT_DECISION_CODES),
    /** The last day (in the admissions office's calendar) an offer can be answered. */
    reply_deadline: z.iso.date('must be a date such as 2027-05-01').optional(),
    /**
     * The admissions office's time zone (IANA, `America/New_York`): the reply day ends at its
     * midnight, and letters and the status page state the deadline in it, named.
     */
    time_zone: timeZoneSchema.default('UTC'),
  })
  .default({ codes: DEFAULT_DECISION_CODES, time_zone: 'UTC' })
  .superRefine((config, context) => {
    if (config.reply_deadline) return;
    // A letter the tenant wrote around a deadline would print an empty one: refused by name.
    for (const [index, code] of config.codes.entries()) {
      if (!namesPlaceholder(code.letter, 'reply_deadline') || code.letter === BUILT_IN_ADMIT_LETTER)
        continue;
      context.addIssue({
        code: 'custom',
        path: ['codes', index, 'letter'],
        message: 'names {{reply_deadline}}, but decisions.reply_deadline is not set',
      });
    }
  });
export type DecisionsConfig = z.infer<typeof decisionsConfigSchema>;

/** Two to six capital letters: the start of every confirmation number (`NSU-FA26-000123`). */
export const receiptPrefixSchema = z
  .string()
  .regex(/^[A-Z]{2,6}$/, 'must be 2 to 6 capital letters')
  .default('APP');

/** Days after submit before an applicant is reminded of items they must still provide. */
export const reminderDaysSchema = z.number().int().min(1).max(120).default(7);

/**
 * The template a code's letter is filled from at release: the built-in admit letter asks for a
 * reply without naming a date when the tenant sets no deadline, rather than print an empty one.
 */
export function letterTemplateOf(
  code: DecisionCode,
  config: Pick<DecisionsConfig, 'reply_deadline'>,
): string {
  return code.letter === BUILT_IN_ADMIT_LETTER && !config.reply_deadline
    ? ADMIT_LETTER_WITHOUT_DEADLINE
    : code.letter;
}
