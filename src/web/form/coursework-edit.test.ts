import { describe, expect, it } from 'vitest';
import { EMPTY_COURSE } from '../../shared/coursework/coursework-answer';
import {
  addCourse,
  addTerm,
  courseRowLabel,
  EMPTY_COURSEWORK,
  likelyStatus,
  nextTerm,
  removeCourse,
  roomLeft,
  setCourses,
  suggestedTerm,
  termYears,
} from './coursework-edit';

const TODAY = '2026-11-28';
const math = { ...EMPTY_COURSE, subject: 'MATH', number: '1A', units: '4', grade: 'A' };

describe('the next term offered', () => {
  it('follows the college calendar', () => {
    expect(nextTerm({ season: 'fall', year: 2024 }, 'semester')).toEqual({
      season: 'spring',
      year: 2025,
    });
    expect(nextTerm({ season: 'fall', year: 2024 }, 'quarter')).toEqual({
      season: 'winter',
      year: 2025,
    });
    expect(nextTerm({ season: 'winter', year: 2025 }, 'quarter')).toEqual({
      season: 'spring',
      year: 2025,
    });
  });

  it('is last fall for an empty grid, then the term after the last one, with its likely status', () => {
    expect(suggestedTerm(EMPTY_COURSEWORK, TODAY)).toEqual({
      season: 'fall',
      year: 2025,
      status: 'completed',
    });
    const withFall = addTerm(EMPTY_COURSEWORK, {
      season: 'fall',
      year: 2026,
      status: 'in_progress',
    });
    expect(suggestedTerm(withFall, TODAY)).toEqual({
      season: 'spring',
      year: 2027,
      status: 'planned',
    });
    expect(likelyStatus({ season: 'fall', year: 2026 }, TODAY)).toBe('in_progress');
  });

  it('offers years from five ahead back to 1950', () => {
    const years = termYears(TODAY);
    expect(years[0]).toBe(2031);
    expect(years.at(-1)).toBe(1950);
  });
});

describe('rows', () => {
  it('adds a term with one blank row, inserts and removes rows in place', () => {
    let answer = addTerm(EMPTY_COURSEWORK, { season: 'fall', year: 2024, status: 'completed' });
    expect(answer.terms[0]?.courses).toEqual([EMPTY_COURSE]);
    answer = setCourses(answer, 0, () => [math]);
    answer = addCourse(answer, 0, 0);
    expect(answer.terms[0]?.courses).toEqual([math, EMPTY_COURSE]);
    answer = removeCourse(answer, 0, 0);
    expect(answer.terms[0]?.courses).toEqual([EMPTY_COURSE]);
  });

  it('names a row by term, place, code and grade', () => {
    expect(courseRowLabel('Fall 2024', 1, math)).toBe('Fall 2024, course 2: MATH 1A, grade A');
    expect(courseRowLabel('Fall 2024', 0, EMPTY_COURSE)).toBe('Fall 2024, course 1');
  });

  it('counts the room left among all colleges, a blank row taking a place', () => {
    const answer = addTerm(EMPTY_COURSEWORK, { season: 'fall', year: 2024, status: 'completed' });
    expect(roomLeft(answer, { courses: 190, terms: 29 })).toEqual({ courses: 9, terms: 0 });
  });
});
