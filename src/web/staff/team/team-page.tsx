import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/staff/permissions';
import {
  type InviteStaffForm,
  type InviteStaffResponse,
  inviteStaffSchema,
  type StaffMemberSummary,
} from '../../../shared/staff/staff-api';
import authStyles from '../../auth/auth-form.module.css';
import { FieldErrors, TextField } from '../../auth/text-field';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { QuestionLabel } from '../../ui/question-label';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import {
  EmailField,
  FormAlert,
  FormErrorSummary,
  serverMessage,
  useStaffForm,
} from '../shell/staff-form';
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

const STATUS_LABELS: Record<StaffMemberSummary['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
};

/** Staff management: invite, change a role, disable or enable; each needs a fresh second factor. */
function TeamPage() {
  // Other admins change the list too: it is asked afresh each time the page opens.
  const staff = useQuery({
    queryKey: teamKeys.staff,
    queryFn: teamCalls.staff,
    refetchOnMount: 'always',
  });
  const [status, setStatus] = useState('');
  return (
    <>
      <PageHeading
        title="Staff"
        intro="Invite colleagues, change what they may do, or turn their access off. These changes ask you to confirm it is you."
      />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <InviteSection onInvited={(email) => setStatus(`An invitation was sent to ${email}.`)} />
      <section className={styles.section} aria-labelledby="members-title">
        <h2 id="members-title" className={styles.sectionTitle}>
          Staff members
        </h2>
        {staff.isPending ? (
          <p className={styles.muted}>Loading the staff list...</p>
        ) : staff.isError ? (
          <FormAlert message={serverMessage(staff.error)} />
        ) : (
          <MembersTable members={staff.data} onChanged={setStatus} />
        )}
      </section>
    </>
  );
}

function InviteSection({ onInvited }: { onInvited: (email: string) => void }) {
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
          <button
            type="submit"
            className={cx(buttonStyles.button, buttonStyles.primary)}
            disabled={invite.isPending}
          >
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </button>
        </div>
      </form>
    </>
  );
}

function MembersTable({
  members,
  onChanged,
}: {
  members: StaffMemberSummary[];
  onChanged: (message: string) => void;
}) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">Staff members and their roles</caption>
        <colgroup>
          <col className={styles.colWide} />
          <col />
          <col />
          <col />
          <col className={styles.colWide} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Status</th>
            <th scope="col">Signs in with</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Role and access</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              isSelf={member.id === me?.id}
              onChanged={onChanged}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MemberRow({
  member,
  isSelf,
  onChanged,
}: {
  member: StaffMemberSummary;
  isSelf: boolean;
  onChanged: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [role, setRole] = useState<StaffRole>(member.role);
  const [failure, setFailure] = useState<string | null>(null);
  const who = member.display_name || member.email;
  const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.staff });
  const onError = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
  };

  const changeRole = useMutation({
    mutationFn: (next: StaffRole) => stepUp.run(() => teamCalls.changeRole(member.id, next)),
    onSuccess: async (_reply, next) => {
      setFailure(null);
      onChanged(`${who} is now ${ROLE_LABELS[next].toLowerCase()}.`);
      await refresh();
    },
    onError,
  });
  const setEnabled = useMutation({
    mutationFn: (enabled: boolean) => stepUp.run(() => teamCalls.setEnabled(member.id, enabled)),
    onSuccess: async (_reply, enabled) => {
      setFailure(null);
      onChanged(enabled ? `${who} can sign in again.` : `${who} can no longer sign in.`);
      await refresh();
    },
    onError,
  });
  const roleId = `role-${member.id}`;
  const errorId = `member-error-${member.id}`;
  const disabled = member.status === 'disabled';

  return (
    <tr>
      <th scope="row">
        <span className={styles.memberEmail}>{member.display_name || member.email}</span>
        {member.display_name ? (
          <>
            <br />
            <span className={styles.muted}>{member.email}</span>
          </>
        ) : null}
        {isSelf ? <span className={styles.muted}> (you)</span> : null}
      </th>
      <td>{STATUS_LABELS[member.status]}</td>
      <td>
        {member.method === 'oidc'
          ? 'University account'
          : member.method === 'password'
            ? 'Password and authenticator'
            : 'Not yet'}
      </td>
      <td>{member.last_sign_in_at ? formatDateTime(member.last_sign_in_at) : 'Never'}</td>
      <td>
        {isSelf ? (
          <span>{ROLE_LABELS[member.role]}</span>
        ) : (
          <div className={styles.rowActions}>
            <form
              className={styles.roleForm}
              onSubmit={(event) => {
                event.preventDefault();
                setFailure(null);
                changeRole.mutate(role);
              }}
            >
              <label htmlFor={roleId} className="visually-hidden">
                Role of {who}
              </label>
              <select
                id={roleId}
                className={cx(styles.select, styles.selectSmall)}
                value={role}
                aria-describedby={errorId}
                onChange={(event) => setRole(event.target.value as StaffRole)}
              >
                {STAFF_ROLES.map((value) => (
                  <option key={value} value={value}>
                    {ROLE_LABELS[value]}
                  </option>
                ))}
              </select>
              <button
                type="submit"
                className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
                disabled={role === member.role || changeRole.isPending}
                aria-label={`Save the role of ${who}`}
              >
                Save role
              </button>
            </form>
            <button
              type="button"
              className={cx(buttonStyles.button, buttonStyles.secondary, styles.smallButton)}
              disabled={setEnabled.isPending}
              aria-label={`${disabled ? 'Enable' : 'Disable'} ${who}`}
              aria-describedby={errorId}
              onClick={() => {
                setFailure(null);
                setEnabled.mutate(disabled);
              }}
            >
              {disabled ? 'Enable' : 'Disable'}
            </button>
          </div>
        )}
        <div id={errorId} role="alert" className={authStyles.errors}>
          {failure ? <p className={authStyles.error}>{failure}</p> : null}
        </div>
      </td>
    </tr>
  );
}

export { TeamPage as Component };
