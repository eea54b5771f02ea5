import { SSO_START_PATH } from '../../../shared/staff/staff-api';
import { ServerError } from '../../data/http-client';

/** The error code of a 403 that asks for a fresh second factor before the action. */
export const STEP_UP_REQUIRED_CODE = 'step_up_required';
/** The error code of a step-up code sent by a member who confirms through the provider instead. */
export const STEP_UP_SSO_CODE = 'step_up_sso';

export function isStepUpRequired(error: unknown): boolean {
  return (
    error instanceof ServerError && error.status === 403 && error.code === STEP_UP_REQUIRED_CODE
  );
}

/** The member closed the step-up dialog: the action did not run, and nothing needs saying. */
export class StepUpCancelled extends Error {
  override readonly name: string = 'StepUpCancelled';
  constructor() {
    super('The action was cancelled.');
  }
}

/** Where the provider's sign-in confirms the member, then brings them back to this page. */
export function ssoStepUpHref(): string {
  return `${SSO_START_PATH}?step_up=1`;
}

/**
 * Runs the action; when the server asks for a fresh second factor, waits for `confirm` (the
 * dialog) and runs it once more. Any other failure, or the member cancelling, rejects.
 */
export async function runWithStepUp<T>(
  action: () => Promise<T>,
  confirm: () => Promise<void>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isStepUpRequired(error)) throw error;
  }
  await confirm();
  return action();
}
