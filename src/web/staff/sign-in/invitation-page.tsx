import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type InvitationAcceptForm,
  invitationAcceptSchema,
  STAFF_MESSAGES,
} from '../../../shared/staff/staff-api';
import { AuthCard } from '../../ui/auth-card';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { NewPasswordField } from '../../ui/new-password-field';
import { PasswordField } from '../../ui/password-field';
import styles from '../shell/console.module.css';
import { CardForm, EmailField, serverMessage, useStaffForm } from '../shell/staff-form';
import { signInCalls, signInKeys } from './sign-in-calls';
import { useSignInStep } from './use-sign-in-step';

const FIELDS = {
  email: { id: 'invitation-email', label: 'Email address' },
  password: { id: 'invitation-password', label: 'New password' },
  confirm_password: { id: 'invitation-confirm', label: 'Confirm new password' },
} as const;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

/** The link an administrator sent: check it, then choose a password; the authenticator follows. */
function InvitationPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const wellFormed = TOKEN_PATTERN.test(token);
  const check = useQuery({
    queryKey: signInKeys.invitation(token),
    queryFn: () => signInCalls.checkInvitation(token),
    enabled: wellFormed,
  });

  let body: ReactNode;
  if (!wellFormed || check.isError) {
    const message = wellFormed ? serverMessage(check.error) : STAFF_MESSAGES.invitationInvalid;
    body = (
      <div role="alert" className={`${styles.notice} ${styles.noticeError}`}>
        <p>{message}</p>
      </div>
    );
  } else if (check.isPending) {
    body = (
      <p role="status" className={styles.muted}>
        <LoadingIndicator type="circles" size="xs" /> Checking your invitation...
      </p>
    );
  } else {
    body = <AcceptForm token={token} />;
  }

  return (
    <AuthCard
      title="Accept Your Invitation"
      intro="Set the password for your staff account. Next, you will set up an authenticator app on your phone."
    >
      {body}
    </AuthCard>
  );
}

function AcceptForm({ token }: { token: string }) {
  const form = useStaffForm<InvitationAcceptForm>(
    invitationAcceptSchema,
    { token, email: '', password: '', confirm_password: '' },
    FIELDS,
  );
  const [failure, setFailure] = useState<string | null>(null);
  const nextStep = useSignInStep();
  const accept = useMutation({
    mutationFn: async (data: InvitationAcceptForm) => {
      const reply = await signInCalls.acceptInvitation(data);
      await nextStep(reply.next ?? 'enrol');
    },
    onError: (error) => setFailure(form.showServerError(error)),
  });

  return (
    <CardForm
      form={form}
      failure={failure}
      onValid={(data) => {
        setFailure(null);
        accept.mutate(data);
      }}
      pending={accept.isPending}
      label="Set password and continue"
      pendingLabel="Saving..."
    >
      <EmailField
        id={FIELDS.email.id}
        label={FIELDS.email.label}
        hint="The address the invitation was sent to."
        autoComplete="username"
        binding={form.field('email')}
      />
      <NewPasswordField
        id={FIELDS.password.id}
        label={FIELDS.password.label}
        markRequired
        binding={form.field('password')}
      />
      <PasswordField
        id={FIELDS.confirm_password.id}
        label={FIELDS.confirm_password.label}
        toggleNoun="confirmed password"
        autoComplete="new-password"
        required
        markRequired
        binding={form.field('confirm_password')}
      />
    </CardForm>
  );
}

export { InvitationPage as Component };
