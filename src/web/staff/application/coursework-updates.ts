import { currentCourseworkAnswers } from '../../../shared/coursework/coursework-update';
import type { StaffCoursework } from '../../../shared/coursework/coursework-update-api';
import type { Answers } from '../../../shared/form/model';

/**
 * The answers with the coursework as it stands now: each grid's latest update after submit laid
 * over the submitted answer, which itself never changes (the receipt's fingerprint covers it).
 */
export function answersWithCurrentCoursework(
  answers: Answers,
  updates: StaffCoursework['coursework_updates'],
): Answers {
  return currentCourseworkAnswers(
    answers,
    updates.map((update) => ({ key: update.answer_key, answer: update.answer })),
  );
}

/** "Coursework updated after submit": one update as the page names it. */
export function courseworkUpdateHeading(update: { college: string; answer_key: string }): string {
  return update.college === '' ? 'A college' : update.college;
}
