import { currentCourseworkAnswers } from '../../shared/coursework/coursework-update';
import type { CreditGrid } from '../../shared/credit/credit-evaluation';
import type { Answers, FormModel, FormState } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import { storedGrid } from '../coursework/coursework-overview';
import type {
  CourseworkUpdateRow,
  SubmittedApplication,
} from '../coursework/coursework-updates-store';

const CODE = /^[A-Za-z0-9]{1,10}$/;

function answered(value: Answers[string] | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A grid with the place of its college in the colleges' repeat (1 for the first), if any. */
export interface PlacedCreditGrid extends CreditGrid {
  instance: number | null;
}

/**
 * The shown grids of a submitted application with their current coursework (every update laid
 * over the submitted answers) and their college: its code from the grid's first college key when
 * the grid names more than one (`$ceeb`, `$name`), its name from the last. A grid without
 * courses is left out.
 */
export function creditGridsOf(
  model: FormModel,
  application: Pick<SubmittedApplication, 'answers' | 'tabs' | 'addAnother'>,
  updates: readonly Pick<CourseworkUpdateRow, 'key' | 'answer'>[],
): PlacedCreditGrid[] {
  const current = currentCourseworkAnswers(application.answers, updates);
  // Which grids are shown is decided by the submitted answers: an update cannot show a college.
  const state: FormState = {
    answers: application.answers,
    tabs: application.tabs,
    addAnother: application.addAnother,
    isLoggedIn: true,
  };
  const grids: PlacedCreditGrid[] = [];
  for (const place of resolveModel(model, state)) {
    const grid = place.field.coursework;
    if (!grid || !place.visible) continue;
    const answer = storedGrid(current[place.key]);
    if (!answer) continue;
    const keys = grid.collegeKeys.map((key) =>
      answered(application.answers[place.resolveKey(key)]),
    );
    const code = keys.length > 1 ? (keys[0] ?? '') : '';
    const name = keys.at(-1) || code;
    grids.push({
      key: place.key,
      ceeb: CODE.test(code) ? code.toUpperCase() : null,
      name,
      answer,
      instance: place.instance ? place.instance.index + 1 : null,
    });
  }
  return grids;
}
