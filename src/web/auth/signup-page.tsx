import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { type SignupForm, signupSchema } from '../../shared/accounts/account-forms';
import { nextNavigationState, readNavigationState } from '../navigation/navigation-state';
import { useToast } from '../toast/use-toast';
import { AuthCard } from '../ui/auth-card';
import styles from '../ui/form-controls.module.css';
import { NewPasswordField } from '../ui/new-password-field';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { useAccountForm } from '../ui/use-account-form';
import { accountCalls, CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';
import { CONFIRM_ROUTE } from './use-resend-confirm';
import { useSuccessNavigation } from './use-success-navigation';

const FIELDS = ['username', 'password'] as const;

function SignupPage() {
  const location = useLocation();
  const toast = useToast();
  const goOn = useSuccessNavigation();
  const [initialUsername] = useState(() => readNavigationState(location.state).username ?? '');
  const form = useAccountForm<SignupForm>(
    signupSchema,
    { username: initialUsername, password: '' },
    FIELDS,
  );

  const signup = useMutation({
    mutationFn: accountCalls.signup,
    onSuccess: (reply, account) => {
      toast.resolve(CARD_ERROR_TITLES.signup);
      goOn(CONFIRM_ROUTE, {
        username: account.username,
        title: 'Check Your Email',
        description: replyMessage(reply, 'We sent you a confirmation code.'),
      });
    },
    onError: (error) => {
      toast.error(CARD_ERROR_TITLES.signup, failureMessage(error));
    },
  });

  return (
    <AuthCard
      title="Create Account"
      intro="Create an account to save your answers and submit your application."
      footer={
        <>
          <p>
            Already have an account?{' '}
            <Link to="/login" state={nextNavigationState(location.state)}>
              Sign in
            </Link>
          </p>
          <p>
            Already have a confirmation code?{' '}
            <Link to={CONFIRM_ROUTE} state={nextNavigationState(location.state)}>
              Confirm your account
            </Link>
          </p>
        </>
      }
    >
      <form
        className={styles.form}
        noValidate
        onSubmit={form.handleSubmit((account) => signup.mutate(account))}
      >
        <TextField
          id="signup-username"
          label="Email address"
          hint="We will email a confirmation code to this address."
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          binding={form.field('username')}
        />
        <NewPasswordField id="signup-password" label="Password" binding={form.field('password')} />
        <SubmitButton
          pending={signup.isPending}
          label="Create Account"
          pendingLabel="Creating your account..."
        />
      </form>
    </AuthCard>
  );
}

export { SignupPage as Component };
