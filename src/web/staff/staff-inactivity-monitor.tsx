import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ErrorDialog } from '../modal/error-dialog';
import { Modal } from '../modal/modal';
import modalStyles from '../modal/modal.module.css';
import {
  activityDecision,
  createKeepAlive,
  formatCountdown,
  inactivityState,
} from '../session/inactivity';
import countdownStyles from '../session/inactivity-monitor.module.css';
import buttonStyles from '../ui/button.module.css';
import { cx } from '../ui/cx';
import { meQueryOptions, staffCalls } from './staff-calls';
import { STAFF_LAST_ACTIVITY_KEY, staffInactivityTimings, useStaffSession } from './staff-session';
import { useSignOut } from './use-sign-out';

/** Events that count as the member being there. */
const ACTIVITY_EVENTS = [
  'keydown',
  'pointerdown',
  'pointermove',
  'wheel',
  'touchstart',
  'scroll',
] as const;

const MARK_WRITE_INTERVAL_MS = 1000;

/**
 * The staff session's idle time-out (STAFF_SESSION_IDLE_MINUTES, from /me), with the same
 * warning as the applicant's: a minute before, a dialog counts down and offers to stay.
 */
export function StaffInactivityMonitor() {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  if (!me) return null;
  return <SignedInMonitor key={me.id} idleMinutes={me.idle_minutes} />;
}

type PromptState = { open: false } | { open: true; msUntilLogout: number };

function SignedInMonitor({ idleMinutes }: { idleMinutes: number }) {
  const timings = useMemo(() => staffInactivityTimings(idleMinutes), [idleMinutes]);
  const { marks } = useStaffSession();
  const signOut = useSignOut();
  const [prompt, setPrompt] = useState<PromptState>({ open: false });
  const [signOutFailed, setSignOutFailed] = useState(false);
  const promptOpen = useRef(false);
  const ending = useRef(false);
  const reschedule = useRef<() => void>(() => {});
  const stayButton = useRef<HTMLButtonElement>(null);

  // Any signed-in call keeps the server's session; /me is the cheapest one.
  const { mutate: sendKeepAlive } = useMutation({ mutationFn: staffCalls.me });
  const keepAlive = useRef<ReturnType<typeof createKeepAlive> | null>(null);
  if (keepAlive.current === null) {
    keepAlive.current = createKeepAlive({
      send: () => sendKeepAlive(),
      lastServerTouch: () => Number.NEGATIVE_INFINITY,
    });
  }

  const expire = useCallback(() => {
    if (ending.current) return;
    ending.current = true;
    promptOpen.current = false;
    setPrompt({ open: false });
    void signOut('inactivity').finally(() => {
      ending.current = false;
    });
  }, [signOut]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastWrite = Number.NEGATIVE_INFINITY;
    if (marks.read() === null) marks.write(Date.now());

    function schedule() {
      clearTimeout(timer);
      if (ending.current) return;
      const now = Date.now();
      const state = inactivityState(now, marks.read() ?? now, timings);
      if (state.phase === 'expired') {
        expire();
        return;
      }
      if (state.phase === 'prompt') {
        promptOpen.current = true;
        setPrompt({ open: true, msUntilLogout: state.msUntilLogout });
        const untilNextSecond = state.msUntilLogout % 1000 || 1000;
        timer = setTimeout(schedule, Math.min(untilNextSecond, state.msUntilLogout));
        return;
      }
      promptOpen.current = false;
      setPrompt((current) => (current.open ? { open: false } : current));
      timer = setTimeout(schedule, state.msUntilPrompt);
    }
    reschedule.current = schedule;

    function onActivity() {
      const now = Date.now();
      if (now - lastWrite < MARK_WRITE_INTERVAL_MS || ending.current) return;
      const decision = activityDecision(now, marks.read() ?? now, promptOpen.current, timings);
      if (decision === 'expire') {
        expire();
      } else if (decision === 'mark') {
        lastWrite = now;
        marks.write(now);
        keepAlive.current?.activity();
      }
    }

    function onReturn() {
      if (document.visibilityState === 'visible') schedule();
    }

    function onStorage(event: StorageEvent) {
      if (event.key === STAFF_LAST_ACTIVITY_KEY) schedule();
    }

    for (const type of ACTIVITY_EVENTS) {
      document.addEventListener(type, onActivity, { capture: true, passive: true });
    }
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('focus', onReturn);
    window.addEventListener('storage', onStorage);
    schedule();

    return () => {
      clearTimeout(timer);
      keepAlive.current?.stop();
      for (const type of ACTIVITY_EVENTS) {
        document.removeEventListener(type, onActivity, { capture: true });
      }
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('focus', onReturn);
      window.removeEventListener('storage', onStorage);
    };
  }, [expire, marks, timings]);

  function stay() {
    const now = Date.now();
    if (activityDecision(now, marks.read() ?? now, false, timings) === 'expire') {
      expire();
      return;
    }
    marks.write(now);
    keepAlive.current?.now();
    reschedule.current();
  }

  async function signOutNow() {
    if (ending.current) return;
    ending.current = true;
    promptOpen.current = false;
    setPrompt({ open: false });
    try {
      await signOut('user');
    } catch {
      setSignOutFailed(true);
      reschedule.current();
    } finally {
      ending.current = false;
    }
  }

  return (
    <>
      <Modal
        title="Are you still there?"
        size="xs"
        open={prompt.open}
        initialFocusRef={stayButton}
        onOpenChange={(open) => {
          if (!open) stay();
        }}
        description={
          <>
            For your security, you will be signed out in{' '}
            <strong className={countdownStyles.countdown}>
              {prompt.open ? formatCountdown(prompt.msUntilLogout) : ''}
            </strong>{' '}
            because you have not been active for a while.
          </>
        }
      >
        <div className={modalStyles.actions}>
          <button
            type="button"
            className={cx(buttonStyles.button, buttonStyles.secondary)}
            onClick={signOutNow}
          >
            Sign out
          </button>
          <button
            type="button"
            className={cx(buttonStyles.button, buttonStyles.primary)}
            onClick={stay}
            ref={stayButton}
          >
            Stay signed in
          </button>
        </div>
      </Modal>
      <ErrorDialog
        open={signOutFailed}
        onOpenChange={setSignOutFailed}
        message="We could not sign you out just now. Please check your connection and try again. If this keeps happening, close every browser window to end your session."
      />
    </>
  );
}
