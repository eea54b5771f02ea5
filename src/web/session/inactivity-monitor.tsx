import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { lastSessionCallTime, postJson } from '../data/http-client';
import { useProfile } from '../data/profile';
import { ErrorDialog } from '../modal/error-dialog';
import { Modal } from '../modal/modal';
import modalStyles from '../modal/modal.module.css';
import buttonStyles from '../ui/button.module.css';
import { cx } from '../ui/cx';
import {
  activityDecision,
  createKeepAlive,
  formatCountdown,
  INACTIVITY_TIMINGS,
  inactivityState,
  LAST_ACTIVITY_KEY,
  readActivityMark,
  writeActivityMark,
} from './inactivity';
import styles from './inactivity-monitor.module.css';
import { useLogOut } from './use-log-out';

/** Events that count as the applicant being there. Typing counts (docs/design.md). */
const ACTIVITY_EVENTS = [
  'keydown',
  'pointerdown',
  'pointermove',
  'wheel',
  'touchstart',
  'scroll',
] as const;

/** Writing the shared mark on every mouse move is wasteful; once a second is precise enough. */
const MARK_WRITE_INTERVAL_MS = 1000;

/** Spec 000 section 4: the inactivity time-out runs only while someone is logged in. */
export function InactivityMonitor() {
  const profile = useProfile();
  return profile ? <SignedInInactivityMonitor key={profile.username} /> : null;
}

type PromptState = { open: false } | { open: true; msUntilLogout: number };

function SignedInInactivityMonitor() {
  const logOut = useLogOut();
  const [prompt, setPrompt] = useState<PromptState>({ open: false });
  const [logoutFailed, setLogoutFailed] = useState(false);
  const promptOpen = useRef(false);
  const ending = useRef(false);
  const reschedule = useRef<() => void>(() => {});
  const stayButton = useRef<HTMLButtonElement>(null);

  // A mutation, so a 401 reaches the query client's handler like every other call.
  const { mutate: sendKeepAlive } = useMutation({
    mutationFn: () => postJson<void>('/api/keep-alive'),
  });
  const keepAlive = useRef<ReturnType<typeof createKeepAlive> | null>(null);
  if (keepAlive.current === null) {
    keepAlive.current = createKeepAlive({
      send: () => sendKeepAlive(),
      lastServerTouch: lastSessionCallTime,
    });
  }

  const expire = useCallback(
    (idleMs: number) => {
      if (ending.current) {
        return;
      }
      ending.current = true;
      promptOpen.current = false;
      setPrompt({ open: false });
      void logOut({ reason: 'inactivity', idleMs }).finally(() => {
        ending.current = false;
      });
    },
    [logOut],
  );

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastWrite = Number.NEGATIVE_INFINITY;

    if (readActivityMark() === null) {
      writeActivityMark(Date.now());
    }

    // One timer, always aimed at the next change of phase, recomputed from the shared mark so
    // every tab agrees and a late timer (a sleeping laptop) lands in the right phase.
    function schedule() {
      clearTimeout(timer);
      if (ending.current) {
        return;
      }
      const now = Date.now();
      const mark = readActivityMark() ?? now;
      const state = inactivityState(now, mark, INACTIVITY_TIMINGS);
      if (state.phase === 'expired') {
        expire(now - mark);
        return;
      }
      if (state.phase === 'prompt') {
        promptOpen.current = true;
        setPrompt({ open: true, msUntilLogout: state.msUntilLogout });
        // Tick each second for the countdown, landing exactly on the logout time.
        const untilNextSecond = state.msUntilLogout % 1000 || 1000;
        timer = setTimeout(schedule, Math.min(untilNextSecond, state.msUntilLogout));
        return;
      }
      promptOpen.current = false;
      // Other tabs' activity lands here every second; an unchanged state must not re-render.
      setPrompt((current) => (current.open ? { open: false } : current));
      timer = setTimeout(schedule, state.msUntilPrompt);
    }
    reschedule.current = schedule;

    function onActivity() {
      const now = Date.now();
      if (now - lastWrite < MARK_WRITE_INTERVAL_MS || ending.current) {
        return;
      }
      const mark = readActivityMark() ?? now;
      const decision = activityDecision(now, mark, promptOpen.current, INACTIVITY_TIMINGS);
      if (decision === 'expire') {
        expire(now - mark);
      } else if (decision === 'mark') {
        lastWrite = now;
        writeActivityMark(now);
        keepAlive.current?.activity();
      }
    }

    // Coming back to the tab or the window is when a closed lid is noticed first.
    function onReturn() {
      if (document.visibilityState === 'visible') {
        schedule();
      }
    }

    // Another tab marked activity (or the prompt was answered there): follow it.
    function onStorage(event: StorageEvent) {
      if (event.key === LAST_ACTIVITY_KEY) {
        schedule();
      }
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
  }, [expire]);

  function stayLoggedIn() {
    const now = Date.now();
    const mark = readActivityMark() ?? now;
    // The answer came too late (the tab slept with the prompt open): the session is over.
    if (activityDecision(now, mark, false, INACTIVITY_TIMINGS) === 'expire') {
      expire(now - mark);
      return;
    }
    writeActivityMark(now);
    keepAlive.current?.now();
    reschedule.current();
  }

  async function logOutNow() {
    if (ending.current) {
      return;
    }
    ending.current = true;
    promptOpen.current = false;
    setPrompt({ open: false });
    try {
      await logOut({ reason: 'user', idleMs: 0 });
    } catch {
      setLogoutFailed(true);
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
        // The safe answer takes focus, so Enter or Space keeps the session.
        initialFocusRef={stayButton}
        // Closing the dialog (Escape, the close button) is an answer too: the applicant is here.
        onOpenChange={(open) => {
          if (!open) {
            stayLoggedIn();
          }
        }}
        description={
          <>
            For your security, you will be logged out in{' '}
            <strong className={styles.countdown}>
              {prompt.open ? formatCountdown(prompt.msUntilLogout) : ''}
            </strong>{' '}
            because you have not been active for a while. Anything you have saved stays saved.
          </>
        }
      >
        <div className={modalStyles.actions}>
          <button
            type="button"
            className={cx(buttonStyles.button, buttonStyles.secondary)}
            onClick={logOutNow}
          >
            Log out
          </button>
          <button
            type="button"
            className={cx(buttonStyles.button, buttonStyles.primary)}
            onClick={stayLoggedIn}
            ref={stayButton}
          >
            Stay logged in
          </button>
        </div>
      </Modal>
      <ErrorDialog
        open={logoutFailed}
        onOpenChange={setLogoutFailed}
        message="We could not log you out just now. Please check your connection and try again from the Account menu. If this keeps happening, close every browser window to end your session."
      />
    </>
  );
}
