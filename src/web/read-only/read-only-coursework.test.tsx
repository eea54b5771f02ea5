import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { applicationModel } from '../../shared/application/application-model';
import {
  type CourseworkAnswer,
  serializeCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import { type PrintableState, printableApplication } from '../../shared/form/printable';
import { ApplicationDocument, serviceLinks } from './read-only-view';

const course = (subject: string, number: string, units: string, grade: string) => ({
  subject,
  number,
  title: subject ? `${subject} ${number} title` : '',
  units,
  grade,
});

const coursework = (answer: CourseworkAnswer) => serializeCourseworkAnswer(answer);

const state: PrintableState = {
  answers: {
    college_name: 'Broward College',
    college_coursework: coursework({
      system: 'semester',
      terms: [
        {
          season: 'fall',
          year: 2024,
          status: 'completed',
          courses: [course('MATH', '1A', '4', 'C'), course('', '', '', '')],
        },
        {
          season: 'spring',
          year: 2025,
          status: 'completed',
          courses: [course('MATH', '1A', '4', 'A')],
        },
        {
          season: 'fall',
          year: 2025,
          status: 'in_progress',
          courses: [course('ENGL', '1', '3', '')],
        },
      ],
    }),
  },
};

function render(): string {
  return renderToStaticMarkup(
    <ApplicationDocument
      application={printableApplication(applicationModel, state)}
      title="Application"
      partnerName="Northfield State University"
      links={serviceLinks('token')}
    />,
  );
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('coursework in the read-only view', () => {
  it('draws a table per term, its caption naming the term and its status', () => {
    const html = render();
    const captions = [...html.matchAll(/<caption[^>]*>([\s\S]*?)<\/caption>/g)].map((match) =>
      textOf(match[1] ?? ''),
    );
    expect(captions).toEqual([
      'Fall 2024 · Completed',
      'Spring 2025 · Completed',
      'Fall 2025 · In progress',
    ]);
    // Blank rows are left out: a header row and one course in each table.
    expect(html.match(/<tr/g)?.length).toBe(3 * 2);
    expect(textOf(html)).toContain('Subject Number Course title Units Grade');
  });

  it('marks the attempt the repeat rule does not count', () => {
    const text = textOf(render());
    expect(text).toContain('MATH 1A MATH 1A title Repeat — not counted 4 C');
    expect(text).not.toContain('4 A Repeat');
  });

  it("shows the college's subtotals and the application's totals once", () => {
    const html = render();
    const text = textOf(html);
    expect(text).toContain('This college (semester units)');
    expect(html.match(/Transfer GPA and units, all colleges/g)?.length).toBe(1);
    // The later attempt's A counts; Fall 2025's units are in progress.
    expect(text).toContain('Transfer GPA 4.00 Transferable units 4 In-progress units 3');
  });
});
