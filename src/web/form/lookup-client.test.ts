import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchRecord, fetchSuggestions } from './lookup-client';

function stubFetch(reply: Response | Error) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    if (reply instanceof Error) throw reply;
    return reply;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const record = {
  id: '334070',
  name: 'Stuyvesant High School',
  address_line_1: '',
  city: 'NEW YORK',
  state: 'NY',
  zip: '10282',
  ceeb: '334070',
  country: 'USA',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('lookup calls', () => {
  it('asks for five results of the category for the text', async () => {
    const results = [{ text: 'Stuyvesant High School', id: '334070', sub_text: 'NEW YORK, NY' }];
    const fetchMock = stubFetch(json(results));
    await expect(fetchSuggestions('hs_ceeb', 'stuy & co')).resolves.toEqual(results);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      '/lookup/find?text=stuy+%26+co&category=hs_ceeb&max_results=5',
    );
  });

  it.each([
    ['a server error', json({ message: 'Too many attempts.' }, 429)],
    ['no connection', new TypeError('Failed to fetch')],
    ['a reply of the wrong shape', json([{ text: 'x' }])],
    ['a reply that is not JSON', new Response('<html>', { status: 200 })],
  ])('gives an empty list on %s', async (_case, reply) => {
    stubFetch(reply);
    await expect(fetchSuggestions('college_ceeb', 'x')).resolves.toEqual([]);
  });

  it('reads the record of an id', async () => {
    const fetchMock = stubFetch(json(record));
    await expect(fetchRecord('hs_ceeb', '334070')).resolves.toEqual(record);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/lookup/find?id=334070&category=hs_ceeb');
  });

  it.each([
    ['a 404', json({ message: 'There is no such record in this list.' }, 404)],
    ['no connection', new TypeError('Failed to fetch')],
    ['a record with a missing field', json({ ...record, zip: undefined })],
  ])('gives no record on %s', async (_case, reply) => {
    stubFetch(reply);
    await expect(fetchRecord('hs_ceeb', '1')).resolves.toBeNull();
  });
});
