import type { FormModel } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';

/** Every answer key whose widget is a file upload, in every instance and tab of the model. */
export function fileQuestionKeys(model: FormModel): Set<string> {
  const everything = { addAnother: {}, tabs: {}, isLoggedIn: true, answers: {} };
  return new Set(
    resolveModel(model, everything)
      .filter((place) => place.field.widget === 'file')
      .map((place) => place.key),
  );
}
