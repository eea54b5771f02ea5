import { Popover } from 'radix-ui';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useProfile } from '../data/profile';
import { anonymousAnswers } from '../form/form-session';
import { ErrorDialog } from '../modal/error-dialog';
import { nextNavigationState } from '../navigation-state';
import { useLogOut } from '../session/use-log-out';
import buttonStyles from '../ui/button.module.css';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './account-popover.module.css';

/** Spec 000 section 9: popover side offset 5. */
const POPOVER_SIDE_OFFSET = 5;

/** Spec 000 section 8 leaves the wording open: say what failed and how to be safe anyway. */
const LOGOUT_FAILED_MESSAGE =
  'We could not log you out just now. Please check your connection and try again. If this keeps happening, close every browser window to end your session.';

export function AccountPopover() {
  const profile = useProfile();
  const location = useLocation();
  const logOut = useLogOut();
  const [open, setOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [logoutFailed, setLogoutFailed] = useState(false);
  // Sign In and Create Account carry the answers typed so far (spec 000 section 2).
  const draft = anonymousAnswers();
  const linkState = draft
    ? { ...nextNavigationState(location.state), answers: draft }
    : nextNavigationState(location.state);

  async function handleLogOut() {
    // Closed first: once the cache is cleared the menu would briefly show Sign In.
    setOpen(false);
    setLoggingOut(true);
    try {
      await logOut({ reason: 'user', idleMs: 0 });
      setLogoutFailed(false);
    } catch {
      setLogoutFailed(true);
    } finally {
      setLoggingOut(false);
    }
  }

  return (
    <>
      <ErrorDialog
        open={logoutFailed}
        onOpenChange={setLogoutFailed}
        message={LOGOUT_FAILED_MESSAGE}
        actions={
          <>
            <button
              type="button"
              className={cx(buttonStyles.button, buttonStyles.secondary)}
              onClick={() => setLogoutFailed(false)}
            >
              Close
            </button>
            <button
              type="button"
              className={cx(buttonStyles.button, buttonStyles.primary)}
              onClick={handleLogOut}
              disabled={loggingOut}
            >
              {loggingOut ? 'Logging out...' : 'Try again'}
            </button>
          </>
        }
      />
      <AccountMenu
        open={open}
        onOpenChange={setOpen}
        username={profile?.username ?? null}
        loggingOut={loggingOut}
        onLogOut={handleLogOut}
        linkState={linkState}
      />
    </>
  );
}

interface AccountMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  username: string | null;
  loggingOut: boolean;
  onLogOut: () => void;
  linkState: ReturnType<typeof nextNavigationState>;
}

function AccountMenu({
  open,
  onOpenChange: setOpen,
  username,
  loggingOut,
  onLogOut,
  linkState,
}: AccountMenuProps) {
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={styles.trigger}>
        <svg
          className={styles.personIcon}
          aria-hidden="true"
          focusable="false"
          viewBox="0 0 20 20"
          width="20"
          height="20"
          fill="currentColor"
        >
          <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm0 2c-4 0-7 2-7 4.5V18h14v-1.5C17 14 14 12 10 12Z" />
        </svg>
        Account
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={styles.content}
          sideOffset={POPOVER_SIDE_OFFSET}
          align="end"
          collisionPadding={8}
        >
          <div className={styles.heading}>
            <Popover.Title className={styles.title}>Account</Popover.Title>
            <Popover.Close className={buttonStyles.icon} aria-label="Close">
              <CloseIcon />
            </Popover.Close>
          </div>
          {username !== null ? (
            <>
              <p className={styles.signedInAs}>
                Signed in as
                <span className={styles.username}>{username}</span>
              </p>
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary, buttonStyles.full)}
                onClick={onLogOut}
                disabled={loggingOut}
                aria-busy={loggingOut || undefined}
              >
                {loggingOut ? 'Logging out...' : 'Log Out'}
              </button>
            </>
          ) : (
            <div className={styles.actions}>
              <Link
                to="/login"
                state={linkState}
                className={cx(buttonStyles.button, buttonStyles.primary, buttonStyles.full)}
                onClick={() => setOpen(false)}
              >
                Sign In
              </Link>
              <Link
                to="/signup"
                state={linkState}
                className={cx(buttonStyles.button, buttonStyles.secondary, buttonStyles.full)}
                onClick={() => setOpen(false)}
              >
                Create Account
              </Link>
            </div>
          )}
          <Popover.Arrow className={styles.arrow} width={14} height={7} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
