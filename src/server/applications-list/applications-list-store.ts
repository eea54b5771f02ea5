import { and, eq, inArray, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import {
  APPLICATION_STATUSES,
  type ApplicationListRequest,
  type ApplicationListRow,
  type ApplicationListSort,
  type ListViewer,
} from '../../shared/staff/application-list-api';
import type { ApplicationSummary } from '../../shared/staff/staff-api';
import { type AppDatabase, rowsOf } from '../db/database';
import { LIST_KEYS } from '../db/list-answer-keys';
import {
  accounts,
  applicationSisIds,
  applications,
  checklistCounts,
  courseworkTotals,
  creditSummaries,
  decisions,
  reviewReads,
} from '../db/schema';
import { listFiltersWhere, seesReadsOf, topRecommendation } from './list-filter-store';

/** Words of a search beyond these are left out: each word is one more index lookup. */
export const SEARCH_WORDS_MAX = 8;
/** Shorter words are matched as whole name words only: a trigram index needs three letters. */
const SUBSTRING_MIN_LENGTH = 3;
/**
 * A list without a search is counted up to here: counting 100,000 rows would cost more than the
 * page itself, and "more than 10,000" tells a reader to filter.
 */
export const COUNT_MAX = 10_000;

const a = applications;
const c = accounts;
const cc = checklistCounts;

/**
 * The application's missing checklist items, null until first counted. A subquery rather than a
 * join, so the filters and orders stay conditions on `applications` alone whatever reads them
 * (the list, its search, the exports).
 */
const missingItems = sql`(select ${cc.missing} from ${cc} where ${cc.accountId} = ${a.accountId})`;

const ct = courseworkTotals;
/** The transfer GPA and units stored at submit, by primary key like the missing count. */
const transferGpa = sql`(select ${ct.transferGpa} from ${ct} where ${ct.accountId} = ${a.accountId})`;
const transferUnits = sql`(select ${ct.transferUnits} from ${ct}
  where ${ct.accountId} = ${a.accountId})`;

const cs = creditSummaries;
/** The credit summary's courses and mapped courses, by primary key like the missing count. */
const creditCourses = sql`(select ${cs.courses} from ${cs} where ${cs.accountId} = ${a.accountId})`;
const creditMapped = sql`(select ${cs.mapped} from ${cs} where ${cs.accountId} = ${a.accountId})`;

const d = decisions;
/** The decision's code and whether it is released, by primary key like the missing count. */
const decisionCode = sql`(select ${d.code} from ${d} where ${d.accountId} = ${a.accountId})`;
const decisionReleased = sql`exists (select 1 from ${d}
  where ${d.accountId} = ${a.accountId} and ${d.releasedAt} is not null)`;

const sis = applicationSisIds;
/** The id the student information system gave the application, by primary key likewise. */
const sisId = sql`(select ${sis.sisId} from ${sis} where ${sis.accountId} = ${a.accountId})`;

const rr = reviewReads;
/**
 * The application's reads in one aggregate over review_reads_round_idx: how many, how many
 * submitted, and (where the member may see it, the blind rule) the submitted scores' mean.
 */
function readsSummary(viewer: ListViewer | undefined): SQL {
  const submitted = sql`${rr.status} = 'submitted'`;
  const sees = !viewer
    ? sql`false`
    : viewer.committee
      ? sql`true`
      : sql`coalesce(bool_or(${rr.readerId} = ${viewer.id} and ${submitted}), false)`;
  return sql`(select json_build_array(count(*), count(*) filter (where ${submitted}),
      case when ${sees} then round(avg(${rr.score}) filter (where ${submitted}), 2) end)
    from ${rr} where ${rr.accountId} = ${a.accountId})`;
}

/** The most given recommendation of the submitted reads, where the member may see it. */
const recommendationFor = (viewer: ListViewer | undefined) =>
  sql`(case when ${seesReadsOf(viewer)} then ${topRecommendation} end)`;

/** Longer searches are not an id: the SIS lookup is skipped for them. */
const SIS_ID_SEARCH_MAX_LENGTH = 64;
/** An id is one application's, but nothing in the schema says so: a bound on what is read. */
const SEARCH_SIS_MATCHES_MAX = 20;

/**
 * The applications whose SIS id is exactly the search, from the index on `sis_id`: one lookup
 * before the search, so a search that is no SIS id (the common case) runs as it always did.
 */
async function applicationsWithSisId(db: AppDatabase, q: string): Promise<string[]> {
  const text = q.trim();
  if (text === '' || text.length > SIS_ID_SEARCH_MAX_LENGTH || /\s/.test(text)) return [];
  const rows = await db
    .select({ id: sis.accountId })
    .from(sis)
    .where(eq(sis.sisId, text))
    .limit(SEARCH_SIS_MATCHES_MAX);
  return rows.map((row) => row.id);
}

/** The search's words, or any of the applications its SIS id names. */
function searchMatches(words: readonly SearchWord[], sisMatches: readonly string[]): SQL {
  const byWords = words.length > 0 ? and(...words.map(matchesWord)) : undefined;
  if (sisMatches.length === 0) return byWords as SQL;
  const bySis = inArray(a.accountId, [...sisMatches]);
  return (byWords ? or(byWords, bySis) : bySis) as SQL;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
const containing = (text: string) => `%${escapeLike(text)}%`;

/** One word of a search: part of an address, digits of a phone or code, or folded text. */
type SearchWord = { kind: 'email'; text: string } | { kind: 'text'; text: string };

/** How the row is ordered, each column with the application id after it so pages never overlap. */
function orderBy(
  sort: ApplicationListSort,
  direction: 'asc' | 'desc',
  email: SQL = sql`lower(${c.email})`,
): SQL {
  const dir = sql.raw(direction);
  // Empty values go last either way; each order has an index written in the same terms.
  const nullable = (column: SQLWrapper) =>
    sql`${column} ${dir} nulls last, ${a.accountId} ${dir} nulls last`;
  switch (sort) {
    case 'name':
      return nullable(a.listName);
    case 'email':
      // Addresses are unique: nothing to break a tie.
      return sql`${email} ${dir}`;
    case 'status':
      return sql`${a.listStatus} ${dir}, ${a.accountId} ${dir}`;
    case 'submitted_at':
      return nullable(a.submittedAt);
    case 'last_activity':
      // The indexed hour first, then the exact time within it.
      return sql`${a.listActivityHour} ${dir}, ${a.updatedAt} ${dir}, ${a.accountId} ${dir}`;
    case 'program':
      return nullable(a.listProgram);
    case 'entry_term':
      return nullable(a.listEntryTerm);
    case 'decision_type':
      return nullable(a.listDecisionType);
    case 'missing_items':
      return nullable(missingItems);
    case 'transfer_gpa':
      return nullable(transferGpa);
    case 'transfer_units':
      return nullable(transferUnits);
  }
}

const filtersOf = (request: ApplicationListRequest) =>
  listFiltersWhere(request.filters, { viewer: request.viewer });

/** Anything but digits and the ways of writing a phone number makes a search not a number. */
const NUMBER_LIKE = /^[\d\s().+-]+$/;

/** The words of a search, folded by the database exactly as the searched columns are. */
async function searchWords(db: AppDatabase, q: string): Promise<SearchWord[]> {
  const digits = q.replace(/\D/g, '');
  if (NUMBER_LIKE.test(q) && digits.length >= 2) return [{ kind: 'text', text: digits }];
  const words: SearchWord[] = [];
  const textParts: string[] = [];
  for (const part of q.toLowerCase().split(/\s+/)) {
    if (part === '') continue;
    if (part.includes('@')) words.push({ kind: 'email', text: part });
    else textParts.push(part);
  }
  if (textParts.length > 0) {
    const [row] = rowsOf<{ folded: string | null }>(
      await db.execute(sql`select list_fold(${textParts.join(' ')}) as folded`),
    );
    for (const word of (row?.folded ?? '').split(' ')) {
      if (word !== '') words.push({ kind: 'text', text: word });
    }
  }
  const unique = new Map(words.map((word) => [`${word.kind}:${word.text}`, word]));
  return [...unique.values()].slice(0, SEARCH_WORDS_MAX);
}

/**
 * Whether an application has one word of a search: in a name (even one typo away), a school, a
 * number or the address. Every part has an index on `applications`, so the words of a search are
 * looked up together and their matches intersected before any row is read.
 */
function matchesWord(word: SearchWord): SQL {
  const pattern = containing(word.text);
  if (word.kind === 'email') return sql`${a.listEmail} like ${pattern}`;
  const names = sql`${a.listNameKeys} && list_typo_keys(${word.text})`;
  if (word.text.length < SUBSTRING_MIN_LENGTH) return names;
  return sql`(${a.listSearch} like ${pattern} or ${names} or ${a.listEmail} like ${pattern})`;
}

/**
 * Best matches first: the application whose SIS id is the search, then a whole name word counts
 * most, then the word anywhere; a typo counts 0.
 */
function relevance(words: readonly SearchWord[], sisMatches: readonly string[] = []): SQL {
  const sisScore =
    sisMatches.length > 0
      ? [sql`(case when ${inArray(a.accountId, [...sisMatches])} then 100 else 0 end)`]
      : [];
  const wordScores = words.map((word) =>
    word.kind === 'email'
      ? sql`(case when ${a.listEmail} like ${containing(word.text)} then 1 else 0 end)`
      : sql`(case when ${a.listNameKeys} @> array[${word.text}]::text[] then 2
          when ${a.listSearch} like ${containing(word.text)} then 1
          when ${a.listEmail} like ${containing(word.text)} then 1 else 0 end)`,
  );
  const scores = [...sisScore, ...wordScores];
  return scores.length > 0 ? sql.join(scores, sql` + `) : sql`0`;
}

interface ListRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  preferred_name: string | null;
  email: string;
  list_status: number;
  submitted_at: string | Date | null;
  updated_at: string | Date;
  program: string | null;
  program_desc: string | null;
  entry_term: string | null;
  entry_term_desc: string | null;
  decision_type: string | null;
  decision_type_desc: string | null;
  missing_items: string | number | null;
  decision: string | null;
  decision_released: boolean | null;
  transfer_gpa: string | number | null;
  transfer_units: string | number | null;
  credit_courses: string | number | null;
  credit_mapped: string | number | null;
  sis_id: string | null;
  review: [number | string, number | string, number | string | null] | string | null;
  review_recommendation: string | null;
  total?: string | number;
}

const answer = (key: string) => sql`nullif(${a.answers}->>${key}, '')`;

const listColumns = (email: SQL, viewer: ListViewer | undefined) => sql`${a.accountId} as id,
  ${a.answers}->>${LIST_KEYS.firstName} as first_name,
  ${a.answers}->>${LIST_KEYS.lastName} as last_name,
  ${a.answers}->>${LIST_KEYS.preferredName} as preferred_name,
  ${email} as email, ${a.listStatus} as list_status,
  ${a.submittedAt} as submitted_at, ${a.updatedAt} as updated_at,
  ${a.listProgramCode} as program, ${a.listProgram} as program_desc,
  ${a.listEntryTerm} as entry_term, ${answer(LIST_KEYS.entryTermLabel)} as entry_term_desc,
  ${a.listDecisionType} as decision_type,
  ${answer(LIST_KEYS.decisionTypeLabel)} as decision_type_desc,
  ${missingItems} as missing_items,
  ${decisionCode} as decision, ${decisionReleased} as decision_released,
  ${transferGpa} as transfer_gpa, ${transferUnits} as transfer_units,
  ${creditCourses} as credit_courses, ${creditMapped} as credit_mapped, ${sisId} as sis_id,
  ${readsSummary(viewer)} as review, ${recommendationFor(viewer)} as review_recommendation`;

const iso = (value: string | Date) => new Date(value).toISOString();

function listRow(row: ListRow): ApplicationListRow {
  return {
    id: row.id,
    first_name: row.first_name ?? '',
    last_name: row.last_name ?? '',
    preferred_name: row.preferred_name ?? '',
    email: row.email,
    status: APPLICATION_STATUSES[row.list_status] ?? 'started',
    submitted_at: row.submitted_at === null ? null : iso(row.submitted_at),
    last_activity: iso(row.updated_at),
    program: row.program,
    program_desc: row.program_desc,
    entry_term: row.entry_term,
    entry_term_desc: row.entry_term_desc,
    decision_type: row.decision_type,
    decision_type_desc: row.decision_type_desc,
    missing_items: row.missing_items === null ? null : Number(row.missing_items),
    decision: row.decision,
    // The store knows codes, not the tenant's labels: the routes name them.
    decision_label: null,
    decision_released: row.decision_released === true,
    transfer_gpa: decimalText(row.transfer_gpa),
    transfer_units: decimalText(row.transfer_units),
    credit_courses: row.credit_courses === null ? null : Number(row.credit_courses),
    credit_mapped: row.credit_mapped === null ? null : Number(row.credit_mapped),
    sis_id: row.sis_id,
    ...reviewFields(row),
  };
}

function reviewFields(
  row: ListRow,
): Pick<
  ApplicationListRow,
  'review_score' | 'review_recommendation' | 'review_recommendation_label' | 'reads'
> {
  const review = typeof row.review === 'string' ? JSON.parse(row.review) : row.review;
  const [total, submitted, mean] = Array.isArray(review) ? review : [0, 0, null];
  return {
    review_score: mean === null || mean === undefined ? null : decimalText(mean),
    review_recommendation: row.review_recommendation,
    // The store knows codes, not the tenant's labels: the routes name them.
    review_recommendation_label: null,
    reads: Number(total) > 0 ? `${Number(submitted)} of ${Number(total)} submitted` : null,
  };
}

/** A numeric(…, 2) as two decimals (`3.40`), whichever way the driver hands it over. */
function decimalText(value: string | number | null): string | null {
  return value === null ? null : Number(value).toFixed(2);
}

/**
 * A sort by a column of a table of one row per application, walked from that table's index on
 * (column, account_id): the applications with a value first (then ties by id), then those
 * without one, as `orderBy` orders them. Ordering by the column's subquery instead reads every
 * application's value before the page.
 */
interface WalkedColumn {
  table: SQLWrapper;
  accountId: SQLWrapper;
  column: SQLWrapper;
}

const WALKED_SORTS: Partial<Record<ApplicationListSort, WalkedColumn>> = {
  missing_items: { table: cc, accountId: cc.accountId, column: cc.missing },
  transfer_gpa: { table: ct, accountId: ct.accountId, column: ct.transferGpa },
  transfer_units: { table: ct, accountId: ct.accountId, column: ct.transferUnits },
};

/** A page in the order of a walked column (WALKED_SORTS), as `orderBy` orders it. */
async function pageByWalkedColumn(
  db: AppDatabase,
  walked: WalkedColumn,
  request: ApplicationListRequest,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<ListRow[]> {
  const { table, accountId, column } = walked;
  const dir = sql.raw(direction);
  const filters = filtersOf(request);
  // Filters on the walked table read the joined row itself: a bound on the sorted column
  // (`units_min` sorted by units) starts the walk at the bound rather than testing every row.
  const joinedFilters = listFiltersWhere(request.filters, {
    joined: table,
    viewer: request.viewer,
  });
  const where = (extra?: SQL, condition = filters) => {
    const all = and(condition, extra);
    return all ? sql`where ${all}` : sql``;
  };
  const valued = sql`${column} is not null`;
  const counted = rowsOf<ListRow>(
    await db.execute(sql`select ${listColumns(sql`${c.email}`, request.viewer)}
      from ${table} join ${a} on ${a.accountId} = ${accountId} join ${c} on ${c.id} = ${a.accountId}
      ${where(valued, joinedFilters)}
      order by ${column} ${dir}, ${accountId} ${dir}
      limit ${limit} offset ${offset}`),
  );
  if (counted.length === limit) return counted;
  // Past the last application with a value: the others' page starts after however many there were.
  let countedTotal = offset + counted.length;
  if (counted.length === 0 && offset > 0) {
    const [row] = rowsOf<{ total: string | number }>(
      await db.execute(sql`select count(*) as total
        from ${table} join ${a} on ${a.accountId} = ${accountId} ${where(valued, joinedFilters)}`),
    );
    countedTotal = Number(row?.total ?? 0);
  }
  const uncounted = rowsOf<ListRow>(
    await db.execute(sql`select ${listColumns(sql`${c.email}`, request.viewer)}
      from ${a} join ${c} on ${c.id} = ${a.accountId}
      ${where(sql`not exists (select 1 from ${table} where ${accountId} = ${a.accountId} and ${valued})`)}
      order by ${a.accountId} ${dir}
      limit ${limit - counted.length} offset ${Math.max(0, offset - countedTotal)}`),
  );
  return [...counted, ...uncounted];
}

export interface ApplicationListPage {
  rows: ApplicationListRow[];
  total: number;
  /** False when there are more than `total` (a list is counted up to COUNT_MAX). */
  totalExact: boolean;
}

/**
 * One page of the staff list: every application matching the filters and, when there is a
 * search, every one of its words (a word finds names, even one typo away, schools, CEEB codes,
 * phone digits and addresses). Ordered by the sort asked for, or by best match for a search.
 */
export async function listApplications(
  db: AppDatabase,
  request: ApplicationListRequest,
): Promise<ApplicationListPage> {
  const filters = filtersOf(request);
  const limit = request.pageSize;
  const offset = (request.page - 1) * request.pageSize;
  const [words, sisMatches] =
    request.q === ''
      ? [[], []]
      : await Promise.all([searchWords(db, request.q), applicationsWithSisId(db, request.q)]);

  if (request.q !== '' && words.length === 0 && sisMatches.length === 0)
    return { rows: [], total: 0, totalExact: true };

  if (request.q === '') {
    const sort = request.sort ?? 'last_activity';
    const walked = WALKED_SORTS[sort];
    const [rows, counted] = await Promise.all([
      walked
        ? pageByWalkedColumn(db, walked, request, request.direction, limit, offset)
        : db
            .execute(sql`select ${listColumns(sql`${c.email}`, request.viewer)}
        from ${a} join ${c} on ${c.id} = ${a.accountId}
        ${filters ? sql`where ${filters}` : sql``}
        order by ${orderBy(sort, request.direction)}
        limit ${limit} offset ${offset}`)
            .then((result) => rowsOf<ListRow>(result)),
      db.execute(sql`select count(*) as total from (select 1 from ${a}
        ${filters ? sql`where ${filters}` : sql``} limit ${COUNT_MAX + 1}) as counted`),
    ]);
    const [count] = rowsOf<{ total: string | number }>(counted);
    const total = Number(count?.total ?? 0);
    return {
      rows: rows.map(listRow),
      total: Math.min(total, COUNT_MAX),
      totalExact: total <= COUNT_MAX,
    };
  }

  const matches = searchMatches(words, sisMatches);
  // The few rows found read their address one by one rather than joining every account.
  const email = sql`(select ${c.email} from ${c} where ${c.id} = ${a.accountId})`;
  const order = request.sort
    ? orderBy(request.sort, request.direction, sql`${a.listEmail}`)
    : sql`${relevance(words, sisMatches)} desc, ${orderBy('name', 'asc')}`;
  // The search's matches first, through its indexes, then the filters and the order on those
  // few rows: left to choose, the planner may walk a sort's index testing every application
  // against the search, or read a filter's index of tens of thousands of rows.
  const rows = rowsOf<ListRow>(
    await db.execute(sql`with matched as materialized (select ${a.accountId} from ${a} where ${matches})
      select ${listColumns(email, request.viewer)}, count(*) over () as total
      from matched join ${a} on ${a.accountId} = matched.account_id
      ${filters ? sql`where ${filters}` : sql``}
      order by ${order}
      limit ${limit} offset ${offset}`),
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    const [count] = rowsOf<{ total: string | number }>(
      await db.execute(sql`select count(*) as total from ${a} where ${and(matches, filters)}`),
    );
    total = Number(count?.total ?? 0);
  }
  return { rows: rows.map(listRow), total, totalExact: true };
}

/**
 * The list's condition and order for a request, without paging: what an export reads. Null when
 * the search has no word left to look for (the list answers nothing then).
 */
export async function listSelection(
  db: AppDatabase,
  request: ApplicationListRequest,
): Promise<{ where: SQL | undefined; order: SQL } | null> {
  const filters = filtersOf(request);
  const [words, sisMatches] =
    request.q === ''
      ? [[], []]
      : await Promise.all([searchWords(db, request.q), applicationsWithSisId(db, request.q)]);
  if (request.q !== '' && words.length === 0 && sisMatches.length === 0) return null;
  // The list's own order; the address from the applications' own copy, equal to the account's.
  const email = sql`${a.listEmail}`;
  if (request.q === '') {
    return {
      where: filters,
      order: orderBy(request.sort ?? 'last_activity', request.direction, email),
    };
  }
  const order = request.sort
    ? orderBy(request.sort, request.direction, email)
    : sql`${relevance(words, sisMatches)} desc, ${orderBy('name', 'asc')}`;
  return { where: and(searchMatches(words, sisMatches), filters), order };
}

/**
 * Reading's columns of some applications as the member may see them (the list's, for exports):
 * the submitted reads' mean score and most given recommendation, by application id.
 */
export async function reviewColumnsOf(
  db: AppDatabase,
  ids: readonly string[],
  viewer: ListViewer | undefined,
): Promise<Map<string, { score: string | null; recommendation: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<Pick<ListRow, 'id' | 'review' | 'review_recommendation'>>(
    await db.execute(sql`select ${a.accountId} as id, ${readsSummary(viewer)} as review,
        ${recommendationFor(viewer)} as review_recommendation
      from ${a} where ${inArray(a.accountId, [...ids])}`),
  );
  return new Map(
    rows.map((row) => {
      const fields = reviewFields(row as ListRow);
      return [row.id, { score: fields.review_score, recommendation: fields.review_recommendation }];
    }),
  );
}

/**
 * The console's home-page lookup: the application of the account with exactly this address
 * (case aside), whether or not the applicant has started it.
 */
export async function findApplicationsByEmail(
  db: AppDatabase,
  email: string,
): Promise<ApplicationSummary[]> {
  const [found] = await db
    .select({ id: c.id, email: c.email, submittedAt: a.submittedAt })
    .from(c)
    .leftJoin(a, eq(a.accountId, c.id))
    .where(eq(sql`lower(${c.email})`, normaliseUsername(email)));
  if (!found) return [];
  return [
    {
      id: found.id,
      email: found.email,
      status: found.submittedAt ? 'submitted' : 'started',
      submitted_at: found.submittedAt?.toISOString() ?? null,
    },
  ];
}
