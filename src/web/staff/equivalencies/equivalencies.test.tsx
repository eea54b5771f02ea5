import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { summaryText } from './equivalencies-calls';
import { TablesList } from './tables-list';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the equivalency tables page', () => {
  it('sums up a checked file', () => {
    expect(
      summaryText({
        colleges: [
          { ceeb: '5074', rows: 1000 },
          { ceeb: '4144', rows: 240 },
        ],
        rows: 1240,
        file_name: 'tables.csv',
      }),
    ).toBe('1,240 rows for 2 colleges: 5074, 4144');
    expect(
      summaryText({ colleges: [{ ceeb: '4144', rows: 1 }], rows: 1, file_name: 'one.csv' }),
    ).toBe('1 row for 1 college: 4144');
  });

  it('lists each college with its name, code, rows, file, importer and time', () => {
    const text = textOf(
      renderToStaticMarkup(
        <TablesList
          tables={[
            {
              ceeb: '4144',
              name: 'De Anza College',
              row_count: 1240,
              file_name: 'de-anza.csv',
              imported_by_label: 'Pat Lee',
              imported_at: '2027-01-10T15:00:00.000Z',
            },
            {
              ceeb: '9999',
              name: null,
              row_count: 3,
              file_name: 'other.csv',
              imported_by_label: 'command line',
              imported_at: '2027-01-11T15:00:00.000Z',
            },
          ]}
        />,
      ),
    );
    expect(text).toContain('De Anza College 4144 1,240 de-anza.csv Pat Lee');
    expect(text).toContain('Not in the college list 9999 3 other.csv command line');
  });

  it('says when no table was imported', () => {
    expect(textOf(renderToStaticMarkup(<TablesList tables={[]} />))).toBe(
      'No equivalency tables have been imported yet.',
    );
  });
});
