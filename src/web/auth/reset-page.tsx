import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  MESSAGES,
  type ResetPasswordForm,
  resetPasswordSchema,
} from '../../shared/accounts/account-forms';
import { useToast } from '../toast/use-toast';
import { AuthCard } from '../ui/auth-card';
import styles from '../ui/form-controls.module.css';
import { NewPasswordField } from '../ui/new-password-field';
import { PasswordField } from '../ui/password-field';
import { SubmitButton } from '../ui/submit-button';
import { ErrorIcon } from '../ui/text-field';
import { type AccountForm, useAccountForm } from '../ui/use-account-form';
import { accountCalls, CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';
import { useSuccessNavigation } from './use-success-navigation';

const FIELDS = ['password', 'confirm_password'] as const;

/** Spec 000 section 2: the emailed link brings the username and the reset id in the query string. */
function ResetPage() {
  const [searchParams] = useSearchParams();
  const [link] = useState(() => ({
    username: searchParams.get('username') ?? '',
    id: searchParams.get('id') ?? '',
  }));
  const form = useAccountForm<ResetPasswordForm>(
    resetPasswordSchema,
    { ...link, password: '', confirm_password: '' },
    FIELDS,
  );
  const linkValid = !form.errors.username?.length && !form.errors.id?.length;

  return (
    <AuthCard
      title="Reset Password"
      intro={
        linkValid ? (
          <>
            Choose a new password for <span className={styles.username}>{link.username}</span>.
          </>
        ) : undefined
      }
      footer={
        <p>
          Remembered it? <Link to="/login">Back to sign in</Link>
        </p>
      }
    >
      {linkValid ? <ResetForm form={form} /> : <BrokenLink />}
    </AuthCard>
  );
}

function ResetForm({ form }: { form: AccountForm<ResetPasswordForm> }) {
  const toast = useToast();
  const goOn = useSuccessNavigation();

  const reset = useMutation({
    mutationFn: accountCalls.resetPassword,
    onSuccess: (reply, request) => {
      toast.resolve(CARD_ERROR_TITLES.reset);
      goOn('/login', {
        username: request.username,
        title: 'Password Reset',
        description: replyMessage(reply, 'Your password has been reset.'),
      });
    },
    onError: (error) => {
      toast.error(CARD_ERROR_TITLES.reset, failureMessage(error));
    },
  });

  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={form.handleSubmit((request) => reset.mutate(request))}
    >
      <NewPasswordField id="reset-password" label="New password" binding={form.field('password')} />
      <PasswordField
        id="reset-confirm-password"
        label="Confirm new password"
        toggleNoun="password confirmation"
        autoComplete="new-password"
        required
        binding={form.field('confirm_password')}
      />
      <SubmitButton pending={reset.isPending} label="Reset Password" pendingLabel="Resetting..." />
    </form>
  );
}

/** A link without a usable username or id: nothing to reset, so point to a new request. */
function BrokenLink() {
  return (
    <div className={styles.alert} role="alert">
      <p className={styles.alertMessage}>
        <ErrorIcon />
        <span>{MESSAGES.resetLinkInvalid}</span>
      </p>
      <p>
        <Link to="/forgot" className={styles.alertLink}>
          Request a new link
        </Link>
      </p>
    </div>
  );
}

export { ResetPage as Component };
