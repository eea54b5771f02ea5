import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationListResponse } from '../../shared/staff/application-list-api';
import {
  MEMBER_FILTER_NOT_HERE_MESSAGE,
  parseSelectionQueryString,
} from '../applications-list/application-selection';
import { accounts, applications, staffApplicationViews } from '../db/schema';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp, testDatabaseOf } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

describe.each(databaseKinds)('"new since I last looked" on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let admin: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader', email: 'new.since@example.edu' });
    admin = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Applications sharing a last name no other test uses, made in the database. */
  async function group(size: number) {
    const name = `New${randomBytes(3).toString('hex')}`;
    const ids: string[] = [];
    for (let index = 0; index < size; index += 1) {
      const id = randomUUID();
      await testDatabaseOf(app)
        .insert(accounts)
        .values({ id, email: `new-${id}@example.edu` });
      await testDatabaseOf(app)
        .insert(applications)
        .values({ accountId: id, answers: { first_name: `P${index}`, last_name: name } });
      ids.push(id);
    }
    return { name, ids };
  }

  async function listed(member: SignedInStaff, query: string): Promise<string[]> {
    const response = await app.inject({
      method: 'GET',
      url: `/staff/api/applications?${query}`,
      headers: { cookie: member.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as ApplicationListResponse;
    return body.applications.map((row) => row.id).sort();
  }

  async function open(member: SignedInStaff, id: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/staff/api/applications/${id}`,
      headers: { cookie: member.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const viewOf = async (member: SignedInStaff, id: string) =>
    (
      await testDatabaseOf(app)
        .select()
        .from(staffApplicationViews)
        .where(
          and(
            eq(staffApplicationViews.staffId, member.staffId),
            eq(staffApplicationViews.accountId, id),
          ),
        )
    )[0] ?? null;

  it('records each opening per member, moving the time forward', async () => {
    const { ids } = await group(1);
    const [id = ''] = ids;
    expect(await viewOf(reader, id)).toBeNull();
    await open(reader, id);
    const first = await viewOf(reader, id);
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await open(reader, id);
    const second = await viewOf(reader, id);
    expect(second?.viewedAt.getTime()).toBeGreaterThan(first?.viewedAt.getTime() ?? 0);
    expect(await viewOf(admin, id)).toBeNull();
  });

  it('lists what the member never opened or what changed since, for that member only', async () => {
    const { name, ids } = await group(3);
    const [a = '', b = '', c = ''] = ids;
    expect(await listed(reader, `q=${name}&new_since=true`)).toEqual([a, b, c].sort());
    expect(await listed(reader, `q=${name}&new_since=false`)).toEqual([]);

    await open(reader, a);
    expect(await listed(reader, `q=${name}&new_since=true`)).toEqual([b, c].sort());
    expect(await listed(reader, `q=${name}&new_since=false`)).toEqual([a]);
    // Another member's openings are theirs.
    expect(await listed(admin, `q=${name}&new_since=true`)).toEqual([a, b, c].sort());

    // The applicant changes an application not yet submitted: its updated time counts.
    await testDatabaseOf(app)
      .update(applications)
      .set({
        answers: { first_name: 'P0', last_name: name, middle_name: 'Q' },
        updatedAt: sql`now()`,
      })
      .where(eq(applications.accountId, a));
    expect(await listed(reader, `q=${name}&new_since=true`)).toEqual([a, b, c].sort());
  });

  it("reads a submitted application's change time rather than its updated time", async () => {
    const { name, ids } = await group(2);
    const [a = '', b = ''] = ids;
    await open(reader, a);
    await open(reader, b);
    const db = testDatabaseOf(app);
    // a changed after the reading (as integrators saw it); b's last change was before it, even
    // though its row was touched since (a recount, a list column).
    await db.execute(sql`insert into application_changes (account_id, seq, tx, changed_at)
      values (${a}, ${Date.now() * 10 + 1}, pg_current_xact_id(), now() + interval '1 minute'),
             (${b}, ${Date.now() * 10 + 2}, pg_current_xact_id(), now() - interval '1 hour')
      on conflict (account_id) do update set changed_at = excluded.changed_at`);
    await db
      .update(applications)
      .set({ updatedAt: sql`now() + interval '1 minute'` })
      .where(eq(applications.accountId, b));
    expect(await listed(reader, `q=${name}&new_since=true`)).toEqual([a]);
    expect(await listed(reader, `q=${name}&new_since=false`)).toEqual([b]);
  });

  it('refuses new_since where no member asks, and a value that is not yes or no', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/staff/api/applications?new_since=maybe',
      headers: { cookie: reader.cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.new_since).toEqual(['new_since is true or false.']);
    // A selection made without a member (a ZIP export's job, credit estimates for a list) cannot
    // say whose openings count.
    expect(() => parseSelectionQueryString('new_since=true')).toThrow(
      MEMBER_FILTER_NOT_HERE_MESSAGE,
    );
  });
});
