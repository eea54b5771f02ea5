import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Modal } from '../modal/modal';
import modalStyles from '../modal/modal.module.css';
import { Button } from '../ui/button';
import {
  type ActivityMarks,
  activityDecision,
  createKeepAlive,
  formatCountdown,
  type InactivityTimings,
  inactivityState,
} from './inactivity';
import styles from './inactivity-prompt.module.css';

/** Events that count as the person being there. Typing counts (docs/design.md). */
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

export type SessionEndReason = 'user' | 'inactivity';

/** What the prompt says; each app words its session's end its own way. */
export interface InactivityPromptText {
  /** The dialog's sentence around the countdown. */
  description: (countdown: ReactNode) => ReactNode;
  leave: string;
  stay: string;
}

export interface InactivityPromptProps {
  timings: InactivityTimings;
  marks: ActivityMarks;
  /** A signed-in call that keeps the server's session. */
  keepAlive: () => Promise<unknown>;
  /** The last time any signed-in call reached the server (it touched the session too). */
  lastServerTouch: () => number;
  /**
   * Ends the session; one the person chose rejects when it could not, so the prompt can say the
   * session may still be open. Like `timings` and `marks`, it keeps its identity between renders:
   * a new one restarts the timers.
   */
  endSession: (reason: SessionEndReason, idleMs: number) => Promise<void>;
  /** Ending the session on request failed: the app says so in its own words. */
  onLeaveFailed: () => void;
  text: InactivityPromptText;
}

type PromptState = { open: false } | { open: true; msUntilLogout: number };

/**
 * The idle time-out of a signed-in session: a minute (or the timings' warning) before it ends, a
 * dialog counts down and offers to stay; every tab follows the shared activity mark.
 */
export function InactivityPrompt({
  timings,
  marks,
  keepAlive: keepAliveCall,
  lastServerTouch,
  endSession,
  onLeaveFailed,
  text,
}: InactivityPromptProps) {
  const [prompt, setPrompt] = useState<PromptState>({ open: false });
  const promptOpen = useRef(false);
  const ending = useRef(false);
  const reschedule = useRef<() => void>(() => {});
  const stayButton = useRef<HTMLButtonElement>(null);

  // A mutation, so a 401 reaches the query client's handler like every other call.
  const { mutate: sendKeepAlive } = useMutation({ mutationFn: keepAliveCall });
  const keepAlive = useRef<ReturnType<typeof createKeepAlive> | null>(null);
  if (keepAlive.current === null) {
    keepAlive.current = createKeepAlive({ send: () => sendKeepAlive(), lastServerTouch });
  }

  const expire = useCallback(
    (idleMs: number) => {
      if (ending.current) {
        return;
      }
      ending.current = true;
      promptOpen.current = false;
      setPrompt({ open: false });
      void endSession('inactivity', idleMs).finally(() => {
        ending.current = false;
      });
    },
    [endSession],
  );

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastWrite = Number.NEGATIVE_INFINITY;

    if (marks.read() === null) {
      marks.write(Date.now());
    }

    // One timer, always aimed at the next change of phase, recomputed from the shared mark so
    // every tab agrees and a late timer (a sleeping laptop) lands in the right phase.
    function schedule() {
      clearTimeout(timer);
      if (ending.current) {
        return;
      }
      const now = Date.now();
      const mark = marks.read() ?? now;
      const state = inactivityState(now, mark, timings);
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
      const mark = marks.read() ?? now;
      const decision = activityDecision(now, mark, promptOpen.current, timings);
      if (decision === 'expire') {
        expire(now - mark);
      } else if (decision === 'mark') {
        lastWrite = now;
        marks.write(now);
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
      if (event.key === marks.key) {
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
  }, [expire, marks, timings]);

  function stay() {
    const now = Date.now();
    const mark = marks.read() ?? now;
    // The answer came too late (the tab slept with the prompt open): the session is over.
    if (activityDecision(now, mark, false, timings) === 'expire') {
      expire(now - mark);
      return;
    }
    marks.write(now);
    keepAlive.current?.now();
    reschedule.current();
  }

  async function leaveNow() {
    if (ending.current) {
      return;
    }
    ending.current = true;
    promptOpen.current = false;
    setPrompt({ open: false });
    try {
      await endSession('user', 0);
    } catch {
      onLeaveFailed();
      reschedule.current();
    } finally {
      ending.current = false;
    }
  }

  return (
    <Modal
      title="Are you still there?"
      size="xs"
      open={prompt.open}
      // The safe answer takes focus, so Enter or Space keeps the session.
      initialFocusRef={stayButton}
      // Closing the dialog (Escape, the close button) is an answer too: the person is here.
      onOpenChange={(open) => {
        if (!open) {
          stay();
        }
      }}
      description={text.description(
        <strong className={styles.countdown}>
          {prompt.open ? formatCountdown(prompt.msUntilLogout) : ''}
        </strong>,
      )}
    >
      <div className={modalStyles.actions}>
        <Button type="button" variant="secondary" onClick={leaveNow}>
          {text.leave}
        </Button>
        <Button type="button" variant="primary" onClick={stay} ref={stayButton}>
          {text.stay}
        </Button>
      </div>
    </Modal>
  );
}
