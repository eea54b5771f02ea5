import { useCallback, useState } from 'react';
import { lastSessionCallTime, postJson } from '../data/http-client';
import { ErrorDialog } from '../modal/error-dialog';
import { applicantActivityMarks, INACTIVITY_TIMINGS } from './inactivity';
import {
  InactivityPrompt,
  type InactivityPromptText,
  type SessionEndReason,
} from './inactivity-prompt';
import { useLogOut } from './use-log-out';

const PROMPT_TEXT: InactivityPromptText = {
  description: (countdown) => (
    <>
      For your security, you will be logged out in {countdown} because you have not been active for
      a while. Anything you have saved stays saved.
    </>
  ),
  leave: 'Log out',
  stay: 'Stay logged in',
};

const keepAlive = () => postJson<void>('/api/keep-alive');

/** The time-out of a signed-in applicant: the prompt, the log-out, and its failure. */
export default function SignedInInactivityMonitor() {
  const logOut = useLogOut();
  const [logoutFailed, setLogoutFailed] = useState(false);
  const endSession = useCallback(
    (reason: SessionEndReason, idleMs: number) => logOut({ reason, idleMs }),
    [logOut],
  );
  return (
    <>
      <InactivityPrompt
        timings={INACTIVITY_TIMINGS}
        marks={applicantActivityMarks}
        keepAlive={keepAlive}
        lastServerTouch={lastSessionCallTime}
        endSession={endSession}
        onLeaveFailed={() => setLogoutFailed(true)}
        text={PROMPT_TEXT}
      />
      <ErrorDialog
        open={logoutFailed}
        onOpenChange={setLogoutFailed}
        message="We could not log you out just now. Please check your connection and try again from the Account menu. If this keeps happening, close every browser window to end your session."
      />
    </>
  );
}
