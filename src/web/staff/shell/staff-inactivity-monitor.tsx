import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ErrorDialog } from '../../modal/error-dialog';
import { InactivityPrompt, type InactivityPromptText } from '../../session/inactivity-prompt';
import { meQueryOptions, staffCalls } from './staff-calls';
import { staffInactivityTimings, useStaffSession } from './staff-session';
import { useSignOut } from './use-sign-out';

const PROMPT_TEXT: InactivityPromptText = {
  description: (countdown) => (
    <>
      For your security, you will be signed out in {countdown} because you have not been active for
      a while.
    </>
  ),
  leave: 'Sign out',
  stay: 'Stay signed in',
};

/** The console's calls (under /staff/api) are not timed by the HTTP client: the keep-alive counts its own only. */
const noServerTouch = () => Number.NEGATIVE_INFINITY;

/**
 * The staff session's idle time-out (STAFF_SESSION_IDLE_MINUTES, from /me), with the same
 * warning as the applicant's: a minute before, a dialog counts down and offers to stay.
 */
export function StaffInactivityMonitor() {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  if (!me) return null;
  return <SignedInMonitor key={me.id} idleMinutes={me.idle_minutes} />;
}

function SignedInMonitor({ idleMinutes }: { idleMinutes: number }) {
  const timings = useMemo(() => staffInactivityTimings(idleMinutes), [idleMinutes]);
  const { marks } = useStaffSession();
  const signOut = useSignOut();
  const [signOutFailed, setSignOutFailed] = useState(false);
  return (
    <>
      <InactivityPrompt
        timings={timings}
        marks={marks}
        // Any signed-in call keeps the server's session; /me is the cheapest one.
        keepAlive={staffCalls.me}
        lastServerTouch={noServerTouch}
        endSession={signOut}
        onLeaveFailed={() => setSignOutFailed(true)}
        text={PROMPT_TEXT}
      />
      <ErrorDialog
        open={signOutFailed}
        onOpenChange={setSignOutFailed}
        message="We could not sign you out just now. Please check your connection and try again. If this keeps happening, close every browser window to end your session."
      />
    </>
  );
}
