import { answerKeySpecs } from '../../shared/form/answer-keys';
import { evaluate } from '../../shared/form/conditions';
import type { ConditionExpr, FormModel } from '../../shared/form/model';
import {
  ASSIGNMENT_MESSAGES_API,
  type AssignmentResult,
  type Queue,
  REVIEW_MESSAGES_API,
  type ReaderConflict,
  type ReaderLoad,
  type ReadRound,
  type ReassignedRead,
  type ReviewRule,
  type ReviewRules,
} from '../../shared/review/review-api';
import type { ReviewConfig } from '../../shared/review/review-config';
import { reviewFormConfigFor } from '../../shared/review/review-form';
import type { ListViewer } from '../../shared/staff/application-list-api';
import { roleAllows, STAFF_ROLES, type StaffRole } from '../../shared/staff/permissions';
import { parseSelectionQueryString } from '../applications-list/application-selection';
import { selectionCondition } from '../applications-list/application-selection-store';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { RequestAudit } from '../audit/request-audit';
import type { AppDatabase } from '../db/database';
import type { Executor } from '../db/executor';
import { NOT_FOUND_MESSAGE } from '../http/errors-plugin';
import { HttpError } from '../http/http-error';
import {
  type AssignmentPlan,
  collegeKeysOf,
  type PlanApplication,
  type PlanReader,
  planAssignments,
} from './assignment-plan';
import {
  type ApplicationForPlan,
  type AssignmentStore,
  createAssignmentStore,
  type MemberRow,
  type ReadOfApplication,
} from './assignment-store';

/** A list assignment covers at most this many applications. */
export const ASSIGN_MAX = 5_000;
/** The most reads a queue answers at once. */
export const QUEUE_LIMIT = 500;

/** Who assigns as applications arrive or a third read waits: no member, the server. */
const ASSIGNMENT_LABEL = 'review assignment';
export const ASSIGNMENT_ACTOR: AuditActor = { type: 'system', label: ASSIGNMENT_LABEL };

export interface AssignmentServiceDeps {
  db: AppDatabase;
  model: FormModel;
  review: ReviewConfig;
  audit: Pick<AuditTrail, 'record'>;
}

/** The member acting, as the audit trail and `assigned_by` name them. */
export interface Assigner {
  label: string;
  /** The administrator as the list they assign sees it (filters on reading, new since…). */
  viewer?: ListViewer;
  audit: Pick<RequestAudit, 'record'>;
}

const READING_ROLES: StaffRole[] = STAFF_ROLES.filter((role) => roleAllows(role, 'reviews.read'));

function memberProblem(member: MemberRow | undefined): string | null {
  if (!member) return ASSIGNMENT_MESSAGES_API.unknownReader;
  if (member.disabled) return REVIEW_MESSAGES_API.readerDisabled;
  if (!roleAllows(member.role, 'reviews.read')) return REVIEW_MESSAGES_API.readerCannotRead;
  return null;
}

/** A 422 naming the member who cannot be given reads, and why. */
function refusedMember(field: string, member: MemberRow | undefined, problem: string): HttpError {
  const message = member ? `${member.name}: ${problem}` : problem;
  return new HttpError(422, message, { [field]: [message] });
}

function keysOf(expr: ConditionExpr, into: Set<string>): Set<string> {
  if ('all' in expr) for (const part of expr.all) keysOf(part, into);
  else if ('any' in expr) for (const part of expr.any) keysOf(part, into);
  else if ('not' in expr) keysOf(expr.not, into);
  else into.add(expr.valueKey);
  return into;
}

/**
 * Reading assignments: a filtered list dealt out to readers, rules tried as applications are
 * submitted, reads waiting for a reader given one, a read moved to another reader, and each
 * member's queue. Every assignment plans with `planAssignments` under one lock, so the loads it
 * reads are the loads it writes.
 */
export function createAssignmentService(deps: AssignmentServiceDeps) {
  const { db, model, review } = deps;
  const store: AssignmentStore = createAssignmentStore(db);
  const collegeKeys = collegeKeysOf(model);
  const answerKeys = answerKeySpecs(model);

  /** The readers of a plan with their loads and conflicts, eligible ones only. */
  async function planReaders(
    ids: readonly string[],
    cap: number | null,
    tx: Executor,
  ): Promise<{ readers: PlanReader[]; names: Map<string, string> }> {
    const members = await store.membersWithLoads({ ids }, tx);
    const byId = new Map(members.map((member) => [member.id, member]));
    const conflicts = await store.conflictsOf(ids, tx);
    const readers: PlanReader[] = [];
    for (const id of new Set(ids)) {
      const member = byId.get(id);
      if (!member || memberProblem(member) !== null) continue;
      readers.push({
        id,
        open: member.open,
        cap,
        conflicts: conflicts.filter((conflict) => conflict.readerId === id),
      });
    }
    return { readers, names: new Map(members.map((member) => [member.id, member.name])) };
  }

  function planApplications(
    found: readonly ApplicationForPlan[],
    reads: readonly ReadOfApplication[],
  ): PlanApplication[] {
    const readsBy = new Map<string, ReadOfApplication[]>();
    for (const read of reads) {
      const list = readsBy.get(read.accountId);
      if (list) list.push(read);
      else readsBy.set(read.accountId, [read]);
    }
    return found.map((application) => ({
      id: application.id,
      colleges: application.colleges,
      reads: readsBy.get(application.id) ?? [],
    }));
  }

  /** Inserts a plan's new reads, each with its cycle's form; returns the reads per reader. */
  async function insertPlanned(
    plan: AssignmentPlan,
    found: readonly ApplicationForPlan[],
    assignedBy: string,
    tx: Executor,
  ): Promise<Map<string, number>> {
    const cycles = new Map(found.map((application) => [application.id, application.cycle]));
    const inserted = await store.insertReads(
      plan.reads.map((read) => {
        const form = reviewFormConfigFor(review, cycles.get(read.applicationId) ?? null);
        return {
          ...read,
          accountId: read.applicationId,
          formCycle: form.cycle,
          formVersion: form.version,
        };
      }),
      assignedBy,
      tx,
    );
    const perReader = new Map<string, number>();
    for (const read of inserted)
      perReader.set(read.readerId, (perReader.get(read.readerId) ?? 0) + 1);
    return perReader;
  }

  async function assignWaiting(accountId: string | null): Promise<number> {
    return db.transaction(async (tx) => {
      await store.lock(tx);
      const waiting = await store.applicationsWaiting(accountId, tx);
      if (waiting.length === 0) return 0;
      const readers = await store.membersWithLoads({ roles: READING_ROLES }, tx);
      const eligible = readers.filter((member) => memberProblem(member) === null);
      const { readers: planned } = await planReaders(
        eligible.map((member) => member.id),
        null,
        tx,
      );
      const found = await store.applicationsForPlan(waiting, collegeKeys, tx);
      const reads = await store.readsOf(waiting, tx);
      const plan = planAssignments(planApplications(found, reads), planned, {
        rounds: [],
        fillWaiting: true,
      });
      const filled = await store.fillReads(plan.fills, tx);
      for (const fill of plan.fills) {
        await deps.audit.record(
          {
            actor: ASSIGNMENT_ACTOR,
            action: 'review.assigned',
            applicationId: fill.applicationId,
            detail: { waiting: true, reader_id: fill.readerId },
          },
          tx,
        );
      }
      return filled;
    });
  }

  async function rulesView(): Promise<ReviewRules> {
    const rows = await store.rules();
    return {
      rules: rows.map((rule) => ({
        id: rule.id,
        name: rule.name,
        match: (rule.match ?? null) as ConditionExpr | null,
        reader_ids: rule.readerIds,
        cap: rule.cap,
        enabled: rule.enabled,
      })),
    };
  }

  return {
    async readers(): Promise<ReaderLoad[]> {
      const members = await store.membersWithLoads({ roles: READING_ROLES });
      return members.map((member) => ({
        id: member.id,
        name: member.name,
        role: member.role,
        disabled: member.disabled,
        open: member.open,
        submitted: member.submitted,
      }));
    },

    async assignList(
      body: {
        query: string;
        reader_ids: string[];
        second_reads?: boolean | undefined;
        cap?: number | undefined;
        expected_count: number;
      },
      by: Assigner,
    ): Promise<AssignmentResult> {
      const parsed = parseSelectionQueryString(body.query, undefined, by.viewer);
      const readerIds = [...new Set(body.reader_ids)];
      const members = new Map((await store.members(readerIds)).map((row) => [row.id, row]));
      for (const id of readerIds) {
        const member = members.get(id);
        const problem = memberProblem(member);
        if (problem) throw refusedMember('reader_ids', member, problem);
      }
      const secondReads = body.second_reads ?? review.second_reads;
      const rounds: ReadRound[] = secondReads ? ['first', 'second'] : ['first'];
      return db.transaction(async (tx) => {
        await store.lock(tx);
        const selection = await selectionCondition(tx, parsed.request);
        const found = selection
          ? await store.selection(selection.where, selection.order, ASSIGN_MAX + 1, tx)
          : { matched: 0, ids: [] };
        if (found.matched !== body.expected_count) {
          const message = REVIEW_MESSAGES_API.countChanged(body.expected_count, found.matched);
          throw new HttpError(409, message, { expected_count: [message] });
        }
        if (found.ids.length === 0)
          throw new HttpError(400, REVIEW_MESSAGES_API.batchEmpty, {
            query: [REVIEW_MESSAGES_API.batchEmpty],
          });
        if (found.ids.length > ASSIGN_MAX)
          throw new HttpError(400, REVIEW_MESSAGES_API.batchTooMany, {
            query: [REVIEW_MESSAGES_API.batchTooMany],
          });
        const { readers, names } = await planReaders(readerIds, body.cap ?? null, tx);
        const applications = await store.applicationsForPlan(found.ids, collegeKeys, tx);
        const reads = await store.readsOf(found.ids, tx);
        const plan = planAssignments(planApplications(applications, reads), readers, { rounds });
        const perReader = await insertPlanned(plan, applications, by.label, tx);
        const assigned = [...perReader.values()].reduce((sum, count) => sum + count, 0);
        const unassigned = plan.unassigned.length + (plan.reads.length - assigned);
        await by.audit.record(
          {
            action: 'review.assigned',
            detail: {
              batch: true,
              filters: parsed.filters,
              count: assigned,
              applications: found.ids.length,
              already_assigned: plan.alreadyAssigned,
              unassigned,
              readers: readers.length,
              second_reads: secondReads,
              cap: body.cap ?? null,
            },
          },
          tx,
        );
        return {
          assigned,
          already_assigned: plan.alreadyAssigned,
          unassigned,
          per_reader: readerIds.map((id) => ({
            reader_id: id,
            name: names.get(id) ?? '',
            count: perReader.get(id) ?? 0,
          })),
        };
      });
    },

    async reassign(readId: string, readerId: string, by: Assigner): Promise<ReassignedRead> {
      return db.transaction(async (tx) => {
        await store.lock(tx);
        const read = await store.read(readId, tx, { lock: true });
        if (!read) throw new HttpError(404, NOT_FOUND_MESSAGE);
        if (read.status === 'submitted') throw new HttpError(409, REVIEW_MESSAGES_API.submitted);
        const [member] = await store.members([readerId], tx);
        const problem = memberProblem(member);
        if (problem) throw refusedMember('reader_id', member, problem);
        const name = member?.name ?? '';
        const view = (): ReassignedRead => ({
          id: read.id,
          application_id: read.accountId,
          round: read.round,
          status: read.status,
          reader_id: readerId,
          reader_name: name,
        });
        if (read.readerId === readerId) return view();
        const others = await store.readsOf([read.accountId], tx);
        if (others.some((other) => other.readerId === readerId))
          throw refusedMember('reader_id', member, REVIEW_MESSAGES_API.readerAlreadyReads);
        const [application] = await store.applicationsForPlan([read.accountId], collegeKeys, tx);
        const conflicts = await store.conflictsOf([readerId], tx);
        const plan = planAssignments(
          [{ id: read.accountId, colleges: application?.colleges ?? [], reads: [] }],
          [{ id: readerId, open: 0, cap: null, conflicts }],
          { rounds: ['first'] },
        );
        if (plan.reads.length === 0)
          throw refusedMember('reader_id', member, REVIEW_MESSAGES_API.readerConflict);
        await store.setReader(read.id, readerId, tx);
        await by.audit.record(
          {
            action: 'review.reassigned',
            applicationId: read.accountId,
            detail: {
              read_id: read.id,
              round: read.round,
              from: read.readerId,
              to: readerId,
              status: read.status,
            },
          },
          tx,
        );
        return view();
      });
    },

    rules: rulesView,

    async saveRules(rules: readonly ReviewRule[], by: Assigner): Promise<ReviewRules> {
      for (const [index, rule] of rules.entries()) {
        if (!rule.match) continue;
        for (const key of keysOf(rule.match, new Set())) {
          if (answerKeys.has(key)) continue;
          const message = ASSIGNMENT_MESSAGES_API.unknownAnswerKey(key);
          throw new HttpError(400, message, { [`rules.${index}.match`]: [message] });
        }
      }
      const ids = [...new Set(rules.flatMap((rule) => rule.reader_ids))];
      const members = new Map((await store.members(ids)).map((row) => [row.id, row]));
      for (const [index, rule] of rules.entries()) {
        for (const id of rule.reader_ids) {
          const member = members.get(id);
          const problem = memberProblem(member);
          if (problem) throw refusedMember(`rules.${index}.reader_ids`, member, problem);
        }
      }
      await store.transaction(async (tx) => {
        await store.lock(tx);
        await store.replaceRules(
          rules.map((rule) => ({
            name: rule.name,
            match: rule.match,
            readerIds: [...new Set(rule.reader_ids)],
            cap: rule.cap,
            enabled: rule.enabled,
          })),
          by.label,
          tx,
        );
        await by.audit.record(
          {
            action: 'review.rules_saved',
            detail: {
              rules: rules.length,
              enabled: rules.filter((rule) => rule.enabled).length,
            },
          },
          tx,
        );
      });
      return rulesView();
    },

    async conflicts(): Promise<ReaderConflict[]> {
      return (await store.conflicts()).map(conflictView);
    },

    async addConflict(
      body: { reader_id: string; kind: 'college' | 'applicant'; value: string; note: string },
      by: Assigner,
    ): Promise<ReaderConflict> {
      if (body.kind === 'applicant' && !isUuid(body.value))
        throw new HttpError(400, ASSIGNMENT_MESSAGES_API.notApplicationId, {
          value: [ASSIGNMENT_MESSAGES_API.notApplicationId],
        });
      const [member] = await store.members([body.reader_id]);
      if (!member)
        throw new HttpError(422, ASSIGNMENT_MESSAGES_API.unknownReader, {
          reader_id: [ASSIGNMENT_MESSAGES_API.unknownReader],
        });
      return store.transaction(async (tx) => {
        const created = await store.insertConflict(
          {
            readerId: body.reader_id,
            kind: body.kind,
            value: body.kind === 'applicant' ? body.value.toLowerCase() : body.value,
            note: body.note,
          },
          by.label,
          tx,
        );
        if (!created) throw new HttpError(409, ASSIGNMENT_MESSAGES_API.conflictExists);
        await by.audit.record(
          {
            action: 'review.conflict_created',
            applicationId: body.kind === 'applicant' ? body.value.toLowerCase() : null,
            detail: {
              conflict_id: created.id,
              reader_id: body.reader_id,
              kind: body.kind,
              // A college is no one's personal data; an applicant is named by the entry's id.
              ...(body.kind === 'college' ? { college: body.value } : {}),
            },
          },
          tx,
        );
        return conflictView(created);
      });
    },

    async deleteConflict(id: string, by: Assigner): Promise<void> {
      await store.transaction(async (tx) => {
        const removed = await store.deleteConflict(id, tx);
        if (!removed) throw new HttpError(404, NOT_FOUND_MESSAGE);
        await by.audit.record(
          {
            action: 'review.conflict_deleted',
            applicationId:
              removed.kind === 'applicant' && isUuid(removed.value) ? removed.value : null,
            detail: { conflict_id: id, reader_id: removed.readerId, kind: removed.kind },
          },
          tx,
        );
      });
    },

    async queue(readerId: string, status: 'open' | 'submitted'): Promise<Queue> {
      const [rows, counts] = await Promise.all([
        store.queue(readerId, status, QUEUE_LIMIT),
        store.queueCounts(readerId),
      ]);
      return {
        open_count: counts.open,
        submitted_count: counts.submitted,
        items: rows.map((row) => ({
          read_id: row.readId,
          application_id: row.applicationId,
          applicant_name: [row.firstName, row.lastName]
            .map((part) => part?.trim() ?? '')
            .filter((part) => part !== '')
            .join(' '),
          program: row.program,
          entry_term: row.entryTerm,
          round: row.round,
          status: row.status,
          assigned_at: row.assignedAt.toISOString(),
          saved_at: row.savedAt?.toISOString() ?? null,
        })),
      };
    },

    /**
     * After a submit: the first enabled rule whose condition holds over the answers gives the
     * application its first read (and a blind second when the tenant asks for second reads),
     * among that rule's readers and under its cap. No rule holds: nothing is assigned.
     */
    async assignOnSubmit(accountId: string): Promise<number> {
      // Most offices have no rules: their submits never wait on the assignment lock.
      if (!(await store.rules()).some((rule) => rule.enabled)) return 0;
      return db.transaction(async (tx) => {
        await store.lock(tx);
        const rules = (await store.rules(tx)).filter((rule) => rule.enabled);
        const submitted = await store.submittedAnswers(accountId, tx);
        if (!submitted) return 0;
        const rule = rules.find((candidate) =>
          evaluate((candidate.match ?? undefined) as ConditionExpr | undefined, submitted.answers),
        );
        if (!rule) return 0;
        const { readers } = await planReaders(rule.readerIds, rule.cap, tx);
        const found = await store.applicationsForPlan([accountId], collegeKeys, tx);
        const reads = await store.readsOf([accountId], tx);
        const rounds: ReadRound[] = review.second_reads ? ['first', 'second'] : ['first'];
        const plan = planAssignments(planApplications(found, reads), readers, { rounds });
        const perReader = await insertPlanned(plan, found, ASSIGNMENT_LABEL, tx);
        const assigned = [...perReader.values()].reduce((sum, count) => sum + count, 0);
        await deps.audit.record(
          {
            actor: ASSIGNMENT_ACTOR,
            action: 'review.assigned',
            applicationId: accountId,
            detail: {
              rule: rule.name,
              count: assigned,
              unassigned: plan.unassigned.length + (plan.reads.length - assigned),
              readers: [...perReader.keys()],
            },
          },
          tx,
        );
        return assigned;
      });
    },

    /** Reads waiting for a reader (of one application, or every one) given the least-loaded. */
    assignWaitingReads(accountId: string | null = null): Promise<number> {
      return assignWaiting(accountId);
    },
  };
}

export type AssignmentService = ReturnType<typeof createAssignmentService>;

/**
 * Reads of an application waiting for a reader (a third read a score gap started) each given the
 * least-loaded member who can read, is not disabled, is not already reading the application and
 * has no conflict with it. Safe to call twice: a read already given a reader is left as it is.
 * Returns the reads given a reader.
 */
export function assignWaitingReads(
  deps: Pick<AssignmentServiceDeps, 'db' | 'model' | 'review' | 'audit'>,
  accountId: string,
): Promise<number> {
  return createAssignmentService(deps).assignWaitingReads(accountId);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

function conflictView(row: {
  id: string;
  readerId: string;
  readerName: string;
  kind: 'college' | 'applicant';
  value: string;
  note: string;
  createdBy: string;
  createdAt: Date;
}): ReaderConflict {
  return {
    id: row.id,
    reader_id: row.readerId,
    reader_name: row.readerName,
    kind: row.kind,
    value: row.value,
    note: row.note,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}
