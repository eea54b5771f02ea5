import { useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useFormSession } from '../app-state/form-session-context';
import { useProfile } from '../data/profile';
import { ErrorDialog } from '../modal/error-dialog';
import { nextNavigationState } from '../navigation/navigation-state';
import { useLogOut } from '../session/use-log-out';
import { Button } from '../ui/button';
import { onDemand } from '../ui/on-demand';
import type { AccountMenuProps } from './account-menu';
import styles from './account-popover.module.css';

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
  const draft = useFormSession().anonymousAnswers();
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
            <Button type="button" variant="secondary" onClick={() => setLogoutFailed(false)}>
              Close
            </Button>
            <Button type="button" variant="primary" onClick={handleLogOut} disabled={loggingOut}>
              {loggingOut ? 'Logging out...' : 'Try again'}
            </Button>
          </>
        }
      />
      <AccountButton
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

const accountMenu = onDemand(() => import('./account-menu'));
const prefetch = accountMenu.preload;

/** The Account button; its menu is loaded on first use, keeping it out of the first load. */
function AccountButton({
  open,
  onOpenChange: setOpen,
  ...menu
}: Omit<AccountMenuProps, 'triggerRef' | 'contentId'>) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const contentId = useId();
  const [wanted, setWanted] = useState(false);
  const AccountMenu = accountMenu.useLoaded(wanted);
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        aria-haspopup="dialog"
        aria-expanded={open}
        {...(open ? { 'aria-controls': contentId } : {})}
        onClick={() => {
          setWanted(true);
          setOpen(!open);
        }}
        onPointerEnter={prefetch}
        onFocus={prefetch}
      >
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
      </button>
      {AccountMenu ? (
        <AccountMenu
          {...menu}
          open={open}
          onOpenChange={setOpen}
          triggerRef={triggerRef}
          contentId={contentId}
        />
      ) : null}
    </>
  );
}
