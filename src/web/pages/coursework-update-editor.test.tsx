import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import type { CourseworkAnswer } from '../../shared/coursework/coursework-answer';
import { DEFAULT_COURSEWORK_RULES } from '../../shared/coursework/coursework-rules';
import type { CourseworkOverview } from '../../shared/coursework/coursework-update-api';
import { ServerError } from '../data/http-client';
import { queryKeys } from '../data/query-keys';
import { answerOf, CourseworkUpdateEditor, refusalOf } from './coursework-update-editor';

const course = (subject: string, grade = '') => ({
  subject,
  number: '1',
  title: `${subject} 1`,
  units: '4',
  grade,
});

const submitted: CourseworkAnswer = {
  system: 'semester',
  terms: [
    { season: 'spring', year: 2025, status: 'completed', courses: [course('HIST', 'A')] },
    { season: 'fall', year: 2025, status: 'in_progress', courses: [course('PHYS')] },
  ],
};

const overview: CourseworkOverview = {
  submitted: true,
  grids: [
    {
      key: 'college_coursework',
      college: 'Broward College',
      current: JSON.stringify(submitted),
      submitted: JSON.stringify(submitted),
    },
  ],
  totals: null,
  updates: [],
};

function markup(): string {
  const client = new QueryClient();
  client.setQueryData(queryKeys.tenant, { coursework: DEFAULT_COURSEWORK_RULES });
  const [grid] = overview.grids;
  if (!grid) throw new Error('no grid');
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <CourseworkUpdateEditor
        grid={grid}
        overview={overview}
        onSent={() => {}}
        onCancel={() => {}}
      />
    </QueryClientProvider>,
  );
}

/** The `<input>` of a cell, by the id the grid gives it. */
function cell(html: string, term: number, courseIndex: number, name: string): string {
  const id = `update-college_coursework-t${term}-c${courseIndex}-${name}`;
  return html.match(new RegExp(`<input id="${id}"[^>]*>`))?.[0] ?? '';
}

describe('the coursework update editor', () => {
  const html = markup();

  it('shows what was submitted read-only and leaves the new grades open', () => {
    for (const name of ['subject', 'number', 'title', 'units', 'grade'])
      expect(cell(html, 0, 0, name), `completed ${name}`).toContain('readOnly');
    for (const name of ['subject', 'number', 'title', 'units'])
      expect(cell(html, 1, 0, name), `in progress ${name}`).toContain('readOnly');
    expect(cell(html, 1, 0, 'grade')).toContain('<input');
    expect(cell(html, 1, 0, 'grade')).not.toContain('readOnly');
  });

  it('keeps submitted terms and courses and the term system', () => {
    expect(html).not.toContain('Remove term');
    expect(html).not.toMatch(/>Remove<span/);
    expect(html).not.toContain('type="radio"');
    expect(html).toContain('Submitted as completed: its courses stay as they are.');
    // Courses may be added to the term in progress only; terms may be added.
    expect(html.match(/Add course<span/g)).toHaveLength(1);
    expect(html).toContain('Add term');
  });

  it('offers a term in progress only its own status and later ones', () => {
    const status = html.match(
      /<select[^>]*>(?:(?!<\/select>).)*In progress(?:(?!<\/select>).)*<\/select>/,
    )?.[0];
    expect(status).toContain('Completed');
    expect(status).not.toContain('Planned');
  });
});

describe('answerOf', () => {
  it('reads a grid, and nothing as an empty one', () => {
    expect(answerOf(JSON.stringify(submitted))).toEqual(submitted);
    expect(answerOf('')).toEqual({ system: 'semester', terms: [] });
    expect(answerOf('not json')).toEqual({ system: 'semester', terms: [] });
  });
});

describe('refusalOf', () => {
  it('gives the server message, then its named lines once each', () => {
    const error = new ServerError('Check the coursework.', 400, {
      college_coursework: ['Fall 2025, course 1 (PHYS 1): Enter a grade from the scale.'],
    });
    expect(refusalOf(error)).toEqual([
      'Check the coursework.',
      'Fall 2025, course 1 (PHYS 1): Enter a grade from the scale.',
    ]);
    const nothing = new ServerError('Nothing has changed.', 400, {
      value: ['Nothing has changed.'],
    });
    expect(refusalOf(nothing)).toEqual(['Nothing has changed.']);
  });

  it('says a failure without a server message generically', () => {
    expect(refusalOf(new TypeError('offline'))).toEqual([GENERIC_SERVER_ERROR_MESSAGE]);
  });
});
