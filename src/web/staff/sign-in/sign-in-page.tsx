import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ssoErrorMessage } from '../../../shared/staff/sso-errors';
import {
  SSO_START_PATH,
  type StaffSignInForm,
  staffSignInSchema,
} from '../../../shared/staff/staff-api';
import { AuthCard } from '../../ui/auth-card';
import { buttonClassName } from '../../ui/button';
import { cx } from '../../ui/cx';
import { PasswordField } from '../../ui/password-field';
import styles from '../shell/console.module.css';
import { optionsQueryOptions } from '../shell/staff-calls';
import { CardForm, EmailField, useStaffForm } from '../shell/staff-form';
import { readStaffNotice } from '../shell/staff-session';
import { signInCalls } from './sign-in-calls';
import { useSignInStep } from './use-sign-in-step';

const FIELDS = {
  email: { id: 'staff-email', label: 'Email address' },
  password: { id: 'staff-password', label: 'Password' },
} as const;

function SignInPage() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [notice] = useState(() => readStaffNotice(location.state));
  // Shown once: a reload or Back does not bring the sentence again.
  useEffect(() => {
    if (readStaffNotice(location.state)) {
      void navigate(location, { replace: true, state: null });
    }
  }, [location, navigate]);
  const ssoError = ssoErrorMessage(searchParams.get('error'));
  const { data: options } = useQuery(optionsQueryOptions);
  const form = useStaffForm<StaffSignInForm>(
    staffSignInSchema,
    { email: '', password: '' },
    FIELDS,
  );
  const [failure, setFailure] = useState<string | null>(null);
  const nextStep = useSignInStep();

  const signIn = useMutation({
    mutationFn: async (credentials: StaffSignInForm) => {
      const { next } = await signInCalls.signIn(credentials);
      await nextStep(next);
    },
    onError: (error) => setFailure(form.showServerError(error)),
  });

  return (
    <AuthCard
      title="Staff Sign In"
      intro="Sign in to the admissions office's console."
      footer={
        <p>
          New to the console? Use the invitation link an administrator sent you to set your
          password.
        </p>
      }
    >
      {notice ? (
        <div
          role="status"
          className={cx(styles.notice, notice.kind === 'error' && styles.noticeError)}
        >
          <p>{notice.text}</p>
        </div>
      ) : null}
      {ssoError ? (
        <div role="alert" className={cx(styles.notice, styles.noticeError)}>
          <p>{ssoError}</p>
        </div>
      ) : null}
      <CardForm
        form={form}
        failure={failure}
        onValid={(credentials) => {
          setFailure(null);
          signIn.mutate(credentials);
        }}
        pending={signIn.isPending}
        label="Sign in"
        pendingLabel="Signing in..."
        beforeForm={
          options?.sso ? (
            <>
              <a href={SSO_START_PATH} className={buttonClassName('primary', true)}>
                {options.sso.label}
              </a>
              <p className={styles.divider}>
                <span>or sign in with your password</span>
              </p>
            </>
          ) : null
        }
      >
        <EmailField
          id={FIELDS.email.id}
          label={FIELDS.email.label}
          autoComplete="username"
          binding={form.field('email')}
        />
        <PasswordField
          id={FIELDS.password.id}
          label={FIELDS.password.label}
          autoComplete="current-password"
          required
          markRequired
          binding={form.field('password')}
        />
      </CardForm>
    </AuthCard>
  );
}

export { SignInPage as Component };
