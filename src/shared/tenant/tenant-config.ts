import { z } from 'zod';
import { courseworkRulesSchema } from '../coursework/coursework-rules';
import { creditConfigSchema } from '../credit/credit-requirements';
import {
  decisionsConfigSchema,
  receiptPrefixSchema,
  reminderDaysSchema,
} from '../decisions/decision-config';
import { reviewConfigSchema } from '../review/review-config';
import { contrastRatio } from './contrast';

const hexColour = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #1a2b3c');

const shades = z.strictObject({
  extraLight: hexColour,
  light: hexColour,
  main: hexColour,
  dark: hexColour,
});

type Shades = z.infer<typeof shades>;

/**
 * Spec 000 section 3's white, error and disabled colours. They came later than the others, so a
 * configuration may leave them out and keep these, which the stylesheets also fall back to.
 */
export const DEFAULT_THEME_COLOURS = {
  white: { extraLight: '#ffffff', light: '#ffffff', main: '#ffffff', dark: '#f2f3f5' },
  error: { extraLight: '#fef2f2', light: '#f5b5b5', main: '#b91c1c', dark: '#8a1c1c' },
  disabled: { extraLight: '#eceef1', light: '#c9ccd3', main: '#5f6472', dark: '#3f4350' },
} as const satisfies Record<string, Shades>;

/** WCAG 2.2 minimum contrast: 4.5:1 for text, 3:1 for borders and icons. */
const TEXT_CONTRAST = 4.5;
const GRAPHIC_CONTRAST = 3;

/**
 * Error messages are error.dark text on error.extraLight (toasts, alerts) and on white (a field's
 * message); their borders and icons are error.main beside white. A tenant's error colours must
 * keep all three readable.
 */
const errorColourChecks = [
  { shade: 'dark', against: 'extraLight', of: 'error', minimum: TEXT_CONTRAST },
  { shade: 'dark', against: 'main', of: 'white', minimum: TEXT_CONTRAST },
  { shade: 'main', against: 'main', of: 'white', minimum: GRAPHIC_CONTRAST },
] as const;

/** A tenant checklist item's id: part of its item key `tenant:<id>`. */
export const CHECKLIST_ITEM_ID = /^[a-z0-9_-]{1,40}$/;

const httpsUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const email = z.email({ error: 'must be an email address' });
const phone = z.string().trim().min(7, 'must be a phone number').max(40);

const tenantFieldsSchema = z.strictObject({
  partner_name: z.string().trim().min(1, 'is required').max(120),
  help_email: email,
  transcript_email: email,
  phones: z.strictObject({
    admissions: phone,
    help: phone,
  }),
  admissions_address: z.strictObject({
    name: z.string().trim().min(1, 'is required'),
    line_1: z.string().trim().min(1, 'is required'),
    line_2: z.string().trim().optional(),
    city: z.string().trim().min(1, 'is required'),
    state: z.string().trim().min(1, 'is required'),
    zip: z.string().trim().min(1, 'is required'),
  }),
  urls: z.strictObject({
    home: httpsUrl,
    privacy: httpsUrl,
    pdf_reader: httpsUrl,
    application_fee: httpsUrl,
  }),
  theme: z
    .strictObject({
      primary: shades,
      secondary: shades,
      accent: shades,
      neutral: shades,
      white: shades.default(DEFAULT_THEME_COLOURS.white),
      error: shades.default(DEFAULT_THEME_COLOURS.error),
      disabled: shades.default(DEFAULT_THEME_COLOURS.disabled),
    })
    .superRefine((theme, context) => {
      for (const { shade, against, of, minimum } of errorColourChecks) {
        const ratio = contrastRatio(theme.error[shade], theme[of][against]);
        if (ratio < minimum) {
          context.addIssue({
            code: 'custom',
            path: ['error', shade],
            message: `must contrast at least ${minimum}:1 with ${of}.${against} (it is ${ratio.toFixed(1)}:1)`,
          });
        }
      }
    }),
  /**
   * The analytics the university's tag manager adds, if any: named in the privacy notice with its
   * policy, beside an opt-out the tag manager reads (README, "Tenant configuration"). Without it
   * the notice says that the site uses no analytics.
   */
  analytics: z
    .strictObject({
      name: z.string().trim().min(1, 'is required').max(120),
      policy_url: httpsUrl,
    })
    .optional(),
  /**
   * What the admissions office waits for besides what the answers ask for (an interview, a
   * portfolio review): each becomes an item of every application's checklist, `tenant:<id>`.
   * Ids name stored marks, so an id is kept when its label changes.
   */
  checklist_items: z
    .array(
      z.strictObject({
        id: z.string().regex(CHECKLIST_ITEM_ID, 'must be 1 to 40 of a-z, 0-9, _ and -'),
        label: z.string().trim().min(1, 'is required').max(120),
      }),
    )
    .max(50)
    .superRefine((items, context) => {
      const seen = new Set<string>();
      for (const [index, item] of items.entries()) {
        if (seen.has(item.id))
          context.addIssue({ code: 'custom', path: [index, 'id'], message: 'is used twice' });
        seen.add(item.id);
      }
    })
    .default([]),
  /** The start of every confirmation number, read aloud on the phone (`NSU-FA26-000123`). */
  receipt_prefix: receiptPrefixSchema,
  /** Days after submit before an applicant is reminded of items only they can still provide. */
  missing_item_reminder_days: reminderDaysSchema,
  /** Decision codes with their letters, and the day an offer must be answered by. */
  decisions: decisionsConfigSchema,
  /**
   * How coursework becomes a transfer GPA and units: the grade scale, repeats, passes and the
   * quarter-unit factor. Each rule left out keeps its default; a rule set that contradicts
   * itself is refused by name.
   */
  coursework: courseworkRulesSchema.prefault({}),
  /**
   * Transfer credit: the requirements and agreements evaluated for every application (minimum
   * units and GPA, requirement codes satisfied by mapped courses, agreements resting on them).
   */
  credit: creditConfigSchema.prefault({}),
  /** Reading: the review form of each cycle, third reads, second reads and score bands. */
  review: reviewConfigSchema.prefault({}),
});

/** The tenant file; rules that read two sections are checked once both are parsed. */
export const tenantConfigSchema = tenantFieldsSchema.superRefine((config, context) => {
  for (const [index, requirement] of config.credit.requirements.entries()) {
    if (requirement.kind !== 'courses' || requirement.min_grade === undefined) continue;
    if (!Object.hasOwn(config.coursework.grade_points, requirement.min_grade))
      context.addIssue({
        code: 'custom',
        path: ['credit', 'requirements', index, 'min_grade'],
        message: `${requirement.min_grade} is not a grade of coursework.grade_points`,
      });
  }
});

export type TenantConfig = z.infer<typeof tenantConfigSchema>;
/** What `/public/tenant` gives the browser: all but the decision letters and the review forms, which stay with staff. */
export type PublicTenantConfig = Omit<TenantConfig, 'decisions' | 'review'>;
export type ThemeColourName = keyof TenantConfig['theme'];
export type ShadeName = keyof TenantConfig['theme']['primary'];

/** `--color-primary-main` and friends: the custom properties the stylesheets use. */
export function themeCustomProperties(theme: TenantConfig['theme']): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const [colour, colourShades] of Object.entries(theme)) {
    for (const [shade, value] of Object.entries(colourShades)) {
      properties[`--color-${colour}-${kebab(shade)}`] = value;
    }
  }
  return properties;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Formats zod issues as "field.path: message" lines so an operator can find the field at fault. */
export function describeConfigIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.join('.') || '(root)';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return `${path}: ${message}`;
  });
}
