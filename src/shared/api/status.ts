import { z } from 'zod';

/*
 * What a submitted applicant sees on /completion: the receipt, the checklist with what they can
 * still do about each missing item, and the decision once it is released. The server answers
 * these and the browser parses them with the same schemas.
 */

export const RECEIPT_URL = '/api/receipt';
export const STATUS_URL = '/api/status';
export const DECISION_URL = '/api/decision';
export const DECISION_LETTER_PDF_URL = '/api/decision/letter.pdf';
export const DECISION_REPLY_URL = '/api/decision/reply';

/** GET /api/receipt: null until the application is submitted. */
export const receiptSchema = z.object({
  /** Read aloud on the phone: `NSU-FA26-000123`. */
  number: z.string(),
  submitted_at: z.string(),
  /** SHA-256 (hex) of the submitted answers and documents. */
  fingerprint: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** Who provides a checklist item, which decides what the status page offers the applicant. */
export const ITEM_PROVIDERS = ['applicant', 'college', 'office'] as const;
export type ItemProvider = (typeof ITEM_PROVIDERS)[number];

export const statusItemSchema = z.object({
  key: z.string(),
  label: z.string(),
  state: z.enum(['awaiting', 'received', 'waived']),
  provider: z.enum(ITEM_PROVIDERS),
  /** For an item the applicant may upload now: the file question it goes to. */
  upload_answer_key: z.string().nullable(),
  /** What the applicant can do about it while it is awaited, in one sentence. */
  how: z.string(),
});
export type StatusItem = z.infer<typeof statusItemSchema>;

/** GET /api/status */
export const applicantStatusSchema = z.object({
  submitted: z.boolean(),
  items: z.array(statusItemSchema),
  missing: z.number().int().nonnegative(),
});
export type ApplicantStatus = z.infer<typeof applicantStatusSchema>;

export const DECISION_REPLIES = ['accepted', 'declined'] as const;
export type DecisionReply = (typeof DECISION_REPLIES)[number];

/** GET /api/decision: null until a decision is released; never anything before. */
export const releasedDecisionSchema = z.object({
  label: z.string(),
  released_at: z.string(),
  /** The letter as HTML rendered on the server from Markdown with raw HTML disabled. */
  letter_html: z.string(),
  offer: z.boolean(),
  reply_deadline: z.string().nullable(),
  reply: z.enum(DECISION_REPLIES).nullable(),
  replied_at: z.string().nullable(),
});
export type ReleasedDecision = z.infer<typeof releasedDecisionSchema>;

/** POST /api/decision/reply */
export const decisionReplySchema = z.strictObject({
  reply: z.enum(DECISION_REPLIES, { error: 'Reply accepted or declined.' }),
});

export const STATUS_MESSAGES = {
  replyNotOffer: 'This decision is not an offer to accept or decline.',
  replyClosed: 'The deadline to reply to this offer has passed. Contact the admissions office.',
  replyTwice: 'You have already replied to this offer.',
  noDecision: 'There is no decision on your application yet.',
} as const;
