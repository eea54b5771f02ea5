import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { type ForgotPasswordForm, forgotPasswordSchema } from '../../shared/accounts/account-forms';
import { nextNavigationState, readNavigationState } from '../navigation/navigation-state';
import { useToast } from '../toast/use-toast';
import { AuthCard } from '../ui/auth-card';
import styles from '../ui/form-controls.module.css';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { useAccountForm } from '../ui/use-account-form';
import { accountCalls, CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';

const FIELDS = ['username'] as const;

/**
 * Spec 000 section 2: the returned message shows as a success toast. The screen stays, so the
 * applicant can read it, fix a mistyped address or ask again.
 */
function ForgotPage() {
  const location = useLocation();
  const toast = useToast();
  const [initialUsername] = useState(() => readNavigationState(location.state).username ?? '');
  const form = useAccountForm<ForgotPasswordForm>(
    forgotPasswordSchema,
    { username: initialUsername },
    FIELDS,
  );

  const forgot = useMutation({
    mutationFn: accountCalls.forgotPassword,
    onSuccess: (reply) => {
      toast.resolve(CARD_ERROR_TITLES.forgot);
      toast.success(
        'Check Your Email',
        replyMessage(reply, 'If an account exists, we sent it a link to reset your password.'),
      );
    },
    onError: (error) => {
      toast.error(CARD_ERROR_TITLES.forgot, failureMessage(error));
    },
  });

  return (
    <AuthCard
      title="Forgot Password"
      intro="Enter the email address of your account and we will email you a link to reset your password."
      footer={
        <p>
          Remembered it?{' '}
          <Link
            to="/login"
            state={nextNavigationState(
              location.state,
              form.values.username.trim() ? { username: form.values.username.trim() } : {},
            )}
          >
            Back to sign in
          </Link>
        </p>
      }
    >
      <form
        className={styles.form}
        noValidate
        onSubmit={form.handleSubmit((request) => forgot.mutate(request))}
      >
        <TextField
          id="forgot-username"
          label="Email address"
          type="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          binding={form.field('username')}
        />
        <SubmitButton
          pending={forgot.isPending}
          label="Send Reset Link"
          pendingLabel="Sending..."
        />
      </form>
    </AuthCard>
  );
}

export { ForgotPage as Component };
