import { z } from 'zod';
import { CONFIRMATION_CODE_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';
import { fieldErrors } from '../validation/field-errors';

/** Spec 000 section 5: the messages are quoted exactly. */
export const MESSAGES = {
  emailInvalid: 'Your email address must be valid.',
  loginEmailInvalid: 'Please provide a valid email address.',
  passwordRequired: 'Password is required.',
  passwordsMustMatch: 'passwords must match',
  codeInvalid: 'The confirmation code must be exactly 6 numbers.',
  resendEmailInvalid: 'You must provide a valid email address to resend a confirmation code.',
  resetLinkInvalid: 'This password reset link is not valid. Please request a new one.',
} as const;

/** The longest password accepted; longer ones are refused, never truncated. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;

/** The six requirement rows shown under a new password, each with its row message. */
export const PASSWORD_REQUIREMENTS: ReadonlyArray<{
  id: string;
  message: string;
  test: (p: string) => boolean;
}> = [
  {
    id: 'length',
    message: `is at least ${PASSWORD_MIN_LENGTH} characters`,
    test: (p) => p.length >= PASSWORD_MIN_LENGTH,
  },
  {
    id: 'uppercase',
    message: 'contains at least one uppercase letter',
    test: (p) => /\p{Lu}/u.test(p),
  },
  {
    id: 'lowercase',
    message: 'contains at least one lowercase letter',
    test: (p) => /\p{Ll}/u.test(p),
  },
  { id: 'number', message: 'contains at least one number', test: (p) => /\p{Nd}/u.test(p) },
  {
    id: 'special',
    message: 'contains at least one special character',
    test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p),
  },
  {
    id: 'whitespace',
    message: 'contains no leading or trailing whitespace',
    test: (p) => p === p.trim(),
  },
];

export type RequirementState = 'inactive' | 'error' | 'success';

/** Rows are inactive while the password is empty, error while failing, success otherwise. */
export function passwordRequirementStates(
  password: string,
): Array<{ id: string; message: string; state: RequirementState }> {
  return PASSWORD_REQUIREMENTS.map(({ id, message, test }) => ({
    id,
    message,
    state: password === '' ? 'inactive' : test(password) ? 'success' : 'error',
  }));
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}$/;

/**
 * Control and format characters (bidi overrides, zero-width joiners, NUL) and lone surrogates:
 * an address holding one reads differently from what it is in staff screens and mail logs.
 */
const INVISIBLE_OR_BROKEN = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** Usernames are email addresses, trimmed and in NFC; accounts compare them case-insensitively. */
export const email = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(EMAIL_MAX_LENGTH, message)
    .refine((value) => !INVISIBLE_OR_BROKEN.test(value), message)
    .normalize('NFC')
    .regex(EMAIL_PATTERN, message);

export const newPassword = z
  .string({ error: PASSWORD_REQUIREMENTS[0]?.message })
  .max(PASSWORD_MAX_LENGTH, `is at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((password, context) => {
    for (const requirement of PASSWORD_REQUIREMENTS) {
      if (!requirement.test(password))
        context.addIssue({ code: 'custom', message: requirement.message });
    }
  });

export const loginSchema = z.strictObject({
  username: email(MESSAGES.loginEmailInvalid),
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordRequired),
});

export const signupSchema = z.strictObject({
  username: email(MESSAGES.emailInvalid),
  password: newPassword,
});

export const confirmSchema = z.strictObject({
  username: email(MESSAGES.emailInvalid),
  code: z
    .string({ error: MESSAGES.codeInvalid })
    .regex(new RegExp(`^\\d{${CONFIRMATION_CODE_LENGTH}}$`), MESSAGES.codeInvalid),
});

export const resendConfirmSchema = z.strictObject({
  username: email(MESSAGES.resendEmailInvalid),
});

export const forgotPasswordSchema = z.strictObject({
  username: email(MESSAGES.emailInvalid),
});

export const resetPasswordSchema = z
  .strictObject({
    username: email(MESSAGES.emailInvalid),
    password: newPassword,
    confirm_password: z.string({ error: MESSAGES.passwordsMustMatch }).max(PASSWORD_MAX_LENGTH),
    id: z
      .string({ error: MESSAGES.resetLinkInvalid })
      .regex(/^[A-Za-z0-9_-]{22,128}$/, MESSAGES.resetLinkInvalid),
  })
  .superRefine((form, context) => {
    if (form.password !== form.confirm_password) {
      context.addIssue({
        code: 'custom',
        path: ['confirm_password'],
        message: MESSAGES.passwordsMustMatch,
      });
    }
  });

export type LoginForm = z.infer<typeof loginSchema>;
export type SignupForm = z.infer<typeof signupSchema>;
export type ConfirmForm = z.infer<typeof confirmSchema>;
export type ResendConfirmForm = z.infer<typeof resendConfirmSchema>;
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordForm = z.infer<typeof resetPasswordSchema>;

export type FormErrors<Form> = Partial<Record<keyof Form & string, string[]>>;

/** Per-field messages without duplicates, in the order the rules ran (spec 000 section 5). */
export function formErrors<Form>(schema: z.ZodType<Form>, values: unknown): FormErrors<Form> {
  const result = schema.safeParse(values);
  return result.success ? {} : (fieldErrors(result.error) as FormErrors<Form>);
}

/** The canonical form of a username, used wherever accounts are looked up. */
export function normaliseUsername(username: string): string {
  return username.trim().normalize('NFC').toLowerCase();
}
