/** Why the browser is ending the session. */
export type LogoutReason = 'user' | 'inactivity';

export interface BeforeLogoutContext {
  reason: LogoutReason;
  /**
   * How long the applicant had been inactive, in ms (0 for a logout the user chose). At or past
   * the time-out the server may already have ended the session, so a save can fail with 401;
   * keep the answers in browser storage then.
   */
  idleMs: number;
}

export type BeforeLogoutHook = (context: BeforeLogoutContext) => void | Promise<void>;

/** The longest a logout waits for the hooks, so a hung save never keeps an idle session open. */
export const BEFORE_LOGOUT_TIMEOUT_MS = 5000;

export interface BeforeLogoutHooks {
  /**
   * Registers work to finish before the browser logs out, e.g. the form's autosave flushing typed
   * answers (design.md: "the draft is flushed before log-out"). Hooks run before the inactivity
   * logout and, because losing typed answers is never wanted, before a logout the user chose too;
   * `context.reason` tells them apart. Returns the function that unregisters the hook.
   */
  add(hook: BeforeLogoutHook): () => void;
  /**
   * Runs every registered hook side by side and waits for all of them, at most `timeoutMs`.
   * A failing hook is logged and does not stop the logout.
   */
  run(context: BeforeLogoutContext, timeoutMs?: number): Promise<void>;
}

/** The hooks of one browser session; the app makes one at its root. */
export function createBeforeLogoutHooks(): BeforeLogoutHooks {
  const hooks = new Set<BeforeLogoutHook>();
  return {
    add(hook) {
      hooks.add(hook);
      return () => {
        hooks.delete(hook);
      };
    },
    async run(context, timeoutMs = BEFORE_LOGOUT_TIMEOUT_MS) {
      if (hooks.size === 0) {
        return;
      }
      const runs = [...hooks].map(async (hook) => {
        try {
          await hook(context);
        } catch (error) {
          console.error('A before-logout hook failed.', error);
        }
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      try {
        await Promise.race([Promise.all(runs), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
