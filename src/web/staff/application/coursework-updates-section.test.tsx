import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CourseworkUpdatesSection } from './coursework-updates-section';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the coursework updated after submit', () => {
  it('shows each update as new, with its college, what changed and when', () => {
    const html = renderToStaticMarkup(
      <CourseworkUpdatesSection
        updates={[
          {
            answer_key: 'college_coursework',
            college: 'Broward College',
            answer: '{}',
            created_at: '2027-01-10T15:00:00.000Z',
            lines: [
              'Fall 2026: grades added for MATH 1B (A), CHEM 2 (B+)',
              'Fall 2026 is now completed',
            ],
          },
        ]}
      />,
    );
    const text = textOf(html);
    expect(text).toContain('Coursework updated after submit');
    expect(text).toContain('New Broward College');
    expect(text).toContain('Fall 2026: grades added for MATH 1B (A), CHEM 2 (B+)');
    expect(text).toContain('Fall 2026 is now completed');
    expect(html).toContain('<time dateTime="2027-01-10T15:00:00.000Z">');
  });

  it('shows nothing when the applicant changed nothing after submit', () => {
    expect(renderToStaticMarkup(<CourseworkUpdatesSection updates={[]} />)).toBe('');
  });
});
