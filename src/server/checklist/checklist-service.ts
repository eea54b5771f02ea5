import type { FormModel } from '../../shared/form/model';
import {
  APPLICATION_API_MESSAGES,
  type Checklist,
  type ChecklistState,
} from '../../shared/staff/application-api';
import { BULK_CHECKLIST_MESSAGES } from '../../shared/staff/bulk-checklist';
import {
  APPLICATION_CHECKLIST_SOURCES,
  type ChecklistMarkRecord,
  type ChecklistSources,
  checklistOf,
  type DerivedChecklistItem,
  deriveChecklistItems,
} from '../../shared/staff/checklist';
import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { AppDatabase } from '../db/database';
import { type Executor, readAll } from '../db/executor';
import { HttpError } from '../http/http-error';
import type { JobLog } from '../jobs/job-runner';
import { startPeriodic } from '../jobs/periodic';
import { type ChecklistSource, createChecklistStore } from './checklist-store';

/** What a mark changed, for the audit entry written in the mark's transaction. */
export interface ChecklistChange {
  item: string;
  state: ChecklistState;
  previous: ChecklistState;
}

/** What a bulk mark did, application by application counted. */
export interface BulkMarkOutcome {
  marked: number;
  already: number;
  not_applicable: number;
  /** The applications whose item changed. */
  marked_ids: string[];
}

export interface ChecklistService {
  /** The checklist of an application; null when the account has no application. */
  of(accountId: string): Promise<Checklist | null>;
  /**
   * Sets an item's state as this staff member, recounts, and answers the whole checklist. A 404
   * HttpError for an item the application does not have (or no application). `record` runs in
   * the same transaction (the audit entry).
   */
  mark(
    accountId: string,
    itemKey: string,
    state: ChecklistState,
    staff: { id: string; label: string },
    record?: (change: ChecklistChange, tx: Executor) => Promise<void>,
  ): Promise<Checklist>;
  /**
   * Sets one item's state on many applications as this staff member, in one transaction, as
   * `mark` does for one: the same marks (and so the same integration events), the same recount.
   * Applications already in that state are left as they are, and those without the item are
   * skipped; all are reported. A 422 HttpError when none of them has the item. `record` runs
   * in the transaction once, with what was done (the audit entry).
   */
  markMany(
    accountIds: readonly string[],
    itemKey: string,
    state: ChecklistState,
    staff: { id: string; label: string },
    record?: (outcome: BulkMarkOutcome, tx: Executor) => Promise<void>,
  ): Promise<BulkMarkOutcome>;
  /** Recounts the application's missing items now (after a change the sweep would be late for). */
  refresh(accountId: string): Promise<void>;
  /** The checklists of many applications at once; ids without an application are left out. */
  forApplications(accountIds: string[]): Promise<Map<string, Checklist>>;
  /**
   * Recounts every application whose count is missing or older than the application (with
   * `activeSince`, only those active from then on). Returns how many it recounted.
   */
  recountStale(options?: { activeSince?: Date | null }): Promise<number>;
  /** Recounts stale applications now and then every `intervalMs`, until `stop` (see decision 034). */
  startSweep(log: JobLog, intervalMs?: number): { stop(): Promise<void> };
}

/**
 * A batch of the sweep: one transaction, one lock per application. Small, because on PGlite the
 * batch's transaction holds the only connection while it derives (under a millisecond each).
 */
const SWEEP_BATCH = 50;
export const CHECKLIST_SWEEP_INTERVAL_MS = 15_000;
/** A save's transaction may commit a little after the clock the sweep read. */
const SWEEP_OVERLAP_MS = 60_000;

export function createChecklistService(options: {
  db: AppDatabase;
  model: FormModel;
  tenant: Pick<TenantConfig, 'checklist_items'>;
  sources?: ChecklistSources;
}): ChecklistService {
  const store = createChecklistStore(options.db);
  const sources = options.sources ?? APPLICATION_CHECKLIST_SOURCES;
  const tenantItems = options.tenant.checklist_items ?? [];

  const itemsOf = (source: ChecklistSource) =>
    deriveChecklistItems(options.model, source, tenantItems, sources);
  const checklistFrom = (source: ChecklistSource) =>
    checklistOf(itemsOf(source), source.marks, source.documents);

  /** Recounts these applications under their locks, in the caller's transaction. */
  async function recount(accountIds: readonly string[], tx: Executor): Promise<number> {
    await store.lock(accountIds, tx);
    const found = await store.sources(accountIds, tx);
    await store.saveCounts(
      [...found.values()].map((source) => ({
        accountId: source.accountId,
        missing: checklistFrom(source).missing,
        sourceUpdatedAt: source.updatedAt,
      })),
      tx,
    );
    return found.size;
  }

  const service: ChecklistService = {
    async of(accountId) {
      const source = (await store.sources([accountId])).get(accountId);
      return source ? checklistFrom(source) : null;
    },

    async mark(accountId, itemKey, state, staff, record) {
      return store.transaction(async (tx) => {
        await store.lock([accountId], tx);
        const before = (await store.sources([accountId], tx)).get(accountId);
        const item = before && checklistFrom(before).items.find((entry) => entry.key === itemKey);
        if (!before || !item) throw new HttpError(404, APPLICATION_API_MESSAGES.checklistItem);
        await store.saveMark(
          { accountId, itemKey, state, staffId: staff.id, staffLabel: staff.label },
          tx,
        );
        const after = (await store.sources([accountId], tx)).get(accountId) ?? before;
        const checklist = checklistFrom(after);
        await store.saveCounts(
          [{ accountId, missing: checklist.missing, sourceUpdatedAt: after.updatedAt }],
          tx,
        );
        await record?.({ item: itemKey, state, previous: item.state }, tx);
        return checklist;
      });
    },

    async markMany(accountIds, itemKey, state, staff, record) {
      const ids = [...new Set(accountIds)];
      return store.transaction(async (tx) => {
        await store.lock(ids, tx);
        const [before, now] = await readAll(tx, [
          () => store.sources(ids, tx),
          () => store.now(tx),
        ]);
        // Each application's items are derived once (the answers cannot change under the lock);
        // the checklist after the mark is the same derivation with the new mark in its place.
        const toMark: { source: ChecklistSource; items: DerivedChecklistItem[] }[] = [];
        let already = 0;
        for (const source of before.values()) {
          const items = itemsOf(source);
          const item = checklistOf(items, source.marks, source.documents).items.find(
            (entry) => entry.key === itemKey,
          );
          if (!item) continue;
          if (item.state === state) already += 1;
          else toMark.push({ source, items });
        }
        const markedIds = toMark.map(({ source }) => source.accountId);
        const outcome: BulkMarkOutcome = {
          marked: toMark.length,
          already,
          not_applicable: ids.length - toMark.length - already,
          marked_ids: markedIds,
        };
        if (toMark.length === 0 && already === 0)
          throw new HttpError(422, BULK_CHECKLIST_MESSAGES.noSuchItem, {
            item_key: [BULK_CHECKLIST_MESSAGES.noSuchItem],
          });
        await store.saveMarks(
          markedIds.map((accountId) => ({
            accountId,
            itemKey,
            state,
            staffId: staff.id,
            staffLabel: staff.label,
          })),
          tx,
        );
        // The mark as saved: now() is the transaction's time, the time the rows were given.
        const mark: ChecklistMarkRecord = {
          itemKey,
          state,
          setByType: 'staff',
          setById: staff.id,
          setByLabel: staff.label,
          setAt: now,
        };
        await store.saveCounts(
          toMark.map(({ source, items }) => ({
            accountId: source.accountId,
            missing: checklistOf(
              items,
              [...source.marks.filter((one) => one.itemKey !== itemKey), mark],
              source.documents,
            ).missing,
            sourceUpdatedAt: source.updatedAt,
          })),
          tx,
        );
        await record?.(outcome, tx);
        return outcome;
      });
    },

    async refresh(accountId) {
      await store.transaction((tx) => recount([accountId], tx));
    },

    async forApplications(accountIds) {
      const found = await store.sources(accountIds);
      return new Map([...found].map(([id, source]) => [id, checklistFrom(source)]));
    },

    async recountStale({ activeSince = null } = {}) {
      let recounted = 0;
      let after: string | null = null;
      for (;;) {
        const ids = await store.stale({ limit: SWEEP_BATCH, activeSince, after });
        if (ids.length === 0) return recounted;
        recounted += await store.transaction((tx) => recount(ids, tx));
        after = ids[ids.length - 1] ?? null;
        if (ids.length < SWEEP_BATCH) return recounted;
      }
    },

    startSweep(log, intervalMs = CHECKLIST_SWEEP_INTERVAL_MS) {
      // The first run looks at every application (counts missing after an upgrade or a crash);
      // later runs only at those active since the previous run began.
      let since: Date | null = null;
      return startPeriodic(log, 'recounting checklists failed', intervalMs, async () => {
        const started = await store.now();
        await service.recountStale({ activeSince: since });
        since = new Date(started.getTime() - SWEEP_OVERLAP_MS);
      });
    },
  };
  return service;
}
