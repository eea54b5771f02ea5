import { z } from 'zod';
import { STAFF_API } from './staff-api';

/*
 * Decisions in the staff console: recorded on a submitted application from the tenant's codes,
 * changed until released, released now or at a set time, singly or for a filtered list.
 */

export const DECISION_MESSAGES = {
  code: 'Choose one of the decision codes.',
  notSubmitted: 'A decision can only be recorded for a submitted application.',
  released: 'This decision has been released and can no longer be changed.',
  noDecision: 'This application has no decision to release.',
  releaseInPast: 'Choose a release time in the future, or release now.',
  releaseTwice: 'This decision has already been released.',
  releaseAt: 'Give the release time as a date and time, for example 2027-03-15T17:00:00Z.',
  batchEmpty: 'No submitted applications match these filters.',
  batchTooMany: 'A batch holds at most 5,000 applications. Narrow the filters.',
} as const;

/** PUT /staff/api/applications/:applicationId/decision */
export const recordDecisionSchema = z.strictObject({
  code: z.string({ error: DECISION_MESSAGES.code }).min(1, DECISION_MESSAGES.code).max(30),
});

const releaseAt = z.iso.datetime({ offset: true, error: DECISION_MESSAGES.releaseAt });

/** POST /staff/api/applications/:applicationId/decision/release; no `at`: now. */
export const releaseDecisionSchema = z.strictObject({ at: releaseAt.optional() });

/** POST /staff/api/decisions (batch record) */
export const batchDecisionSchema = z.strictObject({
  /** The list's query string (its filters and search), as the exports take it. */
  query: z.string().max(2000),
  code: recordDecisionSchema.shape.code,
});

/** POST /staff/api/decisions/release (batch release of recorded, unreleased decisions) */
export const batchReleaseSchema = z.strictObject({
  query: z.string().max(2000),
  at: releaseAt.optional(),
});

/** An application's decision as the console shows it (part of the application's detail). */
export const staffDecisionSchema = z.object({
  code: z.string(),
  label: z.string(),
  recorded_by: z.string(),
  recorded_at: z.string(),
  release_at: z.string().nullable(),
  released_at: z.string().nullable(),
  reply: z.enum(['accepted', 'declined']).nullable(),
  replied_at: z.string().nullable(),
  reply_deadline: z.string().nullable(),
});
export type StaffDecision = z.infer<typeof staffDecisionSchema>;

export interface DecisionCodeView {
  code: string;
  label: string;
  offer: boolean;
}

export interface BatchResult {
  /** Applications changed. */
  count: number;
  /** Matching applications left alone (not submitted, already released, no decision). */
  skipped: number;
}

export const decisionUrls = {
  codes: `${STAFF_API}/decision-codes`,
  record: (id: string) => `${STAFF_API}/applications/${id}/decision`,
  release: (id: string) => `${STAFF_API}/applications/${id}/decision/release`,
  batch: `${STAFF_API}/decisions`,
  batchRelease: `${STAFF_API}/decisions/release`,
} as const;
