import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { NOT_CONFIRMED_CODE } from '../../shared/accounts/account-api';
import { type LoginForm, loginSchema } from '../../shared/accounts/account-forms';
import { DEFAULT_ROUTE } from '../../shared/routes';
import { ServerError } from '../data/http-client';
import { profileQueryOptions } from '../data/profile';
import { nextNavigationState, readNavigationState } from '../navigation/navigation-state';
import { writeActivityMark } from '../session/inactivity';
import { useToast } from '../toast/use-toast';
import { AuthCard } from '../ui/auth-card';
import { cx } from '../ui/cx';
import styles from '../ui/form-controls.module.css';
import { PasswordField } from '../ui/password-field';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import textStyles from '../ui/text-variant.module.css';
import { useAccountForm } from '../ui/use-account-form';
import { accountCalls, CARD_ERROR_TITLES, failureMessage } from './account-calls';
import { CONFIRM_ROUTE, useResendConfirm } from './use-resend-confirm';

const FIELDS = ['username', 'password'] as const;

function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [initialUsername] = useState(() => readNavigationState(location.state).username ?? '');
  const form = useAccountForm<LoginForm>(
    loginSchema,
    { username: initialUsername, password: '' },
    FIELDS,
  );
  const [notConfirmed, setNotConfirmed] = useState<string | null>(null);
  const { resend, pending: resending } = useResendConfirm();

  const login = useMutation({
    mutationFn: async (credentials: LoginForm) => {
      await accountCalls.login(credentials);
      // A new session starts its inactivity clock now, whatever an earlier session left behind.
      writeActivityMark(Date.now());
      // The reply set the logged-in marker; the profile is fetched again and replaces the null.
      await queryClient.fetchQuery({ ...profileQueryOptions, staleTime: 0 });
    },
    onSuccess: () => {
      toast.resolve(CARD_ERROR_TITLES.login);
      navigate(DEFAULT_ROUTE, { state: nextNavigationState(location.state) });
    },
    onError: (error) => {
      if (error instanceof ServerError && error.code === NOT_CONFIRMED_CODE) {
        // The card's own message replaces whatever an earlier attempt said.
        toast.resolve(CARD_ERROR_TITLES.login);
        setNotConfirmed(error.message);
        return;
      }
      toast.error(CARD_ERROR_TITLES.login, failureMessage(error));
    },
  });

  function onResend() {
    const errors = resend(form.values.username);
    if (errors.length > 0) {
      form.setActionError('username', errors);
    }
  }

  const usernameForNextScreen = form.values.username.trim();
  const nextScreenState = nextNavigationState(
    location.state,
    usernameForNextScreen ? { username: usernameForNextScreen } : {},
  );
  const resendButton = (
    <button
      type="button"
      className={cx(styles.textButton, textStyles.underlined)}
      onClick={onResend}
      disabled={resending}
    >
      {resending ? 'Sending a new code...' : 'Resend confirmation code'}
    </button>
  );

  return (
    <AuthCard
      title="Sign In"
      intro="Sign in to continue your application."
      footer={
        <>
          <p>
            New here?{' '}
            <Link to="/signup" state={nextNavigationState(location.state)}>
              Create an account
            </Link>
          </p>
          {notConfirmed === null ? <p>Did not get your confirmation code? {resendButton}</p> : null}
        </>
      }
    >
      {notConfirmed !== null ? (
        <div className={styles.alert} role="alert">
          <p>{notConfirmed}</p>
          <div className={styles.alertActions}>
            {resendButton}
            <Link to={CONFIRM_ROUTE} state={nextScreenState}>
              Enter your code
            </Link>
          </div>
        </div>
      ) : null}
      <form
        className={styles.form}
        noValidate
        onSubmit={form.handleSubmit((credentials) => {
          setNotConfirmed(null);
          login.mutate(credentials);
        })}
      >
        <TextField
          id="login-username"
          label="Email address"
          type="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          binding={form.field('username')}
        />
        <PasswordField
          id="login-password"
          label="Password"
          autoComplete="current-password"
          required
          binding={form.field('password')}
        />
        <Link to="/forgot" state={nextScreenState} className={styles.inlineLink}>
          Forgot your password?
        </Link>
        <SubmitButton pending={login.isPending} label="Sign In" pendingLabel="Signing in..." />
      </form>
    </AuthCard>
  );
}

export { LoginPage as Component };
