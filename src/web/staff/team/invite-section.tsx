import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/staff/permissions';
import {
  type InviteStaffForm,
  type InviteStaffResponse,
  inviteStaffSchema,
} from '../../../shared/staff/staff-api';
import { Button } from '../../ui/button';
import authStyles from '../../ui/form-controls.module.css';
import { QuestionLabel } from '../../ui/question-label';
import { FieldErrors, TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import { formatDateTime } from '../shell/page-heading';
import { EmailField, FormAlert, FormErrorSummary, useStaffForm } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { teamCalls, teamKeys } from './team-calls';

type InviteValues = { email: string; role: string; display_name: string };

const INVITE_FIELDS = {
  email: { id: 'invite-email', label: 'Email address' },
  role: { id: 'invite-role', label: 'Role' },
  display_name: { id: 'invite-name', label: 'Name' },
} as const;

/** The invitation as the form holds it: the shared schema, with the optional name as text. */
const inviteForm = inviteStaffSchema.extend({ display_name: z.string().trim().max(120) });

export function InviteSection({ onInvited }: { onInvited: (email: string) => void }) {
  const [invitation, setInvitation] = useState<InviteStaffResponse | null>(null);
  // A new form after each invitation, so the next one starts empty.
  const [round, setRound] = useState(0);
  // The form that had the focus is replaced: the focus goes to what the invitation says.
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (invitation) notice.current?.focus();
  }, [invitation]);
  return (
    <section className={styles.section} aria-labelledby="invite-title">
      <h2 id="invite-title" className={styles.sectionTitle}>
        Invite a colleague
      </h2>
      {invitation ? (
        <div ref={notice} tabIndex={-1} className={styles.notice}>
          <p>
            We emailed an invitation to {invitation.member.email}. It works until{' '}
            {formatDateTime(invitation.expires_at)}. You can also send them this link yourself:
          </p>
          <p>
            <code className={styles.secret}>{invitation.link}</code>
          </p>
          <CopyButton text={invitation.link} label="Copy invitation link" />
        </div>
      ) : null}
      <InviteForm
        key={round}
        onStart={() => setInvitation(null)}
        onInvited={(reply) => {
          setInvitation(reply);
          setRound((count) => count + 1);
          onInvited(reply.member.email);
        }}
      />
    </section>
  );
}

function InviteForm({
  onStart,
  onInvited,
}: {
  onStart: () => void;
  onInvited: (reply: InviteStaffResponse) => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const form = useStaffForm<InviteValues>(
    inviteForm,
    { email: '', role: 'reader', display_name: '' },
    INVITE_FIELDS,
  );
  const [failure, setFailure] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: (data: InviteStaffForm) => stepUp.run(() => teamCalls.invite(data)),
    onSuccess: async (reply) => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.staff });
      onInvited(reply);
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(form.showServerError(error));
    },
  });
  const role = form.field('role');

  return (
    <>
      <FormErrorSummary entries={form.summary} ref={form.summaryRef} />
      <FormAlert message={failure} />
      <form
        noValidate
        aria-labelledby="invite-title"
        onSubmit={form.submit((data) => {
          setFailure(null);
          onStart();
          const displayName = data.display_name.trim();
          invite.mutate({
            email: data.email,
            role: data.role as StaffRole,
            ...(displayName ? { display_name: displayName } : {}),
          });
        })}
      >
        <div className={styles.formRow}>
          <EmailField
            id={INVITE_FIELDS.email.id}
            label={INVITE_FIELDS.email.label}
            autoComplete="off"
            binding={form.field('email')}
          />
          <div className={authStyles.field}>
            <label htmlFor={INVITE_FIELDS.role.id} className={authStyles.label}>
              <QuestionLabel text={INVITE_FIELDS.role.label} required />
            </label>
            <select
              id={INVITE_FIELDS.role.id}
              className={styles.select}
              value={role.value}
              required
              aria-invalid={role.errors.length > 0 || undefined}
              aria-describedby={`${INVITE_FIELDS.role.id}-error`}
              onChange={(event) => role.onValueChange(event.target.value)}
            >
              {STAFF_ROLES.map((value) => (
                <option key={value} value={value}>
                  {ROLE_LABELS[value]}
                </option>
              ))}
            </select>
            <FieldErrors id={`${INVITE_FIELDS.role.id}-error`} errors={role.errors} />
          </div>
          <TextField
            id={INVITE_FIELDS.display_name.id}
            label={INVITE_FIELDS.display_name.label}
            autoComplete="off"
            maxLength={120}
            binding={form.field('display_name')}
          />
        </div>
        <div className={styles.formActions}>
          <Button type="submit" variant="primary" disabled={invite.isPending}>
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
        </div>
      </form>
    </>
  );
}
