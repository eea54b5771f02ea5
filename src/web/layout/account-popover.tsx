import { Popover } from 'radix-ui';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useProfile } from '../data/profile';
import buttonStyles from '../ui/button.module.css';
import { CloseIcon } from '../ui/close-icon';
import { cx } from '../ui/cx';
import styles from './account-popover.module.css';

/** Spec 000 section 9: popover side offset 5. */
const POPOVER_SIDE_OFFSET = 5;

export function AccountPopover() {
  const profile = useProfile();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  function logOut() {
    setOpen(false);
    // The accounts work replaces this with the logout call, cache clearing and logout message.
    navigate('/login');
  }

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
          {profile ? (
            <>
              <p className={styles.signedInAs}>
                Signed in as
                <span className={styles.username}>{profile.username}</span>
              </p>
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary, buttonStyles.full)}
                onClick={logOut}
              >
                Log Out
              </button>
            </>
          ) : (
            <div className={styles.actions}>
              <Link
                to="/login"
                className={cx(buttonStyles.button, buttonStyles.primary, buttonStyles.full)}
                onClick={() => setOpen(false)}
              >
                Sign In
              </Link>
              <Link
                to="/signup"
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
