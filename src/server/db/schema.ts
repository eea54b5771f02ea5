import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { StaffRole } from '../../shared/staff/permissions';
import { LIST_KEYS, NAME_KEYS, PHONE_KEYS, SCHOOL_KEYS } from './list-answer-keys';

/** A full transaction id (PostgreSQL's `xid8`), compared with a snapshot's oldest running one. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An applicant's account: the owner of exactly one application. `email` is stored normalised. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull().default(''),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('accounts_email_lower_idx').on(sql`lower(${table.email})`)],
);

/** The one live confirmation code of an account; a resend replaces it. Stored as a hash. */
export const confirmationCodes = pgTable('confirmation_codes', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  createdAt: createdAt(),
});

/** Password-reset links; the token itself is only in the email, the table keeps its hash. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_account_idx').on(table.accountId)],
);

/** Server-side sessions; the cookie carries the token, the table its hash. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_account_idx').on(table.accountId)],
);

/** One row per successful log-in: the profile's successful_login list. */
export const logins = pgTable(
  'logins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    loggedInAt: timestamp('logged_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('logins_account_idx').on(table.accountId)],
);

const keyArray = (keys: readonly string[]) =>
  keys.length === 0 ? `'{}'::text[]` : `array[${keys.map((key) => `'${key}'`).join(', ')}]`;
/**
 * `list_answer_text` and `list_fold` (migration 0006): the answers to `keys` (and the digits of
 * those to `digitKeys`), folded: lower case, accents and punctuation gone, words single-spaced.
 * The function reads the answers once; each `answers->>key` here would decompress them again.
 */
const foldedAnswers = (keys: readonly string[], digitKeys: readonly string[] = []) =>
  `list_fold(list_answer_text(answers, ${keyArray(keys)}, ${keyArray(digitKeys)}))`;

/**
 * The application of an account: answers merged per key, and where the applicant left off.
 * The `list_*` columns serve the staff console's list: PostgreSQL computes them from the row
 * whenever it changes, so saving an answer writes nothing more, and a save that leaves them as
 * they were keeps its in-place (HOT) update (docs/decisions/033-application-list-and-search.md).
 */
export const applications = pgTable(
  'applications',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    answers: jsonb('answers').$type<Record<string, string | boolean>>().notNull().default({}),
    lastPage: text('last_page'),
    tabs: jsonb('tabs').$type<Record<string, string>>().notNull().default({}),
    addAnother: jsonb('add_another').$type<Record<string, number>>().notNull().default({}),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** 0 started, 1 validating, 2 submitted: kept by a trigger on `web_statuses`. */
    listStatus: smallint('list_status').notNull().default(0),
    /** The account's address, lower-cased, kept by triggers: the search looks in one table. */
    listEmail: text('list_email'),
    /** Last name then first name, folded: the name column's order. */
    listName: text('list_name').generatedAlwaysAs(
      sql.raw(foldedAnswers([LIST_KEYS.lastName, LIST_KEYS.firstName])),
    ),
    listProgram: text('list_program').generatedAlwaysAs(
      sql.raw(`nullif(answers->>'${LIST_KEYS.programLabel}', '')`),
    ),
    listProgramCode: text('list_program_code').generatedAlwaysAs(
      sql.raw(`nullif(answers->>'${LIST_KEYS.program}', '')`),
    ),
    listEntryTerm: text('list_entry_term').generatedAlwaysAs(
      sql.raw(`nullif(answers->>'${LIST_KEYS.entryTerm}', '')`),
    ),
    listDecisionType: text('list_decision_type').generatedAlwaysAs(
      sql.raw(`nullif(answers->>'${LIST_KEYS.decisionType}', '')`),
    ),
    /**
     * The hour of the last activity. Indexed in place of `updated_at`, which every save changes:
     * an index on it would make every save rewrite every index of the row.
     */
    listActivityHour: timestamp('list_activity_hour').generatedAlwaysAs(
      sql.raw(`date_trunc('hour', updated_at at time zone 'UTC')`),
    ),
    /** Names, schools, CEEB codes and phone digits, folded: what the search box looks in. */
    listSearch: text('list_search').generatedAlwaysAs(
      sql.raw(foldedAnswers([...NAME_KEYS, ...SCHOOL_KEYS], PHONE_KEYS)),
    ),
    /** Each name word and each spelling of it with one letter left out: names found despite a typo. */
    listNameKeys: text('list_name_keys')
      .array()
      .generatedAlwaysAs(sql.raw(`list_typo_keys(${foldedAnswers(NAME_KEYS)})`)),
  },
  (table) => [
    index('applications_list_status_idx').on(table.listStatus, table.accountId),
    index('applications_list_name_idx').on(table.listName, table.accountId),
    index('applications_list_name_desc_idx').on(
      table.listName.desc().nullsLast(),
      table.accountId.desc(),
    ),
    index('applications_list_program_idx').on(table.listProgram, table.accountId),
    index('applications_list_program_desc_idx').on(
      table.listProgram.desc().nullsLast(),
      table.accountId.desc(),
    ),
    index('applications_list_program_code_idx').on(table.listProgramCode),
    index('applications_list_entry_term_idx').on(table.listEntryTerm, table.accountId),
    index('applications_list_entry_term_desc_idx').on(
      table.listEntryTerm.desc().nullsLast(),
      table.accountId.desc(),
    ),
    index('applications_list_decision_type_idx').on(table.listDecisionType, table.accountId),
    index('applications_list_decision_type_desc_idx').on(
      table.listDecisionType.desc().nullsLast(),
      table.accountId.desc(),
    ),
    index('applications_submitted_at_idx').on(table.submittedAt, table.accountId),
    index('applications_submitted_at_desc_idx').on(
      table.submittedAt.desc().nullsLast(),
      table.accountId.desc(),
    ),
    index('applications_list_activity_idx').on(table.listActivityHour),
    // Counts a filtered list from the index alone, without reading the (wide) rows.
    index('applications_list_filters_idx').on(
      table.listStatus,
      table.listEntryTerm,
      table.listProgramCode,
      table.listDecisionType,
      table.submittedAt,
    ),
    index('applications_list_search_idx').using('gin', table.listSearch.op('gin_trgm_ops')),
    index('applications_list_email_idx').using('gin', table.listEmail.op('gin_trgm_ops')),
    index('applications_list_name_keys_idx').using('gin', table.listNameKeys),
  ],
);

/** The errors the browser found while validating, kept with their time (spec 000 section 5). */
export const validationReports = pgTable(
  'validation_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    errors: jsonb('errors').$type<Record<string, string[]>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('validation_reports_account_idx').on(table.accountId)],
);

/** Each web status an application has reached, once (started, validating, submitted). */
export const webStatuses = pgTable(
  'web_statuses',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    webStatus: text('web_status').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.webStatus] })],
);

/** Fixed-window counters shared by every server, so limits hold behind a load balancer. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/** Mail kept when no SMTP server is configured (development and tests), newest first at /dev/mail. */
export const outbox = pgTable('outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One uploaded document per file question of an account, and its conversion to PDF. `file_key`
 * and `pdf_key` are storage keys the server made (`{accountId}/{uuid}`); `message` is the
 * applicant-facing reason of a FAILED conversion.
 */
export const documentAnswers = pgTable(
  'document_answers',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    status: text('status')
      .$type<'UNPROCESSED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'>()
      .notNull()
      .default('UNPROCESSED'),
    message: text('message'),
    pdfKey: text('pdf_key'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set for a document the applicant sent after submitting, for a checklist item awaited. */
    receivedAfterSubmitAt: timestamp('received_after_submit_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.answerKey] }),
    index('document_answers_pending_idx')
      .on(table.status)
      .where(sql`${table.status} in ('UNPROCESSED', 'IN_PROGRESS')`),
  ],
);

/**
 * Storage keys handed out by POST /api/presigned-url, each for one file question; a conversion
 * may only start from a key issued to the same account for the same question, and uses it up.
 */
export const documentUploads = pgTable(
  'document_uploads',
  {
    fileKey: text('file_key').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    answerKey: text('answer_key').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('document_uploads_account_idx').on(table.accountId)],
);

/**
 * The PDF of a whole application, made by a job after submit or on request. `source_updated_at`
 * is the application's `updated_at` it was made from, so a later change asks for a new one.
 */
export const applicationPdfs = pgTable('application_pdfs', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  status: text('status')
    .$type<'UNPROCESSED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'>()
    .notNull()
    .default('UNPROCESSED'),
  pdfKey: text('pdf_key'),
  message: text('message'),
  sourceUpdatedAt: timestamp('source_updated_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Read-only access for admissions staff to exactly one application. Only the SHA-256 of the
 * token is stored, so a leaked table grants nothing.
 */
export const serviceTokens = pgTable(
  'service_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** Names the link in the console and the audit trail; the token itself is never shown again. */
    id: uuid('id').notNull().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The staff member who made it; null for links made on the command line. */
    createdBy: uuid('created_by').references(() => staffMembers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('service_tokens_account_idx').on(table.accountId),
    uniqueIndex('service_tokens_id_idx').on(table.id),
  ],
);

/** Prefilled answer sets (a counselor's draft) a visitor loads with `?token=`; stored hashed. */
export const temporaryAnswerSets = pgTable('temporary_answer_sets', {
  tokenHash: text('token_hash').primaryKey(),
  answers: jsonb('answers').notNull(),
  label: text('label'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Schools for the search widgets, one row per record of an imported list. `category` is
 * 'college_ceeb' or 'hs_ceeb'; `id` is stable within a category (the CEEB code).
 */
export const lookupRecords = pgTable(
  'lookup_records',
  {
    category: text('category').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    addressLine1: text('address_line_1'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    ceeb: text('ceeb'),
    country: text('country'),
  },
  (table) => [
    primaryKey({ columns: [table.category, table.id] }),
    index('lookup_records_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
    index('lookup_records_ceeb_idx').on(table.category, table.ceeb),
  ],
);

/**
 * Admissions staff: their own identities, never applicants' accounts. A member signs in with a
 * password and a TOTP authenticator (`totp_secret`, set at enrolment), or through the
 * university's identity provider (`oidc_issuer` + `oidc_subject`). `email` is stored normalised.
 */
export const staffMembers = pgTable(
  'staff_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    role: text('role').$type<StaffRole>().notNull(),
    passwordHash: text('password_hash').notNull().default(''),
    /** Base32; kept readable because every code check needs it. */
    totpSecret: text('totp_secret'),
    /** A secret offered at enrolment and not yet confirmed with a code. */
    pendingTotpSecret: text('pending_totp_secret'),
    /** The time step of the last code accepted: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('staff_members_email_lower_idx').on(sql`lower(${table.email})`),
    uniqueIndex('staff_members_oidc_idx').on(table.oidcIssuer, table.oidcSubject),
  ],
);

/** One-time links that let a new staff member set a password; only the hash is kept. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('staff_invitations_staff_idx').on(table.staffId)],
);

/** Single-use recovery codes, each stored as a hash; a new set replaces the old one. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('staff_recovery_codes_staff_idx').on(table.staffId)],
);

/**
 * Staff sessions, apart from applicants'. `stage` is how far the sign-in got: a password alone
 * opens only the second-factor step ('second_factor' or, before enrolment, 'enrol').
 * `second_factor_at` is the last fresh proof of the second factor, for step-up.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'enrol' | 'second_factor' | 'signed_in'>().notNull(),
    method: text('method').$type<'password' | 'oidc'>().notNull(),
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('staff_sessions_staff_idx').on(table.staffId)],
);

/**
 * Sign-ins started with the identity provider and not yet finished: the state (hashed), the
 * nonce and the PKCE verifier. A state is used once; a second callback with it is refused.
 */
export const oidcSignIns = pgTable('oidc_sign_ins', {
  stateHash: text('state_hash').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** A step-up asks the provider for a fresh sign-in of this session's member. */
  stepUpSession: text('step_up_session'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * The audit trail: append-only, each entry's hash chained to the previous one's, so an edited,
 * inserted or deleted row breaks the chain. `seq` has no gaps. No foreign keys: the record of who
 * read an application outlives the application and the staff member.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    actorType: text('actor_type')
      .$type<'staff' | 'service_link' | 'applicant' | 'anonymous' | 'system' | 'api_client'>()
      .notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    applicationId: uuid('application_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** HMAC of the entry chained to the previous MAC; null on entries written before the key. */
    mac: text('mac'),
    /** Which key made `mac` (see audit-keys.ts). */
    keyId: text('key_id'),
  },
  (table) => [
    index('audit_events_application_idx').on(table.applicationId, table.seq),
    index('audit_events_actor_idx').on(table.actorId, table.seq),
    index('audit_events_action_idx').on(table.action, table.seq),
    index('audit_events_at_idx').on(table.at),
  ],
);

/**
 * The states staff (or, for an upload, the applicant's completed document) gave an application's
 * checklist items. An item with no row is Awaiting. Which items an application has is derived
 * from the model and the tenant's list (src/shared/staff/checklist.ts), so a row whose item the
 * answers no longer ask for is kept but not shown. No foreign key to the staff member: who set an
 * item outlives the member's account.
 */
export const checklistMarks = pgTable(
  'checklist_marks',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    itemKey: text('item_key').notNull(),
    state: text('state').$type<'awaiting' | 'received' | 'waived'>().notNull(),
    setByType: text('set_by_type').$type<'staff' | 'applicant'>().notNull(),
    setById: uuid('set_by_id'),
    setByLabel: text('set_by_label'),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.itemKey] })],
);

/**
 * How many checklist items of an application are Awaiting: the list's "missing items" column and
 * filter. Kept apart from `applications` so that recounting never rewrites the application row.
 */
export const checklistCounts = pgTable(
  'checklist_counts',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    missing: integer('missing').notNull(),
    /** The application's updated_at the count was made from: a newer application is recounted. */
    sourceUpdatedAt: timestamp('source_updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('checklist_counts_missing_idx').on(table.missing, table.accountId),
    // The list's "missing items" filter checks each application's count from this index alone.
    index('checklist_counts_account_missing_idx').on(table.accountId, table.missing),
  ],
);

/** A staff member's named views of the list: the list's query string under a name. */
export const staffSavedViews = pgTable(
  'staff_saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: text('query').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('staff_saved_views_name_idx').on(table.staffId, sql`lower(${table.name})`),
  ],
);

/**
 * Exports of many application PDFs as one ZIP, made by a job: who asked, with which filters, how
 * far it got, and where the finished file is until it expires.
 */
export const exportJobs = pgTable(
  'export_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id').notNull(),
    kind: text('kind').$type<'pdf_zip'>().notNull(),
    /** The list's filters and search, as the list's query string. */
    query: text('query').notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed' | 'failed'>().notNull(),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    storageKey: text('storage_key'),
    byteSize: bigint('byte_size', { mode: 'number' }),
    message: text('message'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [index('export_jobs_staff_idx').on(table.staffId, table.createdAt)],
);

/**
 * The receipt of a submitted application: its confirmation number (tenant prefix, cycle,
 * sequence within the cycle), and the SHA-256 fingerprint of what was submitted: the answers,
 * tabs and add-another counts as submitted and each document's converted PDF, by its own hash.
 */
export const applicationReceipts = pgTable('application_receipts', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => applications.accountId, { onDelete: 'cascade' }),
  number: text('number').notNull().unique(),
  cycle: text('cycle').notNull(),
  sequence: integer('sequence').notNull(),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
  fingerprint: text('fingerprint').notNull(),
  /** Each submitted document's answer key and the SHA-256 of its converted PDF. */
  documents: jsonb('documents').$type<Record<string, string>>().notNull().default({}),
  /** The reminder of items only the applicant can provide, once sent. */
  reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
});

/** The last confirmation-number sequence used in each cycle (`FA26`). */
export const receiptSequences = pgTable('receipt_sequences', {
  cycle: text('cycle').primaryKey(),
  last: integer('last').notNull(),
});

/**
 * An application's decision: recorded (and changeable) by staff until it is released, at once or
 * at `release_at`. Nothing of a row reaches the applicant before `released_at`. The letter is
 * rendered from the tenant's template at release and kept as released.
 */
export const decisions = pgTable(
  'decisions',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    recordedById: uuid('recorded_by_id'),
    recordedByLabel: text('recorded_by_label').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    releaseAt: timestamp('release_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** The letter as released (Markdown, placeholders filled). */
    letter: text('letter'),
    replyDeadline: timestamp('reply_deadline', { withTimezone: true }),
    reply: text('reply').$type<'accepted' | 'declined'>(),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
  },
  (table) => [
    index('decisions_due_idx')
      .on(table.releaseAt)
      .where(sql`${table.releasedAt} is null and ${table.releaseAt} is not null`),
    index('decisions_code_idx').on(table.code, table.accountId),
  ],
);

/**
 * The transfer GPA and units of a submitted application, computed by the tenant's rules from its
 * coursework (and any update after submit): the list's GPA and units columns and filters, and the
 * exports, read them. Kept apart from `applications`: an update after submit rewrites only this.
 * No row: nothing submitted yet. A null GPA: no graded units.
 */
export const courseworkTotals = pgTable(
  'coursework_totals',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    transferGpa: numeric('transfer_gpa', { precision: 4, scale: 2 }),
    transferUnits: numeric('transfer_units', { precision: 8, scale: 2 }).notNull(),
    inProgressUnits: numeric('in_progress_units', { precision: 8, scale: 2 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('coursework_totals_gpa_idx').on(table.transferGpa, table.accountId),
    index('coursework_totals_units_idx').on(table.transferUnits, table.accountId),
  ],
);

/**
 * Coursework the applicant added after submit (a term's grades in January): each row is one
 * college's grid as it stood after the update, dated. The submitted answers, and so the receipt's
 * fingerprint, never change; the latest row of each grid is its current coursework.
 */
export const courseworkUpdates = pgTable(
  'coursework_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    /** The grid's answer key: `college_2_coursework`. */
    answerKey: text('answer_key').notNull(),
    /** The grid's JSON after the update, as `coursework-answer.ts` reads it. */
    answer: text('answer').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('coursework_updates_account_idx').on(table.accountId, table.createdAt)],
);

/**
 * A sending college's equivalency table, row by row: how each of its courses transfers. An import
 * replaces one college's rows in one transaction. `course_key` is the subject and number as
 * `equivalencyKey` normalises them, so `math 1a` finds `MATH 1A`.
 */
export const equivalencies = pgTable(
  'equivalencies',
  {
    sendingCeeb: text('sending_ceeb').notNull(),
    courseKey: text('course_key').notNull(),
    subject: text('subject').notNull(),
    number: text('number').notNull(),
    title: text('title').notNull(),
    units: numeric('units', { precision: 6, scale: 2 }).notNull(),
    localCourse: text('local_course').notNull(),
    localUnits: numeric('local_units', { precision: 6, scale: 2 }).notNull(),
    kind: text('kind').notNull().$type<'course' | 'elective' | 'no_credit'>(),
    /** Requirement codes the local course satisfies (`GE-A2`), in the file's order. */
    satisfies: jsonb('satisfies').notNull().$type<string[]>(),
    /** The row's line in the imported file, so a question about a mapping finds its source. */
    line: integer('line').notNull(),
  },
  (table) => [primaryKey({ columns: [table.sendingCeeb, table.courseKey] })],
);

/** One row per sending college with a table: when it was imported, by whom, from which file. */
export const equivalencyTables = pgTable('equivalency_tables', {
  sendingCeeb: text('sending_ceeb').primaryKey(),
  rowCount: integer('row_count').notNull(),
  fileName: text('file_name').notNull(),
  importedByLabel: text('imported_by_label').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An evaluator's word on one course of an application: verified against the transcript,
 * corrected (grade, units or mapping, with a reason) or not on the transcript. A layer over what
 * the applicant entered, never an edit of it; `course_ref` names the course as `courseRefs` does.
 */
export const creditReviews = pgTable(
  'credit_reviews',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    courseRef: text('course_ref').notNull(),
    status: text('status').notNull().$type<'verified' | 'corrected' | 'not_on_transcript'>(),
    /** A correction's values; null where the evaluator kept the applicant's. */
    grade: text('grade'),
    units: numeric('units', { precision: 6, scale: 2 }),
    mappingKind: text('mapping_kind').$type<'course' | 'elective' | 'no_credit'>(),
    localCourse: text('local_course'),
    localUnits: numeric('local_units', { precision: 6, scale: 2 }),
    satisfies: jsonb('satisfies').$type<string[]>(),
    reason: text('reason').notNull().default(''),
    reviewedById: uuid('reviewed_by_id'),
    reviewedByLabel: text('reviewed_by_label').notNull(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.courseRef] })],
);

/**
 * What the list and the exports read of an application's credit: its counts and the CEEB codes of
 * its colleges, recomputed whenever coursework, a review or an equivalency table changes. No row:
 * nothing submitted yet.
 */
export const creditSummaries = pgTable(
  'credit_summaries',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    courses: integer('courses').notNull(),
    mapped: integer('mapped').notNull(),
    needsReview: integer('needs_review').notNull(),
    verified: integer('verified').notNull(),
    /** The CEEB codes of its colleges: an import of one college's table refreshes these rows. */
    colleges: text('colleges').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('credit_summaries_review_idx').on(table.needsReview, table.accountId)],
);

/**
 * Each tenant requirement's status for an application (`golden_four`, `met`), written with its
 * summary; a requirement that does not apply to the application has no row. One narrow row per
 * status, so the list's requirement filter is an index lookup at 100,000 applications.
 */
export const creditRequirementStatuses = pgTable(
  'credit_requirement_statuses',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => creditSummaries.accountId, { onDelete: 'cascade' }),
    requirementId: text('requirement_id').notNull(),
    status: text('status').notNull().$type<'met' | 'in_progress' | 'not_met'>(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.requirementId] }),
    index('credit_requirement_statuses_filter_idx').on(
      table.requirementId,
      table.status,
      table.accountId,
    ),
  ],
);

/**
 * A credit estimate released to the applicant: the evaluation as it stood at release, kept as
 * released (a later change is released again, never shown silently). No row: nothing released,
 * and the applicant's routes answer as if there were no estimate.
 */
export const creditEstimates = pgTable('credit_estimates', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => applications.accountId, { onDelete: 'cascade' }),
  estimate: jsonb('estimate').notNull(),
  releasedById: uuid('released_by_id'),
  releasedByLabel: text('released_by_label').notNull(),
  releasedAt: timestamp('released_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A college's official transcript as the office received it, attached by an evaluator to the
 * application so the coursework can be checked beside it: one PDF per college of the
 * application (`grid_key`), replaced when another is attached.
 */
export const collegeTranscripts = pgTable(
  'college_transcripts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    gridKey: text('grid_key').notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    byteSize: integer('byte_size').notNull(),
    attachedById: uuid('attached_by_id'),
    attachedByLabel: text('attached_by_label').notNull(),
    attachedAt: timestamp('attached_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.gridKey] })],
);

/**
 * The student information system's id of an application, written back by an integrator
 * (`PUT /api/v1/applications/{id}/sis-id`) and shown, searched and exported beside the receipt.
 */
export const applicationSisIds = pgTable(
  'application_sis_ids',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    sisId: text('sis_id').notNull(),
    setByLabel: text('set_by_label').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('application_sis_ids_sis_id_idx').on(table.sisId)],
);

/**
 * What happened to submitted applications, in commit-safe order, for the API's feeds and the
 * webhooks (decision 057). Rows are written by triggers on the tables that change, in the change's
 * own transaction; `tx` is that transaction's id, so a reader takes only rows older than every
 * transaction still running and never skips one that commits late. No foreign key: the record of
 * an event outlives a deleted application.
 */
export const integrationEvents = pgTable(
  'integration_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    tx: xid8('tx').notNull().default(sql`pg_current_xact_id()`),
    type: text('type').notNull(),
    accountId: uuid('account_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
  },
  (table) => [
    // A reader finds the rows of the transactions it could not see last time by their id.
    index('integration_events_tx_idx').on(table.tx),
    index('integration_events_account_idx').on(table.accountId, table.seq),
    index('integration_events_type_idx').on(table.type, table.seq),
  ],
);

/**
 * Each submitted application once, at the position of its latest event: the change feed reads
 * this, so an application changed again moves to the end instead of appearing twice.
 */
export const applicationChanges = pgTable(
  'application_changes',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    tx: xid8('tx').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    uniqueIndex('application_changes_seq_idx').on(table.seq),
    index('application_changes_tx_idx').on(table.tx),
  ],
);

/**
 * An integrator's OAuth 2.0 client (client credentials): only the secret's SHA-256 is kept; the
 * secret is shown once when made or rotated.
 */
export const apiClients = pgTable(
  'api_clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    secretHash: text('secret_hash').notNull(),
    secretCreatedAt: timestamp('secret_created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Calls per minute this client may make; over it, 429 with Retry-After. */
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull().default(600),
    createdByLabel: text('created_by_label').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('api_clients_client_id_idx').on(table.clientId),
    uniqueIndex('api_clients_name_idx').on(table.name),
  ],
);

/** Access tokens issued to clients, by SHA-256; revoking or rotating a client ends them. */
export const apiAccessTokens = pgTable(
  'api_access_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('api_access_tokens_expiry_idx').on(table.expiresAt)],
);

/**
 * A webhook subscription: where to send which events, signed with its secret (Standard Webhooks,
 * `whsec_` + base64). The secret is kept as given because signing needs it. `event_cursor` is
 * the last integration event fanned out to it.
 */
export const webhookSubscriptions = pgTable('webhook_subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: text('events').array().notNull(),
  /** What the subscription may see: an event or a payload field needing another scope is left out. */
  scopes: text('scopes').array().notNull(),
  secret: text('secret').notNull(),
  /** The API client that made it through the API, if one did. */
  apiClientId: uuid('api_client_id').references(() => apiClients.id, { onDelete: 'cascade' }),
  createdByLabel: text('created_by_label').notNull(),
  createdAt: createdAt(),
  eventCursor: bigint('event_cursor', { mode: 'number' }).notNull().default(0),
  /** The snapshot the cursor last moved under: events it could not see are fanned out on commit. */
  eventCursorSnapshot: text('event_cursor_snapshot'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  disabledReason: text('disabled_reason'),
});

/** One event for one subscription: attempted until delivered or its retries run out. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The `webhook-id` header: the same on every attempt and replay, so receivers can dedupe. */
    id: text('id').primaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    accountId: uuid('account_id').notNull(),
    /** The body as first signed: replays send the same bytes. */
    payload: text('payload').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_subscription_idx').on(table.subscriptionId, table.eventSeq),
    // The next due delivery of a subscription, and whether an earlier one of the same application
    // still waits, are found among the pending ones only, however many were delivered before.
    index('webhook_deliveries_pending_idx')
      .on(table.subscriptionId, table.eventSeq)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_pending_account_idx')
      .on(table.subscriptionId, table.accountId, table.eventSeq)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** Each attempt to deliver, for the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    replay: integer('replay').notNull().default(0),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.id)],
);

/** Each run of a scheduled feed (or a dry run), with what it wrote where. */
export const feedRuns = pgTable(
  'feed_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    feed: text('feed').notNull(),
    mode: text('mode').$type<'all' | 'changed' | 'dry_run'>().notNull(),
    status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    /** The change-log positions the run covered: a re-run reads the same range again. */
    fromSeq: bigint('from_seq', { mode: 'number' }),
    /** The previous run's snapshot: changes at or before from_seq it could not see are this run's. */
    fromSnapshot: text('from_snapshot'),
    toSeq: bigint('to_seq', { mode: 'number' }),
    /** This run's snapshot: changes it could not see are the next changed run's. */
    toSnapshot: text('to_snapshot'),
    rowCount: integer('row_count'),
    destination: text('destination'),
    fileName: text('file_name'),
    error: text('error'),
    rerunOf: uuid('rerun_of'),
    startedBy: text('started_by').notNull(),
    /** The schedule's time a scheduled run is for: one run per time, whichever server claims it. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
  },
  (table) => [
    index('feed_runs_feed_idx').on(table.feed, table.startedAt),
    uniqueIndex('feed_runs_schedule_idx').on(table.feed, table.scheduledFor),
  ],
);

/**
 * A read of a submitted application: assigned to a reader (or waiting for one), saved as a draft
 * and submitted once. Each application has at most one read of each round, and a reader reads an
 * application once. Reassigning changes `reader_id` only, so a draft survives it.
 */
export const reviewReads = pgTable(
  'review_reads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    round: text('round').$type<'first' | 'second' | 'third'>().notNull(),
    /** Null while a third read waits for an eligible reader. */
    readerId: uuid('reader_id').references(() => staffMembers.id),
    status: text('status')
      .$type<'assigned' | 'draft' | 'submitted'>()
      .notNull()
      .default('assigned'),
    /** The review form the read is made with: its cycle (`FA26` or `*`) and version. */
    formCycle: text('form_cycle').notNull(),
    formVersion: integer('form_version').notNull(),
    answers: jsonb('answers').$type<Record<string, string | boolean>>().notNull().default({}),
    /** The weighted score, set when submitted. */
    score: numeric('score', { precision: 6, scale: 2, mode: 'number' }),
    recommendation: text('recommendation'),
    assignedAt: timestamp('assigned_at', { withTimezone: true, precision: 3 })
      .notNull()
      .defaultNow(),
    assignedBy: text('assigned_by').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }),
    submittedAt: timestamp('submitted_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    uniqueIndex('review_reads_round_idx').on(table.accountId, table.round),
    uniqueIndex('review_reads_reader_idx').on(table.accountId, table.readerId),
    index('review_reads_queue_idx').on(table.readerId, table.status, table.assignedAt),
  ],
);

/**
 * An assignment rule, tried in `position` order as applications are submitted: the applications
 * its condition (over the answers) holds for go to the least-loaded of its readers, each under
 * the cap on open reads.
 */
export const reviewRules = pgTable(
  'review_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** A form-engine condition over the application's answers; null matches every application. */
    match: jsonb('match'),
    readerIds: uuid('reader_ids').array().notNull(),
    /** The most open reads (assigned or draft) a reader of this rule may hold; null for no cap. */
    cap: integer('cap'),
    enabled: boolean('enabled').notNull().default(true),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('review_rules_position_idx').on(table.position)],
);

/**
 * What a reader must not read: a college they studied or worked at (its CEEB code or name,
 * matched against every college of an application) or one applicant.
 */
export const readerConflicts = pgTable(
  'reader_conflicts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    readerId: uuid('reader_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'college' | 'applicant'>().notNull(),
    value: text('value').notNull(),
    note: text('note').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('reader_conflicts_idx').on(table.readerId, table.kind, table.value)],
);

/** Staff's internal notes on an application: never shown to the applicant. */
export const applicationNotes = pgTable(
  'application_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => staffMembers.id, { onDelete: 'set null' }),
    authorLabel: text('author_label').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('application_notes_account_idx').on(table.accountId, table.createdAt)],
);

/** When a member last opened an application: "new since I last looked" compares its changes. */
export const staffApplicationViews = pgTable(
  'staff_application_views',
  {
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffMembers.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => applications.accountId, { onDelete: 'cascade' }),
    viewedAt: timestamp('viewed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.accountId] })],
);
