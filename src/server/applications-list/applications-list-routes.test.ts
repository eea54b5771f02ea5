import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import type { RequirementStatus } from '../../shared/credit/credit-requirements';
import { answerKeySpecs } from '../../shared/form/answer-keys';
import {
  APPLICATION_LIST_SORTS,
  type ApplicationListResponse,
  type ApplicationListSort,
} from '../../shared/staff/application-list-api';
import { createCreditStore } from '../credit/credit-store';
import { LIST_KEYS, NAME_KEYS, PHONE_KEYS, SCHOOL_KEYS } from '../db/list-answer-keys';
import {
  accounts,
  applicationSisIds,
  applications,
  auditEvents,
  checklistCounts,
  courseworkTotals,
  webStatuses,
} from '../db/schema';
import { signedInApplicant } from '../test/accounts-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const LIST = '/staff/api/applications';

interface Applicant {
  answers?: Record<string, string>;
  status?: 'started' | 'validating' | 'submitted';
  submittedAt?: string;
  updatedAt?: string;
  email?: string;
}

describe('the list columns', () => {
  it('read answer keys the application model has', () => {
    const keys = answerKeySpecs(applicationModel);
    const used = [...NAME_KEYS, ...SCHOOL_KEYS, ...PHONE_KEYS, ...Object.values(LIST_KEYS)];
    expect(used.filter((key) => !keys.has(key))).toEqual([]);
  });
});

describe.each(databaseKinds)('the staff application list on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  /** Marks this test's applications, so each test lists only its own. */
  let tag = '';

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Inserts applications straight into the database; returns their ids in the order given. */
  async function insert(applicants: Applicant[]): Promise<string[]> {
    const db = testDatabaseOf(app);
    tag = `t${randomBytes(4).toString('hex')}`;
    const ids: string[] = [];
    for (const [index, applicant] of applicants.entries()) {
      const [account] = await db
        .insert(accounts)
        .values({ email: applicant.email ?? `${tag}-${index}@example.edu` })
        .returning({ id: accounts.id });
      const id = account?.id as string;
      ids.push(id);
      await db.insert(applications).values({
        accountId: id,
        answers: { entry_term: tag, ...applicant.answers },
        submittedAt: applicant.submittedAt ? new Date(applicant.submittedAt) : null,
        updatedAt: new Date(applicant.updatedAt ?? `2026-01-01T00:00:0${index % 10}Z`),
      });
      const statuses = { started: ['started'], validating: ['started', 'validating'] };
      const reached =
        applicant.status === 'submitted'
          ? ['started', 'validating', 'submitted']
          : statuses[applicant.status ?? 'started'];
      for (const webStatus of reached) {
        await db.insert(webStatuses).values({ accountId: id, webStatus });
      }
    }
    return ids;
  }

  function get(query: string, cookie: string | null = reader.cookie) {
    return app.inject({ url: `${LIST}?${query}`, headers: cookie ? { cookie } : {} });
  }

  /** The ids listed for this test's applications (its entry term) with more query. */
  async function listed(query = ''): Promise<string[]> {
    const response = await get(`term=${tag}&page_size=100${query ? `&${query}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ApplicationListResponse>().applications.map((row) => row.id);
  }

  async function searched(q: string): Promise<string[]> {
    return listed(`q=${encodeURIComponent(q)}`);
  }

  async function auditCount(): Promise<number> {
    const db = testDatabaseOf(app);
    return (await db.select().from(auditEvents)).length;
  }

  it('lists each application with its columns and records the read', async () => {
    const [id] = await insert([
      {
        answers: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          preferred_name: 'Addie',
          applied_major: 'CS',
          applied_major_desc: 'Computer Science',
          entry_term_desc: 'Fall 2026',
          decision_type: 'ED',
          decision_type_desc: 'Early decision (binding)',
        },
        status: 'submitted',
        submittedAt: '2026-03-01T10:00:00Z',
        updatedAt: '2026-03-01T10:00:00Z',
      },
    ]);
    const before = await auditCount();
    const response = await get(`term=${tag}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      applications: [
        {
          id,
          first_name: 'Ada',
          last_name: 'Lovelace',
          preferred_name: 'Addie',
          email: `${tag}-0@example.edu`,
          status: 'submitted',
          submitted_at: '2026-03-01T10:00:00.000Z',
          last_activity: '2026-03-01T10:00:00.000Z',
          program: 'CS',
          program_desc: 'Computer Science',
          entry_term: tag,
          entry_term_desc: 'Fall 2026',
          decision_type: 'ED',
          decision_type_desc: 'Early decision (binding)',
          missing_items: null,
          decision: null,
          decision_label: null,
          decision_released: false,
          transfer_gpa: null,
          transfer_units: null,
          credit_courses: null,
          credit_mapped: null,
          sis_id: null,
          review_score: null,
          review_recommendation: null,
          review_recommendation_label: null,
          reads: null,
        },
      ],
      total: 1,
      total_exact: true,
      page: 1,
      page_size: 25,
      sort: 'last_activity',
      direction: 'desc',
    });
    expect(await auditCount()).toBe(before + 1);
    const db = testDatabaseOf(app);
    const [entry] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'application.search'))
      .orderBy(auditEvents.seq)
      .then((rows) => rows.slice(-1));
    expect(entry).toMatchObject({
      actorType: 'staff',
      actorId: reader.staffId,
      detail: { q: '', filters: { term: [tag] }, rows: 1, found: 1, sort: 'last_activity' },
    });
  });

  it('filters by status, term, program, decision type and submitted dates', async () => {
    const ids = await insert([
      { status: 'started', answers: { applied_major: 'BIO', decision_type: 'REG' } },
      { status: 'validating', answers: { applied_major: 'CS', decision_type: 'ED' } },
      {
        status: 'submitted',
        submittedAt: '2026-02-10T23:30:00Z',
        answers: { applied_major: 'CS', decision_type: 'REG' },
      },
      {
        status: 'submitted',
        submittedAt: '2026-02-12T01:00:00Z',
        answers: { applied_major: 'ART', decision_type: 'ED' },
      },
    ]);
    const [started, validating, early, late] = ids as [string, string, string, string];
    const sorted = (list: string[]) => [...list].sort();
    expect(sorted(await listed('status=validating'))).toEqual([validating]);
    expect(sorted(await listed('status=started&status=submitted'))).toEqual(
      sorted([started, early, late]),
    );
    expect(sorted(await listed('program=CS'))).toEqual(sorted([validating, early]));
    expect(sorted(await listed('decision_type=ED'))).toEqual(sorted([validating, late]));
    expect(await listed('program=CS&decision_type=REG')).toEqual([early]);
    expect(await listed('submitted_from=2026-02-11')).toEqual([late]);
    expect(await listed('submitted_to=2026-02-10')).toEqual([early]);
    expect(sorted(await listed('submitted_from=2026-02-10&submitted_to=2026-02-12'))).toEqual(
      sorted([early, late]),
    );
    expect(await listed('program=no-such-program')).toEqual([]);
  });

  it('shows and filters on missing checklist items, an uncounted application in neither', async () => {
    const ids = await insert([{}, {}, {}]);
    const [complete, missing, uncounted] = ids as [string, string, string];
    const db = testDatabaseOf(app);
    for (const [id, count] of [
      [complete, 0],
      [missing, 4],
    ] as const) {
      const [row] = await db
        .select({ updatedAt: applications.updatedAt })
        .from(applications)
        .where(eq(applications.accountId, id));
      await db
        .insert(checklistCounts)
        .values({ accountId: id, missing: count, sourceUpdatedAt: row?.updatedAt ?? new Date() });
    }
    const response = await get(`term=${tag}&sort=missing_items`);
    expect(
      response.json<ApplicationListResponse>().applications.map((row) => row.missing_items),
    ).toEqual([0, 4, null]);
    const pages: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const paged = await get(`term=${tag}&sort=missing_items&page_size=1&page=${page}`);
      pages.push(...paged.json<ApplicationListResponse>().applications.map((row) => row.id));
    }
    expect(pages).toEqual([complete, missing, uncounted]);
    const twoPages = await get(`term=${tag}&sort=missing_items&direction=desc&page_size=2&page=2`);
    expect(twoPages.json<ApplicationListResponse>().applications.map((row) => row.id)).toEqual([
      uncounted,
    ]);
    expect(await listed('has_missing=true')).toEqual([missing]);
    expect(await listed('has_missing=false')).toEqual([complete]);
    expect(await listed('has_missing=true&status=submitted')).toEqual([]);
    expect((await listed()).sort()).toEqual([complete, missing, uncounted].sort());
  });

  it('shows and filters on transfer GPA and units, the bound included and no GPA in none', async () => {
    const ids = await insert([{}, {}, {}, {}]);
    const [atBound, below, ungraded, none] = ids as [string, string, string, string];
    await testDatabaseOf(app)
      .insert(courseworkTotals)
      .values([
        { accountId: atBound, transferGpa: '2.40', transferUnits: '60.00', inProgressUnits: '0' },
        { accountId: below, transferGpa: '2.39', transferUnits: '90.00', inProgressUnits: '4' },
        { accountId: ungraded, transferGpa: null, transferUnits: '70.00', inProgressUnits: '0' },
      ]);
    const response = await get(`term=${tag}&sort=transfer_gpa&direction=desc`);
    expect(
      response
        .json<ApplicationListResponse>()
        .applications.map((row) => [row.id, row.transfer_gpa, row.transfer_units]),
    ).toEqual([
      [atBound, '2.40', '60.00'],
      [below, '2.39', '90.00'],
      ...[
        [ungraded, null, '70.00'],
        [none, null, null],
      ].sort((one, other) => String(other[0]).localeCompare(String(one[0]))),
    ]);
    expect(await listed('gpa_min=2.4')).toEqual([atBound]);
    expect(await listed('gpa_min=2.40&units_min=60')).toEqual([atBound]);
    expect(await listed('gpa_min=2.4&units_min=60.01')).toEqual([]);
    expect((await listed('gpa_min=0')).sort()).toEqual([atBound, below].sort());
    expect((await listed('units_min=60')).sort()).toEqual([atBound, below, ungraded].sort());
    expect((await listed('units_min=70')).sort()).toEqual([below, ungraded].sort());
    // Sorted by the column a bound is on, the bound starts the walk: the same rows, in order.
    expect(await listed('units_min=70&sort=transfer_units')).toEqual([ungraded, below]);
    expect(await listed('units_min=60&sort=transfer_units&direction=desc')).toEqual([
      below,
      ungraded,
      atBound,
    ]);
    const second = await get(`term=${tag}&units_min=60&sort=transfer_units&page_size=2&page=2`);
    expect(second.json<ApplicationListResponse>().applications.map((row) => row.id)).toEqual([
      below,
    ]);
    expect(await listed('gpa_min=2.39&units_min=61&sort=transfer_gpa')).toEqual([below]);
    expect((await listed()).sort()).toEqual([...ids].sort());
    // Sorted by GPA a page at a time, the applications without one come last, none repeated.
    const pages: string[] = [];
    for (const page of [1, 2, 3, 4]) {
      const paged = await get(`term=${tag}&sort=transfer_gpa&page_size=1&page=${page}`);
      pages.push(...paged.json<ApplicationListResponse>().applications.map((row) => row.id));
    }
    expect(pages).toEqual([below, atBound, ...[ungraded, none].sort()]);
  });

  it('shows the mapped share and filters on transfer credit and each requirement’s status', async () => {
    const ids = await insert([
      { status: 'submitted' },
      { status: 'submitted' },
      { status: 'submitted' },
      { status: 'submitted' },
      {},
    ]);
    const [review, mapped, review2, empty, none] = ids as [string, string, string, string, string];
    const credit = createCreditStore(testDatabaseOf(app));
    const summary = (
      accountId: string,
      courses: number,
      mappedCourses: number,
      requirements: Record<string, RequirementStatus>,
    ) =>
      credit.saveSummary(accountId, {
        courses,
        mapped: mappedCourses,
        needsReview: courses - mappedCourses,
        verified: 0,
        requirements,
        colleges: ['5074'],
      });
    await summary(review, 6, 5, { golden_four: 'met', units_60: 'in_progress' });
    await summary(mapped, 4, 4, { golden_four: 'met', units_60: 'met', cs_preparation: 'met' });
    await summary(review2, 3, 1, { golden_four: 'not_met', units_60: 'not_met' });
    await summary(empty, 0, 0, { golden_four: 'not_met', units_60: 'not_met' });
    const rows = (await get(`term=${tag}&page_size=100`)).json<ApplicationListResponse>();
    const byId = new Map(rows.applications.map((row) => [row.id, row]));
    expect(byId.get(review)).toMatchObject({ credit_courses: 6, credit_mapped: 5 });
    expect(byId.get(empty)).toMatchObject({ credit_courses: 0, credit_mapped: 0 });
    expect(byId.get(none)).toMatchObject({ credit_courses: null, credit_mapped: null });

    const sorted = async (query: string) => (await listed(query)).sort();
    expect(await sorted('credit=needs_review')).toEqual([review, review2].sort());
    expect(await sorted('credit=reviewed')).toEqual([mapped]);
    expect(await sorted('credit=needs_review&credit=reviewed')).toEqual(
      [review, mapped, review2].sort(),
    );
    expect(await sorted('requirement=golden_four:met')).toEqual([review, mapped].sort());
    expect(await sorted('requirement=golden_four:not_met')).toEqual([review2, empty].sort());
    expect(await sorted('requirement=units_60:in_progress')).toEqual([review]);
    expect(await sorted('requirement=cs_preparation:met')).toEqual([mapped]);
    // A requirement that does not apply to an application has no status there.
    expect(await sorted('requirement=cs_preparation:not_met')).toEqual([]);
    expect(await sorted('requirement=golden_four:met&credit=needs_review')).toEqual([review]);
    expect(
      await sorted('requirement=units_60:met&requirement=units_60:not_met&credit=reviewed'),
    ).toEqual([mapped]);
    // With the walked sorts and a search the filters hold the same.
    expect(await listed('credit=needs_review&sort=transfer_units')).toEqual(
      [review, review2].sort(),
    );
    expect(await listed('credit=needs_review&sort=missing_items&direction=desc')).toEqual(
      [review, review2].sort().reverse(),
    );
  });

  it('refuses a requirement the tenant does not have, or a status there is not, naming them', async () => {
    await insert([{}]);
    const before = await auditCount();
    const unknown = await get('requirement=golden_five:met');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      message:
        'A requirement filter names one of the requirements: units_60, gpa_2, golden_four, cs_preparation, adt.',
      errors: {
        requirement: [
          'A requirement filter names one of the requirements: units_60, gpa_2, golden_four, cs_preparation, adt.',
        ],
      },
    });
    for (const query of [
      'requirement=golden_four:done',
      'requirement=golden_four',
      'requirement=golden_four:met&requirement=Golden:met',
    ]) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(Object.values(response.json().errors).flat(), query).toEqual([
        "A requirement filter is a requirement's id and a status, such as golden_four:met; the status is one of: met, in_progress, not_met.",
      ]);
    }
    const credit = await get('credit=maybe');
    expect(credit.statusCode).toBe(400);
    expect(credit.body).toMatch(/A transfer credit is one of: needs_review, reviewed\./);
    expect(await auditCount()).toBe(before);
  });

  it('sorts on every column both ways, empty values last and ties by id', async () => {
    const ids = await insert([
      {
        answers: { last_name: 'Baker', first_name: 'Ann', applied_major_desc: 'Biology' },
        status: 'submitted',
        submittedAt: '2026-02-01T00:00:00Z',
        updatedAt: '2026-04-01T08:00:00Z',
        email: `b-${randomBytes(3).toString('hex')}@example.edu`,
      },
      {
        answers: {
          last_name: 'Álvarez',
          first_name: 'Zoe',
          applied_major_desc: 'Art',
          decision_type: 'REG',
        },
        status: 'validating',
        updatedAt: '2026-04-01T08:30:00Z',
        email: `a-${randomBytes(3).toString('hex')}@example.edu`,
      },
      {
        answers: { last_name: 'Baker', first_name: 'Ann', decision_type: 'ED' },
        status: 'submitted',
        submittedAt: '2026-03-01T00:00:00Z',
        updatedAt: '2026-04-01T07:59:00Z',
        email: `c-${randomBytes(3).toString('hex')}@example.edu`,
      },
      { updatedAt: '2026-03-01T00:00:00Z', email: `d-${randomBytes(3).toString('hex')}@ex.edu` },
    ]);
    const [baker1, alvarez, baker2, blank] = ids as [string, string, string, string];
    // Counted as of each application's last change, so no recount moves them; blank is not counted.
    const db = testDatabaseOf(app);
    for (const [id, missing] of [
      [baker1, 2],
      [alvarez, 0],
      [baker2, 2],
    ] as const) {
      const [row] = await db
        .select({ updatedAt: applications.updatedAt })
        .from(applications)
        .where(eq(applications.accountId, id));
      await db
        .insert(checklistCounts)
        .values({ accountId: id, missing, sourceUpdatedAt: row?.updatedAt ?? new Date() });
    }
    // Coursework totals: alvarez has units but no GPA (nothing graded), blank has no row.
    await db.insert(courseworkTotals).values([
      { accountId: baker1, transferGpa: '3.00', transferUnits: '60.00', inProgressUnits: '0' },
      { accountId: alvarez, transferGpa: null, transferUnits: '0.00', inProgressUnits: '12' },
      { accountId: baker2, transferGpa: '3.50', transferUnits: '45.50', inProgressUnits: '0' },
    ]);
    const up = (...tied: string[]) => [...tied].sort();
    const down = (...tied: string[]) => [...tied].sort().reverse();
    const expected: Record<ApplicationListSort, { asc: string[]; desc: string[] }> = {
      // Accents do not move a name: Álvarez before Baker.
      name: {
        asc: [alvarez, ...up(baker1, baker2), blank],
        desc: [...down(baker1, baker2), alvarez, blank],
      },
      email: { asc: [alvarez, baker1, baker2, blank], desc: [blank, baker2, baker1, alvarez] },
      status: {
        asc: [blank, alvarez, ...up(baker1, baker2)],
        desc: [...down(baker1, baker2), alvarez, blank],
      },
      submitted_at: {
        asc: [baker1, baker2, ...up(alvarez, blank)],
        desc: [baker2, baker1, ...down(alvarez, blank)],
      },
      last_activity: {
        asc: [blank, baker2, baker1, alvarez],
        desc: [alvarez, baker1, baker2, blank],
      },
      program: {
        asc: [alvarez, baker1, ...up(baker2, blank)],
        desc: [baker1, alvarez, ...down(baker2, blank)],
      },
      entry_term: { asc: up(...ids), desc: down(...ids) },
      decision_type: {
        asc: [baker2, alvarez, ...up(baker1, blank)],
        desc: [alvarez, baker2, ...down(baker1, blank)],
      },
      missing_items: {
        asc: [alvarez, ...up(baker1, baker2), blank],
        desc: [...down(baker1, baker2), alvarez, blank],
      },
      transfer_gpa: {
        asc: [baker1, baker2, ...up(alvarez, blank)],
        desc: [baker2, baker1, ...down(alvarez, blank)],
      },
      transfer_units: {
        asc: [alvarez, baker2, baker1, blank],
        desc: [baker1, baker2, alvarez, blank],
      },
    };
    for (const sort of APPLICATION_LIST_SORTS) {
      for (const direction of ['asc', 'desc'] as const) {
        expect(await listed(`sort=${sort}&direction=${direction}`), `${sort} ${direction}`).toEqual(
          expected[sort][direction],
        );
      }
    }
  });

  it('pages through the list without gaps or repeats', async () => {
    const ids = await insert(
      Array.from({ length: 7 }, () => ({ updatedAt: '2026-05-05T05:05:05Z' })),
    );
    const pages: string[] = [];
    for (const page of [1, 2, 3]) {
      const response = await get(`term=${tag}&page_size=3&page=${page}&sort=last_activity`);
      const body = response.json<ApplicationListResponse>();
      expect(body.total).toBe(7);
      expect(body.page).toBe(page);
      pages.push(...body.applications.map((row) => row.id));
    }
    expect(pages).toHaveLength(7);
    expect([...pages].sort()).toEqual([...ids].sort());
    const beyond = (await get(`term=${tag}&page_size=3&page=9`)).json<ApplicationListResponse>();
    expect(beyond).toMatchObject({ applications: [], total: 7 });
  });

  it('finds names despite typos and accents, and by preferred and former names', async () => {
    const ids = await insert([
      { answers: { first_name: 'John', last_name: 'Smith' } },
      { answers: { first_name: 'José', last_name: 'Núñez' } },
      { answers: { first_name: 'Mary', last_name: 'Jones', preferred_name: 'Molly' } },
      { answers: { first_name: 'Ann', last_name: 'Lee', prev_lname: 'Whitfield' } },
      { answers: { first_name: 'Jane', last_name: 'Smithers' } },
    ]);
    const [john, jose, mary, ann, jane] = ids as [string, string, string, string, string];
    expect(await searched('Jonh Smiht')).toEqual([john]);
    expect(await searched('john smith')).toEqual([john]);
    expect(await searched('Jose')).toEqual([jose]);
    expect(await searched('josé nunez')).toEqual([jose]);
    expect(await searched('NÚÑEZ')).toEqual([jose]);
    expect(await searched('molly')).toEqual([mary]);
    expect(await searched('whitfeild')).toEqual([ann]);
    expect(await searched('lee')).toEqual([ann]);
    // An exact name comes before one that merely contains it.
    expect(await searched('smith')).toEqual([john, jane]);
    expect(await searched('nobody')).toEqual([]);
  });

  it('finds an address, phone digits, a school name and a CEEB code', async () => {
    const email = `pat.quinn.${randomBytes(3).toString('hex')}@college.example.edu`;
    const ids = await insert([
      {
        email,
        answers: {
          first_name: 'Pat',
          last_name: 'Quinn',
          phone_mobile: '(555) 867-5309',
          hs_name: 'Lincoln High School',
          hs_ceeb: '331234',
          college_2_name: 'Mesa Community College',
          college_2_ceeb: '4567',
        },
      },
      { answers: { first_name: 'Other', last_name: 'Person', phone_home: '(555) 222-3333' } },
    ]);
    const [pat] = ids as [string];
    expect(await searched(email)).toEqual([pat]);
    expect(await searched(email.split('@')[0] as string)).toEqual([pat]);
    expect(await searched('555-867-5309')).toEqual([pat]);
    expect(await searched('8675309')).toEqual([pat]);
    expect(await searched('lincoln high')).toEqual([pat]);
    expect(await searched('mesa community')).toEqual([pat]);
    expect(await searched('331234')).toEqual([pat]);
    expect(await searched('4567')).toEqual([pat]);
    expect(await searched('quinn lincoln')).toEqual([pat]);
    // A changed address is searched from then on.
    const changed = `quinn.${randomBytes(3).toString('hex')}@new.example.edu`;
    await testDatabaseOf(app).update(accounts).set({ email: changed }).where(eq(accounts.id, pat));
    expect(await searched(changed)).toEqual([pat]);
    expect(await searched(email)).toEqual([]);
  });

  it('shows the SIS id and finds an application by exactly it, alone or beside a name', async () => {
    const ids = await insert([
      { answers: { first_name: 'Sam', last_name: 'Okafor' } },
      { answers: { first_name: 'Ria', last_name: 'Banerjee' } },
      { answers: { first_name: 'Lee', last_name: 'Hart' } },
    ]);
    const [sam, ria] = ids as [string, string];
    const sisId = `S${randomBytes(4).toString('hex').toUpperCase()}-7`;
    const digits = String(900_000_000 + Math.floor(Math.random() * 99_999_999));
    await testDatabaseOf(app)
      .insert(applicationSisIds)
      .values([
        { accountId: sam, sisId, setByLabel: 'Banner nightly' },
        { accountId: ria, sisId: digits, setByLabel: 'Banner nightly' },
      ]);
    const response = await get(`term=${tag}&sort=name&direction=asc`);
    const rows = response.json<ApplicationListResponse>().applications;
    expect(rows.map((row) => [row.last_name, row.sis_id])).toEqual([
      ['Banerjee', digits],
      ['Hart', null],
      ['Okafor', sisId],
    ]);
    expect(await searched(sisId)).toEqual([sam]);
    expect(await searched(`  ${sisId} `)).toEqual([sam]);
    // Digits alone are an id as well as a phone number's: both searches answer.
    expect(await searched(digits)).toEqual([ria]);
    // Exactly the id: not a part of it, not in another case.
    expect(await searched(sisId.slice(0, -2))).toEqual([]);
    expect(await searched(sisId.toLowerCase())).toEqual([]);
    // The words of a name still find their application beside it.
    expect(await searched('okafor')).toEqual([sam]);
    // The list's filters still apply to what the id found.
    expect(await listed(`q=${encodeURIComponent(sisId)}&status=submitted`)).toEqual([]);
  });

  it('keeps the exact-address lookup of the home page', async () => {
    const email = `lookup-${randomBytes(4).toString('hex')}@example.edu`;
    const [id] = await insert([
      { email, status: 'submitted', submittedAt: '2026-01-02T00:00:00Z' },
    ]);
    const response = await get(`email=${email.toUpperCase()}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([
      { id, email, status: 'submitted', submitted_at: '2026-01-02T00:00:00.000Z' },
    ]);
    expect((await get(`email=${email}&q=x`)).statusCode).toBe(400);
  });

  it('refuses unknown or bad parameters with 400, a clear message and nothing recorded', async () => {
    await insert([{}]);
    const before = await auditCount();
    const bad: Array<[string, RegExp]> = [
      ['colour=red', /"colour":\["This field is not part of the request\."\]/],
      ['sort=name&order=asc', /"order":\["This field is not part of the request\."\]/],
      ['sort=shoe_size', /Sort by one of/],
      ['direction=up', /asc or desc/],
      ['status=admitted', /status is one of/],
      ['page_size=101', /1 to 100/],
      ['page_size=0', /1 to 100/],
      ['page=0', /whole number/],
      ['page=abc', /whole number/],
      ['submitted_from=2026-13-01', /date such as/],
      ['submitted_from=2026-02-02&submitted_to=2026-02-01', /comes before/],
      [`q=${'x'.repeat(201)}`, /at most 200/],
      [`q=${'x'.repeat(10_000)}`, /at most 200/],
      ['q=a%00b', /cannot be stored/],
      [`program=${'p'.repeat(101)}`, /1 to 100 characters/],
      ['has_missing=yes', /true or false/],
      ['has_missing=true&has_missing=false', /true or false/],
      ['gpa_min=abc', /"gpa_min":\["gpa_min is a number from 0 to 5 with at most 2 decimals\."\]/],
      ['gpa_min=5.01', /gpa_min is a number from 0 to 5/],
      ['gpa_min=-1', /gpa_min is a number from 0 to 5/],
      ['gpa_min=2.405', /with at most 2 decimals/],
      ['gpa_min=', /gpa_min is a number/],
      ['gpa_min=2&gpa_min=3', /gpa_min is a number/],
      ['units_min=1e2', /units_min is a number from 0 to 1000 with at most 2 decimals/],
      ['units_min=1000.01', /units_min is a number from 0 to 1000/],
    ];
    for (const [query, message] of bad) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toMatch(message);
    }
    expect(await auditCount()).toBe(before);
  });

  it('answers any staff member who may read applications, and no one else', async () => {
    expect((await get('', null)).statusCode).toBe(401);
    const applicant = await signedInApplicant(app, `list-${randomBytes(4).toString('hex')}@x.edu`);
    expect((await get('', applicant)).statusCode).toBe(401);
    const admin = await signedInStaff(app, { role: 'admin' });
    expect((await get('page_size=1', admin.cookie)).statusCode).toBe(200);
    expect((await get('page_size=1')).statusCode).toBe(200);
  });

  it('keeps the status when web statuses arrive after the application row', async () => {
    const [id] = await insert([{ status: 'started' }]);
    const db = testDatabaseOf(app);
    await db.insert(webStatuses).values({ accountId: id as string, webStatus: 'validating' });
    expect(await listed('status=validating')).toEqual([id]);
    const [row] = await db
      .select({ status: applications.listStatus })
      .from(applications)
      .where(and(eq(applications.accountId, id as string)));
    expect(row?.status).toBe(1);
  });
});
