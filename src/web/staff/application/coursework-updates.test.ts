import { describe, expect, it } from 'vitest';
import { answersWithCurrentCoursework, courseworkUpdateHeading } from './coursework-updates';

const update = (answer_key: string, answer: string) => ({
  answer_key,
  college: 'Broward College',
  answer,
  created_at: '2027-01-10T15:00:00.000Z',
  lines: [],
});

describe('coursework updated after submit', () => {
  it('shows each grid as its latest update left it, other answers as submitted', () => {
    expect(
      answersWithCurrentCoursework({ first_name: 'Ana', college_coursework: 'submitted' }, [
        update('college_coursework', 'first'),
        update('college_coursework', 'latest'),
      ]),
    ).toEqual({ first_name: 'Ana', college_coursework: 'latest' });
  });

  it('names the college, or says a college when it has no name', () => {
    expect(courseworkUpdateHeading({ college: 'Broward College', answer_key: 'k' })).toBe(
      'Broward College',
    );
    expect(courseworkUpdateHeading({ college: '', answer_key: 'k' })).toBe('A college');
  });
});
