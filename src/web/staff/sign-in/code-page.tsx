import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { recoveryCodeSchema, totpCodeSchema } from '../../../shared/staff/staff-api';
import { AuthCard } from '../../ui/auth-card';
import { TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { AuthenticatorCodeField, CardForm, useStaffForm } from '../shell/staff-form';
import { STAFF_SIGN_IN_ROUTE } from '../shell/staff-session';
import { signInCalls } from './sign-in-calls';
import { useSignInStep } from './use-sign-in-step';

type Mode = 'authenticator' | 'recovery';

/** The second step of a password sign-in: a code from the authenticator, or a recovery code. */
function CodePage() {
  const [mode, setMode] = useState<Mode>('authenticator');

  function switchTo(next: Mode) {
    setMode(next);
    // The button is replaced by its counterpart; focus follows to the new field.
    requestAnimationFrame(() => document.getElementById(`staff-${next}-code`)?.focus());
  }

  return (
    <AuthCard
      title="Enter Your Code"
      intro={
        mode === 'authenticator'
          ? 'Open the authenticator app on your phone and enter the 6-digit code it shows for this console.'
          : 'Enter one of the recovery codes you saved when you set up your authenticator. Each code works once.'
      }
      footer={
        <>
          <p>
            {mode === 'authenticator' ? 'No access to your authenticator? ' : 'Have your phone? '}
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => switchTo(mode === 'authenticator' ? 'recovery' : 'authenticator')}
            >
              {mode === 'authenticator'
                ? 'Use a recovery code instead'
                : 'Use your authenticator app instead'}
            </button>
          </p>
          <p>
            <Link to={STAFF_SIGN_IN_ROUTE}>Start again with your password</Link>
          </p>
        </>
      }
    >
      {mode === 'authenticator' ? <CodeForm key="totp" mode="authenticator" /> : null}
      {mode === 'recovery' ? <CodeForm key="recovery" mode="recovery" /> : null}
    </AuthCard>
  );
}

function CodeForm({ mode }: { mode: Mode }) {
  const authenticator = mode === 'authenticator';
  const fields = {
    code: {
      id: `staff-${mode}-code`,
      label: authenticator ? '6-digit code' : 'Recovery code',
    },
  };
  const form = useStaffForm<{ code: string }>(
    authenticator ? totpCodeSchema : recoveryCodeSchema,
    { code: '' },
    fields,
  );
  const [failure, setFailure] = useState<string | null>(null);
  const nextStep = useSignInStep();
  const send = useMutation({
    mutationFn: async (code: string) => {
      const { next } = authenticator
        ? await signInCalls.secondFactor(code)
        : await signInCalls.recoveryCode(code);
      await nextStep(next);
    },
    onError: (error) => setFailure(form.showServerError(error)),
  });

  return (
    <CardForm
      form={form}
      failure={failure}
      onValid={() => {
        setFailure(null);
        // The typed text, not the parsed one: the server reads the recovery code its own way.
        send.mutate(form.values.code.trim());
      }}
      pending={send.isPending}
      label="Continue"
      pendingLabel="Checking..."
    >
      {authenticator ? (
        <AuthenticatorCodeField
          id={fields.code.id}
          label={fields.code.label}
          autoCapitalize="none"
          hint="For example, 123456."
          binding={form.field('code')}
        />
      ) : (
        <TextField
          id={fields.code.id}
          label={fields.code.label}
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          hint="For example, ABCDE-FGHIJ."
          required
          markRequired
          binding={form.field('code')}
        />
      )}
    </CardForm>
  );
}

export { CodePage as Component };
