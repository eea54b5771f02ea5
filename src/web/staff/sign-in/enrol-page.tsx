import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { type EnrolmentStartResponse, totpCodeSchema } from '../../../shared/staff/staff-api';
import { useTenantConfig } from '../../data/tenant';
import { AuthCard } from '../../ui/auth-card';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import authStyles from '../../ui/form-controls.module.css';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { ErrorIcon } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import { downloadFile, groupKey, recoveryCodesText } from '../shell/secrets';
import { staffCalls } from '../shell/staff-calls';
import {
  AuthenticatorCodeField,
  CardForm,
  FormAlert,
  serverMessage,
  useStaffForm,
} from '../shell/staff-form';
import { signInCalls, signInKeys } from './sign-in-calls';
import { useSignInStep } from './use-sign-in-step';

const FIELDS = { code: { id: 'enrol-code', label: '6-digit code' } } as const;

/** Setting up the authenticator: scan or type the key, prove it with a code, keep the recovery codes. */
function EnrolPage() {
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  return (
    <AuthCard
      title="Set Up Your Authenticator"
      intro={
        recoveryCodes
          ? 'Your authenticator is set up.'
          : 'Staff accounts need a second step when signing in: a code from an authenticator app on your phone.'
      }
    >
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} />
      ) : (
        <Enrolment onFinished={setRecoveryCodes} />
      )}
    </AuthCard>
  );
}

function Enrolment({ onFinished }: { onFinished: (codes: string[]) => void }) {
  const start = useQuery({
    queryKey: signInKeys.enrolment,
    queryFn: signInCalls.startEnrolment,
  });
  if (start.isPending) {
    return (
      <p role="status" className={styles.muted}>
        <LoadingIndicator type="circles" size="xs" /> Preparing your key...
      </p>
    );
  }
  if (start.isError) {
    return (
      <div role="alert" className={cx(styles.notice, styles.noticeError)}>
        <p>{serverMessage(start.error)}</p>
      </div>
    );
  }
  return <EnrolmentSteps details={start.data} onFinished={onFinished} />;
}

function EnrolmentSteps({
  details,
  onFinished,
}: {
  details: EnrolmentStartResponse;
  onFinished: (codes: string[]) => void;
}) {
  const queryClient = useQueryClient();
  const keyLabel = useId();
  const form = useStaffForm<{ code: string }>(totpCodeSchema, { code: '' }, FIELDS);
  const [failure, setFailure] = useState<string | null>(null);
  const finish = useMutation({
    mutationFn: (code: string) => signInCalls.finishEnrolment(code),
    onSuccess: ({ recovery_codes }) => {
      queryClient.removeQueries({ queryKey: signInKeys.enrolment });
      onFinished(recovery_codes);
    },
    onError: (error) => setFailure(form.showServerError(error)),
  });

  return (
    <>
      <h2 className={styles.stepTitle}>1. Add the console to your authenticator app</h2>
      <p>
        In an authenticator app (such as Microsoft Authenticator, Google Authenticator or
        1Password), add an account and scan this QR code.
      </p>
      <img
        src={details.qr_data_url}
        alt="QR code for your authenticator app"
        className={styles.qr}
      />
      <p id={keyLabel}>Cannot scan it? Type this key into the app instead:</p>
      <p className={styles.keyRow}>
        <code className={cx(styles.secret, styles.key)} data-testid="totp-key">
          {groupKey(details.secret)}
        </code>
        <CopyButton text={details.secret} label="Copy key" />
      </p>
      <h2 className={styles.stepTitle}>2. Enter the code the app shows</h2>
      <CardForm
        form={form}
        failure={failure}
        onValid={({ code }) => {
          setFailure(null);
          finish.mutate(code);
        }}
        pending={finish.isPending}
        label="Turn on"
        pendingLabel="Checking..."
      >
        <AuthenticatorCodeField
          id={FIELDS.code.id}
          label={FIELDS.code.label}
          hint="The app shows a new code every 30 seconds."
          binding={form.field('code')}
        />
      </CardForm>
    </>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const tenant = useTenantConfig();
  const heading = useRef<HTMLHeadingElement>(null);
  const checkbox = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState(false);
  const [unsavedError, setUnsavedError] = useState(false);
  const [email, setEmail] = useState('');
  const nextStep = useSignInStep();
  const [failure, setFailure] = useState<string | null>(null);
  const go = useMutation({
    mutationFn: () => nextStep('signed_in'),
    onError: (error) => setFailure(serverMessage(error)),
  });

  useEffect(() => {
    heading.current?.focus();
    // The address goes into the file's first line; the member is signed in by now.
    staffCalls.me().then(
      (me) => setEmail(me.email),
      () => {},
    );
  }, []);

  const text = recoveryCodesText(codes, tenant.partner_name, email || 'your staff account');

  function onContinue() {
    if (!saved) {
      setUnsavedError(true);
      checkbox.current?.focus();
      return;
    }
    go.mutate();
  }

  return (
    <>
      <h2 ref={heading} tabIndex={-1} className={styles.stepTitle}>
        Save your recovery codes
      </h2>
      <p>
        If you lose your phone, each of these codes lets you sign in once. They are shown only now:
        copy them or download them, and keep them somewhere safe.
      </p>
      <ul className={cx(styles.codes, styles.secret)} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={styles.formActions}>
        <CopyButton text={codes.join('\n')} label="Copy" />
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          onClick={() =>
            downloadFile(new Blob([text], { type: 'text/plain' }), 'recovery-codes.txt')
          }
        >
          Download as text
        </Button>
      </div>
      <div className={cx(authStyles.field, styles.confirmSaved)}>
        <label className={styles.checkbox}>
          <input
            ref={checkbox}
            type="checkbox"
            checked={saved}
            aria-invalid={unsavedError && !saved ? true : undefined}
            aria-describedby="saved-error"
            onChange={(event) => {
              setSaved(event.target.checked);
              if (event.target.checked) setUnsavedError(false);
            }}
          />
          I have saved these codes
        </label>
        <div id="saved-error" className={authStyles.errors} aria-live="polite">
          {unsavedError && !saved ? (
            <p className={authStyles.error}>
              <ErrorIcon />
              <span>Confirm that you have saved the codes before you continue.</span>
            </p>
          ) : null}
        </div>
      </div>
      <FormAlert message={failure} />
      <Button
        type="button"
        variant="primary"
        fullWidth
        onClick={onContinue}
        disabled={go.isPending}
      >
        {go.isPending ? 'Opening the console...' : 'Continue'}
      </Button>
    </>
  );
}

export { EnrolPage as Component };
