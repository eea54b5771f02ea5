import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import {
  type ConfirmForm,
  confirmSchema,
  forgotPasswordSchema,
  formErrors,
} from '../../shared/accounts/account-forms';
import { CONFIRMATION_CODE_LENGTH } from '../../shared/constants';
import { nextNavigationState, readNavigationState } from '../navigation/navigation-state';
import { useToast } from '../toast/use-toast';
import { AuthCard } from '../ui/auth-card';
import { cx } from '../ui/cx';
import styles from '../ui/form-controls.module.css';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import textStyles from '../ui/text-variant.module.css';
import { useAccountForm } from '../ui/use-account-form';
import { accountCalls, CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';
import { useResendConfirm } from './use-resend-confirm';
import { useSuccessNavigation } from './use-success-navigation';

/** The username handed over by sign-up, resend or log-in, if it is a usable address. */
function usernameFromState(state: unknown): string | null {
  const { username } = readNavigationState(state);
  if (!username) {
    return null;
  }
  return (formErrors(forgotPasswordSchema, { username }).username ?? []).length === 0
    ? username.trim()
    : null;
}

function ConfirmPage() {
  const location = useLocation();
  const toast = useToast();
  const goOn = useSuccessNavigation();
  // Spec 000 section 2: the username comes from the navigation state; without it, we ask.
  const [knownUsername] = useState(() => usernameFromState(location.state));
  const form = useAccountForm<ConfirmForm>(
    confirmSchema,
    { username: knownUsername ?? '', code: '' },
    knownUsername ? ['code'] : ['username', 'code'],
  );
  const { resend, pending: resending } = useResendConfirm();

  const confirm = useMutation({
    mutationFn: accountCalls.confirm,
    onSuccess: (reply, account) => {
      toast.resolve(CARD_ERROR_TITLES.confirm);
      goOn('/login', {
        username: account.username,
        title: 'Account Confirmed',
        description: replyMessage(reply, 'Your account is confirmed. You can log in now.'),
      });
    },
    onError: (error) => {
      toast.error(CARD_ERROR_TITLES.confirm, failureMessage(error));
    },
  });

  function onResend() {
    const errors = resend(form.values.username);
    if (errors.length > 0) {
      // Only reachable when the address is asked for: a known one is valid.
      form.setActionError('username', errors);
    }
  }

  return (
    <AuthCard
      title="Confirm Your Account"
      intro={
        knownUsername ? (
          <>
            We emailed a {CONFIRMATION_CODE_LENGTH}-digit confirmation code to{' '}
            <span className={styles.username}>{knownUsername}</span>. Enter it below to finish
            creating your account.
          </>
        ) : (
          `Enter the email address you signed up with and the ${CONFIRMATION_CODE_LENGTH}-digit confirmation code we emailed you.`
        )
      }
      footer={
        <>
          <p>
            Did not get the code? Check your spam folder.{' '}
            <button
              type="button"
              className={cx(styles.textButton, textStyles.underlined)}
              onClick={onResend}
              disabled={resending}
            >
              {resending ? 'Sending a new code...' : 'Resend confirmation code'}
            </button>
          </p>
          <p>
            Already confirmed?{' '}
            <Link to="/login" state={nextNavigationState(location.state)}>
              Sign in
            </Link>
          </p>
        </>
      }
    >
      <form
        className={styles.form}
        noValidate
        onSubmit={form.handleSubmit((account) => confirm.mutate(account))}
      >
        {knownUsername ? null : (
          <TextField
            id="confirm-username"
            label="Email address"
            type="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            binding={form.field('username')}
          />
        )}
        <TextField
          id="confirm-code"
          label="Confirmation code"
          hint={`The ${CONFIRMATION_CODE_LENGTH} numbers from the email we sent you.`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CONFIRMATION_CODE_LENGTH}
          required
          className={styles.code}
          binding={form.field('code')}
        />
        <SubmitButton
          pending={confirm.isPending}
          label="Confirm Account"
          pendingLabel="Confirming..."
        />
      </form>
    </AuthCard>
  );
}

export { ConfirmPage as Component };
