import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequirementStatus } from '../../shared/credit/credit-requirements';
import { LIST_FILTERS, type ListFilterCondition } from '../../shared/staff/list-filters';
import { createCreditStore } from '../credit/credit-store';
import type { DatabaseHandle } from '../db/database';
import {
  accounts,
  applications,
  checklistCounts,
  courseworkTotals,
  decisions,
  webStatuses,
} from '../db/schema';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { LIST_FILTER_COLUMNS, listFiltersWhere } from './list-filter-store';

interface Applicant {
  status: 'started' | 'submitted';
  term: string;
  program: string;
  submittedAt?: string;
  missing?: number;
  decision?: string;
  /** Coursework totals as stored at submit: GPA (null: nothing graded) and transferable units. */
  totals?: { gpa: string | null; units: string };
  /** The credit summary: courses, mapped, and each requirement's status that applies. */
  credit?: { courses: number; mapped: number; requirements: Record<string, RequirementStatus> };
}

describe('the filter table’s columns', () => {
  it('name a column the server reads for every row', () => {
    for (const row of LIST_FILTERS) expect(LIST_FILTER_COLUMNS[row.column], row.name).toBeDefined();
  });

  it('give no condition when no filter is given', () => {
    expect(listFiltersWhere([])).toBeUndefined();
  });
});

describe.each(databaseKinds)('the list filters’ conditions on %s', (kind) => {
  let database: DatabaseHandle;
  const ids: Record<string, string> = {};

  const applicants: Record<string, Applicant> = {
    early: {
      status: 'submitted',
      term: 'FA2026',
      program: '209',
      submittedAt: '2026-01-10T23:59:59Z',
      missing: 0,
      decision: 'admit',
      totals: { gpa: '2.40', units: '60.00' },
      credit: {
        courses: 6,
        mapped: 6,
        requirements: { golden_four: 'met', units_60: 'met', cs_preparation: 'not_met' },
      },
    },
    late: {
      status: 'submitted',
      term: 'SP2027',
      program: '201',
      submittedAt: '2026-02-01T00:00:00Z',
      missing: 3,
      decision: 'deny',
      totals: { gpa: null, units: '75.50' },
      credit: {
        courses: 6,
        mapped: 5,
        requirements: { golden_four: 'in_progress', units_60: 'met' },
      },
    },
    // Submitted without courses: neither needing review nor all mapped.
    empty: {
      status: 'submitted',
      term: 'SP2027',
      program: '201',
      submittedAt: '2026-02-02T00:00:00Z',
      credit: { courses: 0, mapped: 0, requirements: { golden_four: 'not_met' } },
    },
    started: { status: 'started', term: 'FA2026', program: '201' },
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    for (const [name, applicant] of Object.entries(applicants)) {
      const [account] = await db
        .insert(accounts)
        .values({ email: `${name}@example.edu` })
        .returning({ id: accounts.id });
      const id = account?.id as string;
      ids[name] = id;
      const updatedAt = new Date('2026-03-01T00:00:00Z');
      await db.insert(applications).values({
        accountId: id,
        answers: { entry_term: applicant.term, applied_major: applicant.program },
        submittedAt: applicant.submittedAt ? new Date(applicant.submittedAt) : null,
        updatedAt,
      });
      const reached =
        applicant.status === 'submitted' ? ['started', 'validating', 'submitted'] : ['started'];
      for (const webStatus of reached)
        await db.insert(webStatuses).values({ accountId: id, webStatus });
      if (applicant.missing !== undefined) {
        await db
          .insert(checklistCounts)
          .values({ accountId: id, missing: applicant.missing, sourceUpdatedAt: updatedAt });
      }
      if (applicant.decision) {
        await db
          .insert(decisions)
          .values({ accountId: id, code: applicant.decision, recordedByLabel: 'test' });
      }
      if (applicant.totals) {
        await db.insert(courseworkTotals).values({
          accountId: id,
          transferGpa: applicant.totals.gpa,
          transferUnits: applicant.totals.units,
          inProgressUnits: '0',
        });
      }
      if (applicant.credit) {
        const { courses, mapped, requirements } = applicant.credit;
        await createCreditStore(db).saveSummary(id, {
          courses,
          mapped,
          needsReview: courses - mapped,
          verified: 0,
          requirements,
          colleges: [],
        });
      }
    }
  });
  afterAll(async () => {
    await database.close();
  });

  /** The names of the applications every condition matches. */
  async function matching(...filters: ListFilterCondition[]): Promise<string[]> {
    const rows = await database.db
      .select({ id: applications.accountId })
      .from(applications)
      .where(listFiltersWhere(filters));
    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    return rows.map((row) => names.get(row.id) ?? row.id).sort();
  }

  const values = (name: string, column: ListFilterCondition['column'], given: string[]) =>
    ({ kind: 'values', name, column, values: given }) as const;

  it('reads several choices from a column that keeps a code of each (the status)', async () => {
    expect(await matching(values('status', 'list_status', ['submitted']))).toEqual([
      'early',
      'empty',
      'late',
    ]);
    expect(await matching(values('status', 'list_status', ['started', 'submitted']))).toEqual([
      'early',
      'empty',
      'late',
      'started',
    ]);
    expect(await matching(values('status', 'list_status', ['validating']))).toEqual([]);
  });

  it('reads a choice from a column of the application', async () => {
    expect(await matching(values('term', 'list_entry_term', ['FA2026']))).toEqual([
      'early',
      'started',
    ]);
    expect(await matching(values('program', 'list_program_code', ['201', '209']))).toEqual([
      'early',
      'empty',
      'late',
      'started',
    ]);
  });

  it('reads a choice from a table of one row per application (the decision)', async () => {
    expect(await matching(values('decision', 'decision_code', ['admit']))).toEqual(['early']);
    expect(await matching(values('decision', 'decision_code', ['admit', 'deny']))).toEqual([
      'early',
      'late',
    ]);
  });

  it('reads a date range as whole days, both ends included and either left open', async () => {
    const range = (from: string | null, to: string | null): ListFilterCondition => ({
      kind: 'date_range',
      name: 'submitted',
      column: 'submitted_at',
      from,
      to,
    });
    expect(await matching(range('2026-01-10', '2026-01-10'))).toEqual(['early']);
    expect(await matching(range('2026-01-11', null))).toEqual(['empty', 'late']);
    expect(await matching(range(null, '2026-01-31'))).toEqual(['early']);
    expect(await matching(range('2026-01-01', '2026-02-01'))).toEqual(['early', 'late']);
  });

  it('reads yes/no as a count above zero or zero, an uncounted application in neither', async () => {
    const missing = (yes: boolean): ListFilterCondition => ({
      kind: 'yes_no',
      name: 'has_missing',
      column: 'missing_items',
      yes,
    });
    expect(await matching(missing(true))).toEqual(['late']);
    expect(await matching(missing(false))).toEqual(['early']);
  });

  it('reads at least as the bound included, an application without a value in none', async () => {
    const atLeast = (
      name: string,
      column: ListFilterCondition['column'],
      min: number,
    ): ListFilterCondition => ({ kind: 'at_least', name, column, min });
    expect(await matching(atLeast('gpa_min', 'transfer_gpa', 2.4))).toEqual(['early']);
    expect(await matching(atLeast('gpa_min', 'transfer_gpa', 2.41))).toEqual([]);
    // No GPA (nothing graded) and no totals (not submitted) match no bound, not even 0.
    expect(await matching(atLeast('gpa_min', 'transfer_gpa', 0))).toEqual(['early']);
    expect(await matching(atLeast('units_min', 'transfer_units', 60))).toEqual(['early', 'late']);
    expect(await matching(atLeast('units_min', 'transfer_units', 75.5))).toEqual(['late']);
    expect(await matching(atLeast('units_min', 'transfer_units', 75.51))).toEqual([]);
    // Two bounds on one table are one lookup of its row: both hold for the same application.
    expect(
      await matching(
        atLeast('gpa_min', 'transfer_gpa', 2.4),
        atLeast('units_min', 'transfer_units', 60),
      ),
    ).toEqual(['early']);
    expect(
      await matching(
        atLeast('gpa_min', 'transfer_gpa', 2.4),
        atLeast('units_min', 'transfer_units', 61),
      ),
    ).toEqual([]);
    expect(
      await matching(atLeast('units_min', 'transfer_units', 60), {
        kind: 'yes_no',
        name: 'has_missing',
        column: 'missing_items',
        yes: true,
      }),
    ).toEqual(['late']);
  });

  it('reads the credit summary: needing review, all mapped, none without a summary', async () => {
    const credit = (given: string[]) => values('credit', 'credit_review', given);
    expect(await matching(credit(['needs_review']))).toEqual(['late']);
    expect(await matching(credit(['reviewed']))).toEqual(['early']);
    expect(await matching(credit(['needs_review', 'reviewed']))).toEqual(['early', 'late']);
    expect(await matching(credit(['needs_review']), credit(['reviewed']))).toEqual([]);
  });

  it('reads a requirement’s status, a requirement that does not apply matching none', async () => {
    const requirement = (given: string[]) => values('requirement', 'credit_requirements', given);
    expect(await matching(requirement(['golden_four:met']))).toEqual(['early']);
    expect(await matching(requirement(['golden_four:not_met']))).toEqual(['empty']);
    expect(await matching(requirement(['golden_four:in_progress']))).toEqual(['late']);
    expect(await matching(requirement(['units_60:met']))).toEqual(['early', 'late']);
    expect(await matching(requirement(['units_60:not_met']))).toEqual([]);
    // cs_preparation applies to one application only: the others have no status for it.
    expect(await matching(requirement(['cs_preparation:not_met']))).toEqual(['early']);
    expect(await matching(requirement(['cs_preparation:met']))).toEqual([]);
    expect(await matching(requirement(['golden_four:met', 'golden_four:in_progress']))).toEqual([
      'early',
      'late',
    ]);
    // The credit and requirement filters on the one summary row are one lookup, both on it.
    expect(
      await matching(
        values('credit', 'credit_review', ['needs_review']),
        requirement(['units_60:met']),
      ),
    ).toEqual(['late']);
  });

  it('puts several filters together', async () => {
    expect(
      await matching(
        values('term', 'list_entry_term', ['FA2026']),
        values('status', 'list_status', ['submitted']),
      ),
    ).toEqual(['early']);
  });
});
