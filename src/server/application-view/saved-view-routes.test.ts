import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_API_MESSAGES, type SavedView } from '../../shared/staff/application-api';
import { signedInApplicant } from '../test/accounts-helpers';
import { type SignedInStaff, signedInStaff } from '../test/staff-sign-in';
import { buildTestApp } from '../test/test-app';
import { databaseKinds } from '../test/test-database';

const VIEWS = '/staff/api/saved-views';

describe.each(databaseKinds)('saved views of the application list on %s', (kind) => {
  let app: FastifyInstance;
  let reader: SignedInStaff;
  let other: SignedInStaff;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    reader = await signedInStaff(app, { role: 'reader' });
    other = await signedInStaff(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app.close();
  });

  function call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    cookie = reader.cookie,
  ) {
    return app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function views(cookie = reader.cookie): Promise<SavedView[]> {
    const response = await call('GET', VIEWS, undefined, cookie);
    expect(response.statusCode).toBe(200);
    return response.json<SavedView[]>();
  }

  it('saves a view of the list without its page, lists it by name and deletes it', async () => {
    const created = await call('POST', VIEWS, {
      name: '  Fall submitted ',
      query: 'status=submitted&term=FA2026&page=3&sort=name',
    });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json<SavedView>();
    expect(view).toMatchObject({
      name: 'Fall submitted',
      query: 'status=submitted&term=FA2026&sort=name',
    });
    await call('POST', VIEWS, { name: 'awaiting documents', query: 'has_missing=true' });
    expect((await views()).map((saved) => saved.name)).toEqual([
      'awaiting documents',
      'Fall submitted',
    ]);
    expect(await views(other.cookie)).toEqual([]);

    expect((await call('DELETE', `${VIEWS}/${view.id}`, undefined, other.cookie)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${VIEWS}/${view.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `${VIEWS}/${view.id}`)).statusCode).toBe(404);
    expect((await views()).map((saved) => saved.name)).toEqual(['awaiting documents']);
  });

  it('refuses a second view of the same name, whatever its case', async () => {
    expect((await call('POST', VIEWS, { name: 'Transfers', query: '' })).statusCode).toBe(201);
    const again = await call('POST', VIEWS, { name: 'TRANSFERS', query: 'status=started' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(APPLICATION_API_MESSAGES.viewNameTaken);
  });

  it('refuses a view whose query the list would refuse, and bodies that are not a view', async () => {
    const before = await views();
    const refused: Array<[object, number]> = [
      [{ name: 'Bad status', query: 'status=admitted' }, 400],
      [{ name: 'Bad filter', query: 'colour=red' }, 400],
      [{ name: 'Lookup', query: 'email=a@example.edu' }, 400],
      [{ name: '', query: '' }, 400],
      [{ name: 'x'.repeat(81), query: '' }, 400],
      [{ name: 'Long', query: `q=${'a'.repeat(2001)}` }, 400],
      [{ name: 'Extra', query: '', shared: true }, 400],
      [{ name: 7, query: '' }, 400],
      [{ name: 'Nul\u0000', query: '' }, 400],
    ];
    for (const [body, status] of refused) {
      const response = await call('POST', VIEWS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().message).toBeTruthy();
    }
    expect(await views()).toEqual(before);
    expect((await call('DELETE', `${VIEWS}/not-an-id`)).statusCode).toBe(400);
  });

  it('keeps saved views to staff', async () => {
    const applicant = await signedInApplicant(app, `views-${kind}@example.edu`);
    expect((await call('GET', VIEWS, undefined, applicant)).statusCode).toBe(401);
  });
});
