import { z } from 'zod';
import { CHECKLIST_ITEM_KEY_PATTERN, CHECKLIST_STATES } from '../staff/application-api';

/*
 * The bodies, parameters and answers of `/api/v1`'s applications and decisions. The routes
 * validate with these and the OpenAPI document is generated from them: `.meta({ id })` names a
 * component, `.describe()` documents a field.
 */

export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 1000;

export const SIS_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

const timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601, in UTC.');

export const feedQuerySchema = z.strictObject({
  cursor: z
    .string()
    .max(8_000)
    .optional()
    .describe(
      'The `next_cursor` of the previous page, exactly as it was given. Left out: from the beginning.',
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(FEED_LIMIT_MAX)
    .default(FEED_LIMIT_DEFAULT)
    .describe(
      `How many items at most, 1 to ${FEED_LIMIT_MAX}; a page also holds, first, any change that committed after the previous page was read (usually none).`,
    ),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;

export const applicationIdParamsSchema = z.strictObject({
  id: z.uuid().describe('The application’s id.'),
});

export const documentParamsSchema = applicationIdParamsSchema.extend({
  key: z
    .string()
    .regex(/^[a-z0-9_]{1,80}$/)
    .describe('The answer key of the file question, e.g. `transcript_upload`.'),
});

export const checklistItemParamsSchema = applicationIdParamsSchema.extend({
  item: z
    .string()
    .regex(CHECKLIST_ITEM_KEY_PATTERN)
    .describe('The item’s key: `document:<answer key>`, `transcript:<n>`, `fee` or `tenant:<id>`.'),
});

export const sisIdBodySchema = z
  .strictObject({
    sis_id: z
      .string()
      .regex(SIS_ID_PATTERN, 'must be 1 to 64 of letters, digits, `.`, `-` and `_`')
      .describe('The student information system’s id of the applicant.'),
  })
  .meta({ id: 'SisIdInput' });

export const checklistMarkBodySchema = z
  .strictObject({
    state: z.enum(CHECKLIST_STATES).describe('`received`, `waived`, or back to `awaiting`.'),
  })
  .meta({ id: 'ChecklistMarkInput' });

export const applicationSummarySchema = z
  .object({
    id: z.uuid().describe('The application’s id.'),
    submitted_at: timestamp,
    changed_at: timestamp.describe('When the application last changed in a way the API shows.'),
    confirmation_number: z
      .string()
      .nullable()
      .describe('The receipt’s confirmation number the applicant quotes.'),
    program_code: z.string().nullable().describe('The program applied to, as its code.'),
    program_label: z.string().nullable(),
    entry_term: z.string().nullable().describe('The entry term, as its code.'),
    entry_term_label: z.string().nullable(),
    sis_id: z.string().nullable().describe('The student information system’s id, once written.'),
    href: z.string().describe('The full application, below `/api/v1`.'),
  })
  .meta({ id: 'ApplicationSummary' });
export type ApplicationSummary = z.infer<typeof applicationSummarySchema>;

const feedPage = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      next_cursor: z
        .string()
        .describe('Where the next call starts. Always given: poll with it for later changes.'),
      has_more: z.boolean().describe('Whether more items were ready than this page holds.'),
    })
    .meta({ id });

export const applicationPageSchema = feedPage(applicationSummarySchema, 'ApplicationPage');
export type ApplicationPage = z.infer<typeof applicationPageSchema>;

export const answerSchema = z
  .object({
    code: z.string().describe('The answer’s key, e.g. `applied_major` or `college_2_name`.'),
    label: z.string().describe('The question as the form asks it.'),
    value: z
      .union([z.string(), z.boolean()])
      .describe('The answer: a choice as its code, a check box as true or false.'),
    value_label: z.string().nullable().describe('A choice’s label as the applicant saw it.'),
  })
  .meta({ id: 'Answer' });

export const receiptSchema = z
  .object({
    confirmation_number: z.string(),
    cycle: z.string(),
    submitted_at: timestamp,
    fingerprint: z
      .string()
      .describe('SHA-256 of what was submitted: answers and each document’s converted PDF.'),
  })
  .meta({ id: 'Receipt' });

export const apiChecklistItemSchema = z
  .object({
    key: z.string(),
    kind: z.enum(['document', 'transcript', 'fee', 'tenant']),
    label: z.string(),
    answer_key: z.string().nullable(),
    state: z.enum(CHECKLIST_STATES),
    set_by: z.string().nullable().describe('Who set the state: a name, or `applicant`.'),
    set_at: timestamp.nullable(),
  })
  .meta({ id: 'ChecklistItem' });

export const apiChecklistSchema = z
  .object({
    items: z.array(apiChecklistItemSchema),
    missing: z.number().int().nonnegative().describe('How many items are awaiting.'),
  })
  .meta({ id: 'Checklist' });
export type ApiChecklist = z.infer<typeof apiChecklistSchema>;

export const REPLIES = ['accepted', 'declined'] as const;

export const apiDecisionSchema = z
  .object({
    code: z.string().describe('The tenant’s decision code.'),
    label: z.string(),
    released_at: timestamp,
    reply_deadline: timestamp.nullable(),
    reply: z.enum(REPLIES).nullable(),
    replied_at: timestamp.nullable(),
  })
  .meta({ id: 'Decision' });

const subtotals = {
  gpa: z.string().nullable().describe('Two decimals; null without graded units.'),
  grade_points: z.string(),
  graded_units: z.string(),
  transferable_units: z.string(),
  in_progress_units: z.string(),
  units_attempted: z.string(),
};

export const courseworkTotalsSchema = z
  .object({
    ...subtotals,
    colleges: z.array(z.object({ college: z.string(), ...subtotals })),
  })
  .meta({ id: 'CourseworkTotals' });

export const courseSchema = z
  .object({
    subject: z.string(),
    number: z.string(),
    title: z.string(),
    units: z.string(),
    grade: z.string(),
    counted: z.boolean().describe('False for an attempt the repeat rule leaves out of the GPA.'),
  })
  .meta({ id: 'Course' });

export const courseworkSchema = z
  .object({
    colleges: z.array(
      z.object({
        answer_key: z.string().describe('The grid’s answer key.'),
        college: z.string().describe('The college’s CEEB code, else its name.'),
        system: z.string().describe('`semester` or `quarter` units.'),
        terms: z.array(
          z.object({
            term: z.string().describe('e.g. `Fall 2025`.'),
            status: z.string(),
            courses: z.array(courseSchema),
          }),
        ),
      }),
    ),
    totals: courseworkTotalsSchema.nullable(),
  })
  .meta({ id: 'Coursework' });

export const documentLinkSchema = z
  .object({
    answer_key: z.string(),
    label: z.string().describe('The file question.'),
    file_name: z.string().describe('As uploaded; the download is its converted PDF.'),
    href: z.string().describe('The PDF, below `/api/v1`.'),
  })
  .meta({ id: 'DocumentLink' });

export const applicationSchema = z
  .object({
    id: z.uuid().describe('The application’s id.'),
    submitted_at: timestamp,
    changed_at: timestamp
      .nullable()
      .describe('When it last changed in a way the API shows; the position in the change feed.'),
    sis_id: z.string().nullable().describe('The student information system’s id, once written.'),
    answers: z.array(answerSchema).describe('Every answer shown on the form, in its order.'),
    receipt: receiptSchema.nullable().describe('What the applicant was sent on submitting.'),
    checklist: apiChecklistSchema,
    decision: apiDecisionSchema
      .optional()
      .describe('Present once released, and only for a token with `decisions:read`.'),
    coursework: courseworkSchema.describe(
      'As it stands now: each college’s grid with any update after submit, and the totals.',
    ),
    documents: z.array(documentLinkSchema).describe('Each uploaded document converted to PDF.'),
    pdf_href: z.string().describe('The application as a PDF, below `/api/v1`.'),
  })
  .meta({ id: 'Application' });
export type ApiApplication = z.infer<typeof applicationSchema>;

export const sisIdResultSchema = z
  .object({
    id: z.uuid(),
    sis_id: z.string(),
    set_by: z.string(),
    set_at: timestamp,
  })
  .meta({ id: 'SisId' });

export const DECISION_EVENT_TYPES = ['decision.released', 'offer.replied'] as const;

export const decisionEventSchema = z
  .object({
    application_id: z.uuid(),
    type: z.enum(DECISION_EVENT_TYPES),
    occurred_at: timestamp,
    code: z.string(),
    label: z.string(),
    released_at: timestamp,
    reply_deadline: timestamp.nullable(),
    reply: z.enum(REPLIES).nullable().describe('For `offer.replied`: the reply.'),
    replied_at: timestamp.nullable(),
  })
  .meta({ id: 'DecisionEvent' });
export type DecisionEvent = z.infer<typeof decisionEventSchema>;

export const decisionPageSchema = feedPage(decisionEventSchema, 'DecisionEventPage');
export type DecisionPage = z.infer<typeof decisionPageSchema>;
