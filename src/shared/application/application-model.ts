import type { FormModel } from '../form/model';
import { aboutPage } from './about-page';
import { educationPage } from './education-page';
import { finalStepsPage } from './final-steps-page';

/** The transfer application of spec 001: every view reads this one model (docs/design.md). */
export const applicationModel: FormModel = {
  pages: [aboutPage, educationPage, finalStepsPage],
};
