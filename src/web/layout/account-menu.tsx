import { Popover } from 'radix-ui';
import type { RefObject } from 'react';
import { Link } from 'react-router';
import type { nextNavigationState } from '../navigation/navigation-state';
import { Button, buttonClassName } from '../ui/button';
import buttonStyles from '../ui/button.module.css';
import { CloseIcon } from '../ui/close-icon';
import styles from './account-popover.module.css';

/** Spec 000 section 9: popover side offset 5. */
const POPOVER_SIDE_OFFSET = 5;

export interface AccountMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  username: string | null;
  loggingOut: boolean;
  onLogOut: () => void;
  linkState: ReturnType<typeof nextNavigationState>;
  /** The Account button: the menu is placed against it and gives focus back to it. */
  triggerRef: RefObject<HTMLButtonElement | null>;
  contentId: string;
}

/**
 * The account menu's panel (Radix Popover, with its positioning library), in a chunk of its own
 * loaded when the Account button is first pressed or approached.
 */
export default function AccountMenu({
  open,
  onOpenChange: setOpen,
  username,
  loggingOut,
  onLogOut,
  linkState,
  triggerRef,
  contentId,
}: AccountMenuProps) {
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Anchor virtualRef={triggerRef} />
      <Popover.Portal>
        <Popover.Content
          id={contentId}
          className={styles.content}
          sideOffset={POPOVER_SIDE_OFFSET}
          align="end"
          collisionPadding={8}
          aria-label="Account"
          // The button toggles the menu itself; a press on it is not a press outside.
          onInteractOutside={(event) => {
            if (event.target instanceof Node && triggerRef.current?.contains(event.target)) {
              event.preventDefault();
            }
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
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
              <Button
                type="button"
                variant="secondary"
                fullWidth
                onClick={onLogOut}
                disabled={loggingOut}
                aria-busy={loggingOut || undefined}
              >
                {loggingOut ? 'Logging out...' : 'Log Out'}
              </Button>
            </>
          ) : (
            <div className={styles.actions}>
              <Link
                to="/login"
                state={linkState}
                className={buttonClassName('primary', true)}
                onClick={() => setOpen(false)}
              >
                Sign In
              </Link>
              <Link
                to="/signup"
                state={linkState}
                className={buttonClassName('secondary', true)}
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
