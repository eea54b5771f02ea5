import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import styles from '../shell/console.module.css';
import { PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { InviteSection } from './invite-section';
import { MembersTable } from './members-table';
import { teamCalls, teamKeys } from './team-calls';

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

export { TeamPage as Component };
