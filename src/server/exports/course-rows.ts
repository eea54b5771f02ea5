import { termName } from '../../shared/coursework/coursework';
import { isBlankCourse } from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import { courseworkTotalsOf, enteredCoursework } from '../../shared/form/coursework-grids';
import type { FormModel, FormState } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import type { CourseworkSource } from './exports-store';

/*
 * The per-course export: one CSV record per course an application's coursework holds, college
 * by college and term by term as entered, for the same selection as the list's other exports.
 * The repeat flag is the totals' own: an attempt the tenant's repeat rule leaves out of the GPA.
 */

export const COURSE_EXPORT_HEADER = [
  'application_id',
  'college_ceeb',
  'college_name',
  'term',
  'subject',
  'number',
  'title',
  'units',
  'grade',
  'repeat',
] as const;

/** What the repeat column says of an attempt the repeat rule leaves out, and of any other. */
export const REPEAT_EXCLUDED = 'yes';
export const REPEAT_COUNTED = 'no';

const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Each shown grid's college by its answer key: the grid's college keys are its CEEB code, then
 * its name (model.ts `collegeKeys`); a grid naming its college one way only has no CEEB code.
 */
function collegesOf(
  model: FormModel,
  state: FormState,
): Map<string, { ceeb: string; name: string }> {
  const colleges = new Map<string, { ceeb: string; name: string }>();
  for (const place of resolveModel(model, state)) {
    const grid = place.field.coursework;
    if (!grid || !place.visible || colleges.has(place.key)) continue;
    const keys = grid.collegeKeys;
    const answer = (key: string | undefined) =>
      key === undefined ? '' : textOf(state.answers[place.resolveKey(key)]);
    colleges.set(place.key, {
      ceeb: keys.length > 1 ? answer(keys[0]) : '',
      name: answer(keys[keys.length - 1]),
    });
  }
  return colleges;
}

/**
 * The records of one application: every course that is not a blank row, in the entry's order.
 * Values are as the applicant typed them; the CSV writer neutralises formulas.
 */
export function courseRecords(
  model: FormModel,
  rules: CourseworkRules,
  source: CourseworkSource,
): string[][] {
  const state: FormState = {
    answers: source.answers,
    addAnother: source.addAnother,
    tabs: source.tabs,
    // A stored application belongs to an account: its chosen tabs count.
    isLoggedIn: true,
  };
  const entered = enteredCoursework(model, state);
  if (entered.length === 0) return [];
  const totals = courseworkTotalsOf(entered, rules);
  const excluded = new Set(
    totals.excludedRepeats.map((repeat) => `${repeat.college}/${repeat.term}/${repeat.course}`),
  );
  const colleges = collegesOf(model, state);
  const records: string[][] = [];
  for (const [collegeIndex, grid] of entered.entries()) {
    const college = colleges.get(grid.key) ?? { ceeb: '', name: grid.college };
    for (const [termIndex, term] of grid.answer.terms.entries()) {
      for (const [courseIndex, course] of term.courses.entries()) {
        if (isBlankCourse(course)) continue;
        const repeat = excluded.has(`${collegeIndex}/${termIndex}/${courseIndex}`);
        records.push([
          source.id,
          college.ceeb,
          college.name,
          termName(term),
          course.subject.trim(),
          course.number.trim(),
          course.title.trim(),
          course.units.trim(),
          course.grade.trim(),
          repeat ? REPEAT_EXCLUDED : REPEAT_COUNTED,
        ]);
      }
    }
  }
  return records;
}
