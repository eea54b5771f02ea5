import { z } from 'zod';
import { STAFF_API } from '../routes';
import { conditionSchema, reviewFormConfigSchema } from './review-config';

/*
 * The reading calls of the staff console. The browser checks a body with these schemas and the
 * server parses it with them again. Paths are under /staff/api.
 *
 * Blind reads: until a member submits their own read of an application, no response gives them
 * another read's blind answers (every score, and what the form marks blind), its score or its
 * recommendation — unless their role has `reviews.committee`.
 */

export const REVIEW_API = {
  /** GET: the signed-in member's queue. */
  queue: `${STAFF_API}/reviews/queue`,
  /**
   * GET: the reads of one application the member may see, their own, and the form.
   * POST: start a read of an application not assigned to you (`reviews.read_unassigned`).
   */
  applicationReviews: (applicationId: string) =>
    `${STAFF_API}/applications/${applicationId}/reviews`,
  /** PUT: save a draft (a patch of answers). */
  draft: (readId: string) => `${STAFF_API}/reviews/${readId}/draft`,
  /** POST: submit once. */
  submit: (readId: string) => `${STAFF_API}/reviews/${readId}/submit`,
  /** PUT: give the read to another reader; its draft stays. */
  reassign: (readId: string) => `${STAFF_API}/reviews/${readId}/reader`,
  /** POST: assign a filtered list (admins). */
  assignments: `${STAFF_API}/reviews/assignments`,
  /** GET: members who can read, with their open and submitted counts (admins). */
  readers: `${STAFF_API}/reviews/readers`,
  /** GET, PUT: the assignment rules, replaced as a whole (admins). */
  rules: `${STAFF_API}/reviews/rules`,
  /** GET, POST: conflicts of interest; DELETE `${conflicts}/:conflictId` (admins). */
  conflicts: `${STAFF_API}/reviews/conflicts`,
  /** GET: every read of an application with each criterion's mean and spread (committee). */
  committee: (applicationId: string) => `${STAFF_API}/applications/${applicationId}/committee`,
  /** GET: agreement between first and second reads, per cycle (committee). */
  agreement: `${STAFF_API}/reviews/agreement`,
  /** GET, POST: internal notes on an application. */
  notes: (applicationId: string) => `${STAFF_API}/applications/${applicationId}/notes`,
} as const;

export const REVIEW_MESSAGES_API = {
  notYours: 'This read is assigned to someone else.',
  notAssigned: 'This application is not assigned to you for reading.',
  submitted: 'This read has already been submitted and can no longer be changed.',
  notSubmittedApplication: 'Only submitted applications can be read.',
  readerDisabled: 'This member is disabled and cannot be given reads.',
  readerCannotRead: 'This member’s role cannot read applications.',
  readerConflict: 'This member has a conflict of interest with this application.',
  readerAlreadyReads: 'This member already reads this application.',
  noReaders: 'Choose at least one reader.',
  countChanged: (expected: number, actual: number) =>
    `The list now holds ${actual} applications, not ${expected}. Check the list and confirm again.`,
  batchEmpty: 'No submitted applications match these filters.',
  batchTooMany: 'Assign at most 5,000 applications at a time. Narrow the filters.',
  noteEmpty: 'Write the note first.',
  invalidAnswers: 'Some answers cannot be saved. Check the marked questions.',
  incomplete: 'Answer every required question before submitting.',
  alreadyReading: 'You already have a read of this application.',
  roundsFull: 'This application already has every read it can take.',
} as const;

export const READ_ROUNDS = ['first', 'second', 'third'] as const;
export type ReadRound = (typeof READ_ROUNDS)[number];
export const READ_STATUSES = ['assigned', 'draft', 'submitted'] as const;
export type ReadStatus = (typeof READ_STATUSES)[number];

export const ROUND_LABELS: Record<ReadRound, string> = {
  first: 'First read',
  second: 'Second read (blind)',
  third: 'Third read',
};

export const readIdParams = z.strictObject({ readId: z.uuid('Not a read id.') });

const answerValue = z.union([z.string(), z.boolean()]);

/** PUT draft: a patch of the read's answers, checked against the form by parseAnswerPatch. */
export const saveDraftSchema = z.strictObject({
  answers: z.record(z.string().max(60), z.unknown()),
});

/** POST submit: nothing but the read's id; the stored draft is what is submitted. */
export const submitReadSchema = z.strictObject({});

/** POST an application's reviews: start a read of it; nothing else is sent. */
export const startReadSchema = z.strictObject({});

/** PUT reader */
export const reassignReadSchema = z.strictObject({ reader_id: z.uuid('Choose a reader.') });

/**
 * POST assignments: the list's query string (as exports and decisions take it), the readers, and
 * the count the administrator saw, refused when the list has changed since.
 */
export const assignListSchema = z.strictObject({
  query: z.string().max(2000),
  reader_ids: z.array(z.uuid('Not a member id.')).min(1, REVIEW_MESSAGES_API.noReaders).max(200),
  /** With a blind second read by a different reader; the tenant's `review.second_reads` by default. */
  second_reads: z.boolean().optional(),
  /** Open reads a reader may hold after this assignment; none: no cap. */
  cap: z.number().int().min(1).max(10_000).optional(),
  expected_count: z.number().int().min(0).max(100_000),
});

export const assignmentResultSchema = z.object({
  assigned: z.number().int(),
  /** Applications that already had every read asked for. */
  already_assigned: z.number().int(),
  /** Reads left without a reader: every reader conflicted or at the cap. */
  unassigned: z.number().int(),
  per_reader: z.array(z.object({ reader_id: z.string(), name: z.string(), count: z.number() })),
});
export type AssignmentResult = z.infer<typeof assignmentResultSchema>;

export const reviewRuleSchema = z.strictObject({
  name: z.string().trim().min(1, 'Name the rule.').max(80),
  /** Over the application's answers, e.g. `{ "valueKey": "applied_major", "operator": "in", "target": ["205"] }`. */
  match: conditionSchema.nullable(),
  reader_ids: z.array(z.uuid('Not a member id.')).min(1, REVIEW_MESSAGES_API.noReaders).max(200),
  cap: z.number().int().min(1).max(10_000).nullable(),
  enabled: z.boolean(),
});
export type ReviewRule = z.infer<typeof reviewRuleSchema>;
export const saveRulesSchema = z.strictObject({ rules: z.array(reviewRuleSchema).max(50) });

export const CONFLICT_KINDS = ['college', 'applicant'] as const;
export const createConflictSchema = z.strictObject({
  reader_id: z.uuid('Choose a reader.'),
  kind: z.enum(CONFLICT_KINDS),
  /** A college's CEEB code or name, or an application id. */
  value: z.string().trim().min(1, 'Name the college or the application.').max(200),
  note: z.string().trim().max(500).default(''),
});
export const conflictIdParams = z.strictObject({ conflictId: z.uuid('Not a conflict id.') });

export const createNoteSchema = z.strictObject({
  body: z.string().trim().min(1, REVIEW_MESSAGES_API.noteEmpty).max(5000),
});

/** A read as one member may see it: blind parts are absent (not empty) where they may not. */
export const readViewSchema = z.object({
  id: z.string(),
  application_id: z.string(),
  round: z.enum(READ_ROUNDS),
  status: z.enum(READ_STATUSES),
  reader_id: z.string().nullable(),
  reader_name: z.string().nullable(),
  form_cycle: z.string(),
  form_version: z.number(),
  answers: z.record(z.string(), answerValue),
  /** Null until submitted, and absent from another's read while blind. */
  score: z.number().nullable().optional(),
  recommendation: z.string().nullable().optional(),
  assigned_at: z.string(),
  saved_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  /** Whether blind parts were withheld from this view. */
  blinded: z.boolean(),
});
export type ReadView = z.infer<typeof readViewSchema>;

/** GET an application's reviews */
export const applicationReviewsSchema = z.object({
  form: reviewFormConfigSchema,
  /** The tenant's decision codes, the recommendation's options. */
  decision_codes: z.array(z.object({ value: z.string(), label: z.string() })),
  mine: readViewSchema.nullable(),
  others: z.array(readViewSchema),
  /** Whether the member may start a read of this application without an assignment. */
  can_start: z.boolean(),
});
export type ApplicationReviews = z.infer<typeof applicationReviewsSchema>;

export const queueItemSchema = z.object({
  read_id: z.string(),
  application_id: z.string(),
  applicant_name: z.string(),
  program: z.string().nullable(),
  entry_term: z.string().nullable(),
  round: z.enum(READ_ROUNDS),
  status: z.enum(READ_STATUSES),
  assigned_at: z.string(),
  saved_at: z.string().nullable(),
});
export type QueueItem = z.infer<typeof queueItemSchema>;

/** GET queue?status=open|submitted: open reads oldest first; submitted newest first. */
export const queueQuerySchema = z.strictObject({
  status: z.enum(['open', 'submitted']).default('open'),
});
export const queueSchema = z.object({
  open_count: z.number().int(),
  submitted_count: z.number().int(),
  items: z.array(queueItemSchema),
});
export type Queue = z.infer<typeof queueSchema>;

export const readerLoadSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  disabled: z.boolean(),
  open: z.number().int(),
  submitted: z.number().int(),
});
export type ReaderLoad = z.infer<typeof readerLoadSchema>;

export const criterionSpreadSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number(),
  mean: z.number().nullable(),
  spread: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});

export const committeeViewSchema = z.object({
  form: reviewFormConfigSchema,
  reads: z.array(readViewSchema),
  criteria: z.array(criterionSpreadSchema),
  mean_score: z.number().nullable(),
  /** Each recommendation code with the reads giving it, most first. */
  recommendations: z.array(z.object({ code: z.string(), label: z.string(), count: z.number() })),
  /** With the tenant's score bands, each score is also given as its band. */
  bands: z.array(z.object({ label: z.string(), min: z.number() })).nullable(),
  third_read_gap: z.number().nullable(),
});
export type CommitteeView = z.infer<typeof committeeViewSchema>;

export const noteSchema = z.object({
  id: z.string(),
  author: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type ApplicationNote = z.infer<typeof noteSchema>;

/* Assignment (admins): the rules, conflicts and reassignment as the server answers them. */

/** GET/PUT rules: the rules in the order they are tried. */
export const reviewRulesSchema = z.object({
  rules: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      match: conditionSchema.nullable(),
      reader_ids: z.array(z.string()),
      cap: z.number().int().nullable(),
      enabled: z.boolean(),
    }),
  ),
});
export type ReviewRules = z.infer<typeof reviewRulesSchema>;

export const readerConflictSchema = z.object({
  id: z.string(),
  reader_id: z.string(),
  reader_name: z.string(),
  kind: z.enum(CONFLICT_KINDS),
  value: z.string(),
  note: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});
export type ReaderConflict = z.infer<typeof readerConflictSchema>;

/** PUT reader: the read as it now stands (its answers are not part of it). */
export const reassignedReadSchema = z.object({
  id: z.string(),
  application_id: z.string(),
  round: z.enum(READ_ROUNDS),
  status: z.enum(READ_STATUSES),
  reader_id: z.string(),
  reader_name: z.string(),
});
export type ReassignedRead = z.infer<typeof reassignedReadSchema>;

export const ASSIGNMENT_MESSAGES_API = {
  unknownReader: 'Choose a member of the staff.',
  conflictExists: 'This conflict of interest is already recorded.',
  notApplicationId: 'An applicant conflict names the application by its id.',
  unknownAnswerKey: (key: string) => `“${key}” is not a question of the application.`,
} as const;

/** GET agreement: how closely first and second reads agree, per cycle (committee). */
export const agreementSchema = z.object({
  cycles: z.array(
    z.object({
      /** The receipt's cycle (`FA26`); null for applications without a receipt. */
      cycle: z.string().nullable(),
      /** Applications with a submitted first and second read. */
      count: z.number().int(),
      /** Mean absolute difference between the two scores; null without a pair of scores. */
      mean_difference: z.number().nullable(),
      /** Share of pairs whose scores are within `within` of each other, 0 to 1. */
      within_gap: z.number().nullable(),
      /** The distance counted as agreeing: the tenant's third-read gap, else 1 point. */
      within: z.number(),
      /** Per criterion: the share of pairs giving it the same point, 0 to 1. */
      criteria: z.array(
        z.object({
          key: z.string(),
          label: z.string(),
          count: z.number().int(),
          exact: z.number().nullable(),
        }),
      ),
    }),
  ),
});
export type Agreement = z.infer<typeof agreementSchema>;

/** GET notes: newest first. POST notes answers the note it made (noteSchema). */
export const notesListSchema = z.array(noteSchema);
