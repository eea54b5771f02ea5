import { createContext, useContext } from 'react';
import { INACTIVITY_PROMPT_BEFORE_MS } from '../../../shared/constants';
import {
  type ActivityMarks,
  type InactivityTimings,
  readStoredMark,
  storeMark,
} from '../../session/inactivity';

/** The route whose pages need a signed-in member (home, staff, audit log). */
export const SIGNED_IN_ROUTE_ID = 'signed-in';

/** Where every ended staff session lands. */
export const STAFF_SIGN_IN_ROUTE = '/staff/sign-in';
export const STAFF_CODE_ROUTE = '/staff/sign-in/code';
export const STAFF_ENROL_ROUTE = '/staff/enrol';
export const STAFF_HOME_ROUTE = '/staff';
export const STAFF_TEAM_ROUTE = '/staff/team';
export const STAFF_AUDIT_ROUTE = '/staff/audit';
export const STAFF_EQUIVALENCIES_ROUTE = '/staff/equivalencies';
export const STAFF_INTEGRATIONS_ROUTE = '/staff/integrations';
export const STAFF_WEBHOOKS_ROUTE = '/staff/webhooks';
export const STAFF_FEEDS_ROUTE = '/staff/feeds';
export const STAFF_READING_ROUTE = '/staff/reading';
export const STAFF_QUEUE_ROUTE = '/staff/queue';

export const STAFF_SESSION_ENDED_MESSAGE = 'Your staff session has ended. Please sign in again.';
export const STAFF_SIGNED_OUT_MESSAGE = 'You have signed out.';
export const STAFF_INACTIVITY_MESSAGE =
  'You have been signed out because you were not active for a while. Please sign in again.';

/** A sentence the sign-in page shows once, carried in `location.state.notice`. */
export interface StaffNotice {
  kind: 'success' | 'error';
  text: string;
}

export const STAFF_NOTICES = {
  ended: { kind: 'error', text: STAFF_SESSION_ENDED_MESSAGE },
  signedOut: { kind: 'success', text: STAFF_SIGNED_OUT_MESSAGE },
  inactivity: { kind: 'error', text: STAFF_INACTIVITY_MESSAGE },
} as const satisfies Record<string, StaffNotice>;

/** History state survives reloads and can hold anything, so it is checked before use. */
export function readStaffNotice(state: unknown): StaffNotice | null {
  if (typeof state !== 'object' || state === null) return null;
  const { notice } = state as { notice?: unknown };
  if (typeof notice !== 'object' || notice === null) return null;
  const { kind, text } = notice as Record<string, unknown>;
  if ((kind === 'success' || kind === 'error') && typeof text === 'string' && text !== '') {
    return { kind, text };
  }
  return null;
}

/** The staff idle time-out from /me, with the applicant's minute of warning before it. */
export function staffInactivityTimings(idleMinutes: number): InactivityTimings {
  const minutes = Number.isFinite(idleMinutes) && idleMinutes > 0 ? idleMinutes : 30;
  const timeoutMs = minutes * 60_000;
  return { timeoutMs, promptBeforeMs: Math.min(INACTIVITY_PROMPT_BEFORE_MS, timeoutMs / 2) };
}

/** The staff console's own activity mark, apart from an applicant's in the same browser. */
export const STAFF_LAST_ACTIVITY_KEY = 'tp_staff_last_activity';

/**
 * The last activity, shared by every console tab through localStorage; when storage is blocked
 * the tab keeps its own mark in this object, made once at the root.
 */
export function createActivityMarks(
  storage?: () => Pick<Storage, 'getItem' | 'setItem'> | undefined,
): ActivityMarks {
  const key = STAFF_LAST_ACTIVITY_KEY;
  let memory: number | null = null;
  return {
    key,
    read() {
      const stored = readStoredMark(key, storage);
      return stored === undefined ? memory : stored;
    },
    write(at) {
      memory = at;
      storeMark(key, at, storage);
    },
  };
}

/**
 * Marks a sign-out the console started, so a 401 racing it (a call the server refused because
 * the idle time-out ended the session first) does not replace its message.
 */
export interface StaffSession {
  marks: ActivityMarks;
  ending: { during<T>(work: () => Promise<T>): Promise<T>; isUnderWay(): boolean };
}

export function createStaffSession(marks: ActivityMarks = createActivityMarks()): StaffSession {
  let underWay = 0;
  return {
    marks,
    ending: {
      async during(work) {
        underWay += 1;
        try {
          return await work();
        } finally {
          underWay -= 1;
        }
      },
      isUnderWay: () => underWay > 0,
    },
  };
}

export const StaffSessionContext = createContext<StaffSession | null>(null);

export function useStaffSession(): StaffSession {
  const session = useContext(StaffSessionContext);
  if (!session) throw new Error('useStaffSession must be used inside <StaffSessionContext>.');
  return session;
}

/**
 * Whether a 401 means a session ended. On the sign-in page itself nobody is signed in yet: the
 * page shows the reply's own sentence instead of going round to itself.
 */
export function unauthorizedEndsSession(pathname: string): boolean {
  return pathname.replace(/\/+$/, '') !== STAFF_SIGN_IN_ROUTE;
}
