import {
  courseworkCounts,
  courseworkEntryProblems,
  parseCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-grading';
import type { Answers } from '../../shared/form/model';
import { todayIso } from '../../shared/form/validate';
import type { HoldBack } from '../app-state/answer-store';
import type { IndexedField } from '../app-state/model-index';

/** Courses and terms entered at every grid but `key`: what the limits on all together count. */
export function courseworkElsewhere(
  key: string,
  answers: Answers,
  fields: ReadonlyMap<string, IndexedField>,
): { courses: number; terms: number } {
  let courses = 0;
  let terms = 0;
  for (const [otherKey, value] of Object.entries(answers)) {
    if (otherKey === key || typeof value !== 'string' || value === '') continue;
    if (fields.get(otherKey)?.field.widget !== 'coursework') continue;
    const parsed = parseCourseworkAnswer(value);
    if (!parsed.ok) continue;
    const counts = courseworkCounts(parsed.answer);
    courses += counts.courses;
    terms += counts.terms;
  }
  return { courses, terms };
}

/**
 * Keeps a coursework grid off the server while the server would refuse it (a grade not on the
 * scale, units out of range, a grade for a term not begun, too many rows): the same save-stage
 * check the grid shows beside its cells. The grid stays in the local copy and goes once corrected.
 */
export function courseworkHoldBack(rules: () => CourseworkRules): HoldBack {
  return (place, value, answers, fields) => {
    if (place.field.widget !== 'coursework' || typeof value !== 'string' || value === '')
      return false;
    const parsed = parseCourseworkAnswer(value);
    if (!parsed.ok) return true;
    if (!parsed.answer) return false;
    const problems = courseworkEntryProblems(parsed.answer, {
      rules: rules(),
      today: todayIso(),
      stage: 'save',
      elsewhere: courseworkElsewhere(place.key, answers, fields),
    });
    return problems.length > 0;
  };
}
