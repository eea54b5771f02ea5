import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomToken, sha256 } from '../src/server/accounts/secrets';
import { openDatabase } from '../src/server/db/database';
import { STAFF_SESSION_ABSOLUTE_HOURS, staffCookieName } from '../src/server/staff/staff-sessions';
import { APPLICATION_LIST_SORTS } from '../src/shared/staff/application-list-api';
import {
  buildServer,
  type RunningServer,
  scratchPostgres,
  startProductionServer,
} from './production-server';
import { percentile } from './timing';

const _root = path.resolve(import.meta.dirname, '..');
const APPLICATIONS = Number(process.env.BENCH_APPLICATIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_LIST_REQUESTS ?? 300);
const WARM_UPS = 30;
const PORT = 3391;

export interface ApplicationListCase {
  case: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Mean applications found per request: what the case asked the database for. */
  meanFound: number;
}

export interface ApplicationListBenchResult {
  applications: number;
  fillSeconds: number;
  loadBefore: number[];
  loadAfter: number[];
  cases: ApplicationListCase[];
}

const FIRST_NAMES = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'José',
  'María',
  'Luis',
  'Ana',
  'Carlos',
  'Sofía',
  'Juan',
  'Lucía',
  'Wei',
  'Mei',
  'Hiroshi',
  'Yuki',
  'Olga',
  'Dmitri',
  'Fatima',
  'Omar',
  'Aisha',
  'Kwame',
  'Amara',
  'Chloé',
  'Zoë',
  'Renée',
  'André',
  'Björn',
  'Søren',
  'Ingrid',
  'Priya',
  'Arjun',
  'Nguyen',
  'Thi',
];
const SYLLABLES = [
  'bar',
  'ca',
  'del',
  'fer',
  'gon',
  'her',
  'ja',
  'kel',
  'lo',
  'mar',
  'nu',
  'ol',
  'pe',
  'quin',
  'ros',
  'san',
  'tor',
  'ur',
  'vel',
  'wil',
  'xa',
  'yor',
  'zal',
  'ben',
  'cor',
  'dan',
  'es',
  'fin',
  'gar',
  'hol',
  'ñez',
  'lé',
  'mó',
  'rí',
  'sø',
];
const TOWNS = [
  'Lincoln',
  'Roosevelt',
  'Washington',
  'Jefferson',
  'Franklin',
  'Madison',
  'Kennedy',
  'Hamilton',
  'Riverside',
  'Lakeside',
  'Hillcrest',
  'Oakwood',
  'Maplewood',
  'Springfield',
  'Fairview',
  'Greenville',
  'Brookside',
  'Central',
  'Westfield',
  'Northridge',
  'San José',
  'Santa Fé',
];
const PROGRAMS: ReadonlyArray<readonly [string, string]> = [
  ['BIO', 'Biology'],
  ['BUS', 'Business Administration'],
  ['CS', 'Computer Science'],
  ['EDU', 'Elementary Education'],
  ['ENG', 'English'],
  ['FILM', 'Film and Television'],
  ['HIST', 'History'],
  ['NURS', 'Nursing'],
  ['PSY', 'Psychology'],
  ['RT', 'Respiratory Therapy: R.R.T. to B.S. (online)'],
  ['SOC', 'Sociology'],
  ['MATH', 'Mathematics'],
];
const TERMS: ReadonlyArray<readonly [string, string]> = [
  ['FA2026', 'Fall 2026'],
  ['WI2027', 'Winter 2027'],
  ['SU2027', 'Summer 2027'],
  ['FA2027', 'Fall 2027'],
];

const sqlArray = (values: readonly string[]) =>
  `array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]`;

/** A pseudo-random whole number in 1..n for row g, different for each `salt`. */
const pick = (salt: number, n: number) =>
  `((hashint4(g * 7919 + ${salt}) & 2147483647) % ${n} + 1)`;

/** Fills the database in a few statements: accounts, applications, their web statuses. */
export async function fill(client: pg.Client): Promise<void> {
  const programs = sqlArray(PROGRAMS.map(([code]) => code));
  const programLabels = sqlArray(PROGRAMS.map(([, label]) => label));
  const terms = sqlArray(TERMS.map(([code]) => code));
  const termLabels = sqlArray(TERMS.map(([, label]) => label));
  const towns = sqlArray(TOWNS);
  const syllables = sqlArray(SYLLABLES);
  await client.query(`insert into accounts (email, confirmed_at, created_at)
    select 'applicant' || g || '@example.edu', now(), now() from generate_series(1, ${APPLICATIONS}) g`);
  await client.query(`
    insert into applications (account_id, answers, submitted_at, updated_at, list_status)
    select id, answers, case when status = 2 then activity else null end, activity, status
    from (
      select a.id, g,
        case when ${pick(11, 10)} <= 4 then 2 when ${pick(11, 10)} <= 7 then 1 else 0 end as status,
        now() - (${pick(12, 525_600)} || ' minutes')::interval as activity,
        jsonb_build_object(
          'first_name', (${sqlArray(FIRST_NAMES)})[${pick(1, FIRST_NAMES.length)}],
          'last_name', initcap((${syllables})[${pick(2, SYLLABLES.length)}] || (${syllables})[${pick(3, SYLLABLES.length)}] || (${syllables})[${pick(4, SYLLABLES.length)}]),
          'preferred_name', case when ${pick(5, 10)} = 1 then (${sqlArray(FIRST_NAMES)})[${pick(6, FIRST_NAMES.length)}] else '' end,
          'prev_lname', case when ${pick(7, 20)} = 1 then initcap((${syllables})[${pick(8, SYLLABLES.length)}] || (${syllables})[${pick(9, SYLLABLES.length)}]) else '' end,
          'phone_mobile', '(' || (200 + ${pick(10, 799)}) || ') ' || (200 + ${pick(13, 799)}) || '-' || lpad(${pick(14, 9999)}::text, 4, '0'),
          'hs_name', (${towns})[${pick(15, TOWNS.length)}] || ' High School',
          'hs_ceeb', (100000 + ${pick(16, 899_999)})::text,
          'college_name', (${towns})[${pick(17, TOWNS.length)}] || ' Community College',
          'college_ceeb', (1000 + ${pick(18, 8999)})::text,
          'applied_major', (${programs})[${pick(19, PROGRAMS.length)}],
          'applied_major_desc', (${programLabels})[${pick(19, PROGRAMS.length)}],
          'entry_term', (${terms})[${pick(20, TERMS.length)}],
          'entry_term_desc', (${termLabels})[${pick(20, TERMS.length)}],
          'decision_type', case when ${pick(21, 5)} = 1 then 'ED' else 'REG' end,
          'decision_type_desc', case when ${pick(21, 5)} = 1 then 'Early decision (binding)' else 'Regular decision (not binding)' end,
          'birth_date', '2004-05-17', 'gender', 'F', 'perm_addr_line_1', g || ' Main Street',
          'perm_addr_city', (${towns})[${pick(22, TOWNS.length)}], 'perm_addr_state', 'CA',
          'perm_addr_zip', lpad(${pick(23, 99_999)}::text, 5, '0'), 'citizenship', 'US',
          'personal_statement', repeat('I want to study here because of the program. ', 20)
        ) as answers
      from (select id, substring(email from 10 for position('@' in email) - 10)::int as g
            from accounts where email like 'applicant%@example.edu') as a
    ) as generated`);
  // The trigger's work is already done above, in one statement.
  await client.query('alter table web_statuses disable trigger web_statuses_list_status');
  await client.query(`insert into web_statuses (account_id, web_status)
    select account_id, status from applications,
      unnest(array['started', 'validating', 'submitted']) with ordinality as s(status, rank)
    where rank - 1 <= list_status`);
  await client.query('alter table web_statuses enable trigger web_statuses_list_status');
  // Counted as of each application's last change, as the server's sweep leaves them: the
  // benchmark measures the list, not the first start's recount of every application.
  await client.query(`insert into checklist_counts (account_id, missing, source_updated_at)
    select account_id, (hashint4(hashtext(account_id::text)) & 2147483647) % 5, updated_at
    from applications`);
  // Coursework totals as submit stores them, for the submitted applications: GPAs from 1.50 to
  // 4.00 (one in twenty without one: nothing graded), 0 to 119.5 transferable units.
  await client.query(`insert into coursework_totals
      (account_id, transfer_gpa, transfer_units, in_progress_units)
    select account_id,
      case when (hashint4(hashtext(account_id::text || 'g')) & 2147483647) % 20 = 0 then null
        else 1.5 + ((hashint4(hashtext(account_id::text || 'g')) & 2147483647) % 251) / 100.0 end,
      ((hashint4(hashtext(account_id::text || 'u')) & 2147483647) % 240) / 2.0,
      ((hashint4(hashtext(account_id::text || 'p')) & 2147483647) % 4) * 3
    from applications where list_status = 2`);
  // Credit summaries as submit writes them (one in five with courses needing review) and the
  // sample tenant's requirements' statuses, so the server's start finds none to write.
  await client.query(`insert into credit_summaries
      (account_id, courses, mapped, needs_review, verified, colleges)
    select a.account_id, 20,
      20 - case when (hashint4(hashtext(a.account_id::text || 'r')) & 2147483647) % 5 = 0 then 2 else 0 end,
      case when (hashint4(hashtext(a.account_id::text || 'r')) & 2147483647) % 5 = 0 then 2 else 0 end,
      0, array[a.answers->>'college_ceeb']
    from applications a where a.list_status = 2`);
  await client.query(`insert into credit_requirement_statuses (account_id, requirement_id, status)
    select s.account_id, r.id,
      case r.id
        when 'units_60' then case when t.transfer_units >= 60 then 'met' else 'not_met' end
        when 'gpa_2' then case when t.transfer_gpa >= 2 then 'met' else 'not_met' end
        when 'golden_four' then case when s.needs_review = 0 then 'met' else 'in_progress' end
        else case when t.transfer_units >= 60 and s.needs_review = 0 then 'met' else 'not_met' end
      end
    from credit_summaries s join coursework_totals t using (account_id),
      (values ('units_60'), ('gpa_2'), ('golden_four'), ('adt')) as r(id)`);
  await client.query(
    'vacuum analyze accounts, applications, web_statuses, checklist_counts, coursework_totals, credit_summaries, credit_requirement_statuses',
  );
}

/** Swaps two letters in the middle of a word: the typo the search must forgive. */
function misspell(word: string): string {
  if (word.length < 4) return word;
  const at = Math.floor(word.length / 2);
  return `${word.slice(0, at - 1)}${word[at]}${word[at - 1]}${word.slice(at + 1)}`;
}

/** A small seeded generator, so every run asks the same things. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function timeCase(
  name: string,
  cookie: string,
  queries: readonly string[],
): Promise<ApplicationListCase> {
  const call = async (query: string) => {
    const response = await fetch(`http://127.0.0.1:${PORT}/staff/api/applications?${query}`, {
      headers: { cookie },
    });
    if (response.status !== 200) {
      throw new Error(`${name}: ${query} answered ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as { total: number };
  };
  for (let i = 0; i < WARM_UPS; i++) await call(queries[i % queries.length] as string);
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const body = await call(queries[i % queries.length] as string);
    times.push(performance.now() - start);
    found += body.total;
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    case: name,
    requests: REQUESTS,
    p50Ms: round(percentile(times, 0.5)),
    p99Ms: round(percentile(times, 0.99)),
    meanFound: Math.round(found / REQUESTS),
  };
}

export async function benchApplicationList(): Promise<ApplicationListBenchResult> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('the application-list benchmark needs DATABASE_URL (PostgreSQL)');
  const scratch = await scratchPostgres(adminUrl, 'portal_bench_list');
  const url = new URL(scratch.url);
  let server: RunningServer | null = null;
  try {
    // Migrate as the server would, then fill.
    await (await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 })).close();
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const fillStart = performance.now();
    await fill(client);
    const fillSeconds = Math.round((performance.now() - fillStart) / 100) / 10;

    // A reader signed in, as a finished sign-in leaves the session.
    const token = randomToken();
    const member = await client.query<{ id: string }>(
      `insert into staff_members (email, role, display_name) values ('bench-reader@staff.example.edu', 'reader', 'Bench') returning id`,
    );
    await client.query(
      `insert into staff_sessions (token_hash, staff_id, stage, method, second_factor_at, expires_at)
       values ($1, $2, 'signed_in', 'password', now(), now() + interval '${STAFF_SESSION_ABSOLUTE_HOURS} hours')`,
      [sha256(token), member.rows[0]?.id],
    );
    const cookie = `${staffCookieName(true)}=${token}`;
    const sample = await client.query<{ first: string; last: string }>(
      `select answers->>'first_name' as first, answers->>'last_name' as last
       from applications tablesample bernoulli (1) repeatable (7) limit 100`,
    );
    await client.end();

    // The compiled server, as production runs it.
    buildServer();
    server = await startProductionServer(PORT, {
      LOG_LEVEL: 'warn',
      DATABASE_URL: url.toString(),
    });

    const next = random(20_261_124);
    const pages = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
    const names = sample.rows;
    const loadBefore = os.loadavg();
    const cases: ApplicationListCase[] = [];
    cases.push(
      await timeCase(
        'list, default order (last activity), pages 1-5',
        cookie,
        pages(5).map((page) => `page=${page}`),
      ),
    );
    cases.push(
      await timeCase(
        'list, each sort both ways, 100 a page',
        cookie,
        APPLICATION_LIST_SORTS.flatMap((sort) =>
          ['asc', 'desc'].map((direction) => `sort=${sort}&direction=${direction}&page_size=100`),
        ),
      ),
    );
    cases.push(
      await timeCase(
        'filtered list (status, term, program, decision type, dates), by name',
        cookie,
        [
          'status=submitted&sort=name',
          'term=FA2027&program=CS&sort=submitted_at&direction=desc',
          'status=validating&decision_type=ED&sort=program',
          'program=NURS&program=BIO&status=submitted&submitted_from=2026-06-01&sort=name',
          'term=SU2027&status=started&sort=last_activity&direction=asc',
        ],
      ),
    );
    cases.push(
      await timeCase('filtered on missing checklist items, by name or by the count', cookie, [
        'has_missing=true&status=submitted&sort=name',
        'has_missing=false&term=FA2026&sort=missing_items',
        'has_missing=true&sort=missing_items&direction=desc',
      ]),
    );
    cases.push(
      await timeCase('filtered on transfer GPA and units, by name or by the GPA', cookie, [
        'gpa_min=2.4&units_min=60&sort=name',
        'gpa_min=3.9&sort=transfer_gpa&direction=desc',
        'units_min=100&status=submitted&term=FA2026&sort=transfer_units',
        'gpa_min=3.5&sort=last_activity&direction=desc',
      ]),
    );
    cases.push(
      await timeCase('filtered on transfer credit (needs review, a requirement), by name', cookie, [
        'credit=needs_review&sort=name',
        'requirement=golden_four:met&sort=name',
        'requirement=adt:not_met&term=FA2026&sort=last_activity&direction=desc',
        'credit=reviewed&requirement=units_60:met&sort=transfer_gpa&direction=desc',
      ]),
    );
    cases.push(
      await timeCase(
        'search, whole name',
        cookie,
        names.map((row) => `q=${encodeURIComponent(`${row.first} ${row.last}`)}`),
      ),
    );
    cases.push(
      await timeCase(
        'search, misspelled name (two letters swapped)',
        cookie,
        names.map(
          (row) => `q=${encodeURIComponent(`${misspell(row.first)} ${misspell(row.last)}`)}`,
        ),
      ),
    );
    cases.push(
      await timeCase(
        'search, last name alone, submitted only',
        cookie,
        names.map((row) => `q=${encodeURIComponent(row.last)}&status=submitted`),
      ),
    );
    cases.push(
      await timeCase(
        'search, phone digits or CEEB code',
        cookie,
        names.map(() => `q=${String(100000 + Math.floor(next() * 899_999))}`),
      ),
    );
    return { applications: APPLICATIONS, fillSeconds, loadBefore, loadAfter: os.loadavg(), cases };
  } finally {
    await server?.stop();
    await scratch.drop();
  }
}
