import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/staff/permissions';
import type { StaffMemberSummary } from '../../../shared/staff/staff-api';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import authStyles from '../../ui/form-controls.module.css';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { teamCalls, teamKeys } from './team-calls';

const STATUS_LABELS: Record<StaffMemberSummary['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
};

export function MembersTable({
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
              <Button
                type="submit"
                variant="secondary"
                className={styles.smallButton}
                disabled={role === member.role || changeRole.isPending}
                aria-label={`Save the role of ${who}`}
              >
                Save role
              </Button>
            </form>
            <Button
              type="button"
              variant="secondary"
              className={styles.smallButton}
              disabled={setEnabled.isPending}
              aria-label={`${disabled ? 'Enable' : 'Disable'} ${who}`}
              aria-describedby={errorId}
              onClick={() => {
                setFailure(null);
                setEnabled.mutate(disabled);
              }}
            >
              {disabled ? 'Enable' : 'Disable'}
            </Button>
          </div>
        )}
        <div id={errorId} role="alert" className={authStyles.errors}>
          {failure ? <p className={authStyles.error}>{failure}</p> : null}
        </div>
      </td>
    </tr>
  );
}
