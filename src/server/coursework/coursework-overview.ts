import {
  type CourseworkAnswer,
  courseworkCounts,
  parseCourseworkAnswer,
} from '../../shared/coursework/coursework-answer';
import type { CourseworkRules } from '../../shared/coursework/coursework-rules';
import {
  currentCourseworkAnswers,
  describedCourseworkUpdates,
} from '../../shared/coursework/coursework-update';
import type {
  CourseworkOverview,
  CourseworkTotalsView,
} from '../../shared/coursework/coursework-update-api';
import { courseworkTotalsOf, enteredCoursework } from '../../shared/form/coursework-grids';
import type { Answers, FormModel, FormState } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import type { CourseworkUpdateRow, SubmittedApplication } from './coursework-updates-store';

/** A grid of the submitted application that is shown, and so may be updated. */
export interface ShownGrid {
  key: string;
  /** The college's name, else its code (the grid's college keys read from the last). */
  college: string;
}

/** What decides which grids are shown. */
type ShownState = Pick<SubmittedApplication, 'answers' | 'tabs' | 'addAnother'>;

function stateOf(application: ShownState, answers: Answers): FormState {
  return {
    answers,
    tabs: application.tabs,
    addAnother: application.addAnother,
    isLoggedIn: true,
  };
}

/**
 * The shown grids of the submitted application, in the form's order. Decided by the submitted
 * answers, which never change: an update cannot show or hide a college.
 */
export function shownCourseworkGrids(model: FormModel, application: ShownState): ShownGrid[] {
  const grids: ShownGrid[] = [];
  for (const place of resolveModel(model, stateOf(application, application.answers))) {
    const grid = place.field.coursework;
    if (!grid || !place.visible) continue;
    // The grid names its college keys code first, name last: a reader wants the name.
    const named = [...grid.collegeKeys]
      .reverse()
      .map((key) => application.answers[place.resolveKey(key)])
      .find((value): value is string => typeof value === 'string' && value.trim() !== '');
    grids.push({ key: place.key, college: named?.trim() ?? '' });
  }
  return grids;
}

/** The grid a stored answer holds; null for none (or, never expected, one not in its shape). */
export function storedGrid(value: unknown): CourseworkAnswer | null {
  if (typeof value !== 'string') return null;
  const parsed = parseCourseworkAnswer(value);
  return parsed.ok ? parsed.answer : null;
}

/** Courses and terms of every shown grid but `key`, as they stand now. */
export function courseworkElsewhere(
  grids: readonly ShownGrid[],
  current: Answers,
  key: string,
): { courses: number; terms: number } {
  const counts = { courses: 0, terms: 0 };
  for (const grid of grids) {
    if (grid.key === key) continue;
    const found = courseworkCounts(storedGrid(current[grid.key]));
    counts.courses += found.courses;
    counts.terms += found.terms;
  }
  return counts;
}

/** The totals of the application's coursework as it stands now (every update applied). */
export function currentTotals(
  model: FormModel,
  rules: CourseworkRules,
  application: SubmittedApplication,
  updates: readonly Pick<CourseworkUpdateRow, 'key' | 'answer'>[],
): CourseworkTotalsView {
  const current = currentCourseworkAnswers(application.answers, updates);
  const totals = courseworkTotalsOf(enteredCoursework(model, stateOf(application, current)), rules);
  return {
    gpa: totals.gpa,
    gradePoints: totals.gradePoints,
    gradedUnits: totals.gradedUnits,
    transferableUnits: totals.transferableUnits,
    inProgressUnits: totals.inProgressUnits,
    unitsAttempted: totals.unitsAttempted,
  };
}

const NOT_SUBMITTED: CourseworkOverview = {
  submitted: false,
  grids: [],
  totals: null,
  updates: [],
};

/** What the applicant's coursework calls answer: see CourseworkOverview. */
export function courseworkOverview(
  model: FormModel,
  rules: CourseworkRules,
  application: SubmittedApplication | null,
  updates: readonly CourseworkUpdateRow[],
): CourseworkOverview {
  if (!application?.submittedAt) return NOT_SUBMITTED;
  const current = currentCourseworkAnswers(application.answers, updates);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    submitted: true,
    grids: shownCourseworkGrids(model, application).map((grid) => ({
      key: grid.key,
      college: grid.college,
      current: text(current[grid.key]),
      submitted: text(application.answers[grid.key]),
    })),
    totals: currentTotals(model, rules, application, updates),
    updates: describedCourseworkUpdates(application.answers, updates).map((update) => ({
      key: update.key,
      created_at: update.createdAt.toISOString(),
      lines: update.lines,
    })),
  };
}
