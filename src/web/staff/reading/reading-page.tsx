import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/staff/permissions';
import { readersQuery } from '../committee/committee-calls';
import styles from '../shell/console.module.css';
import { PageHeading } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { ConflictsSection } from './conflicts-section';
import { type AgreementRow, percentText, readingCalls, readingKeys } from './reading-calls';
import { RulesSection } from './rules-section';

/** The reading settings: who reads what, who must not, how loaded readers are, how they agree. */
function ReadingPage() {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const committee = me?.permissions.includes('reviews.committee') ?? false;
  return (
    <>
      <PageHeading
        title="Reading"
        intro="Assignment rules, conflicts of interest, each reader's load and how far readers agree."
      />
      <RulesSection />
      <ConflictsSection />
      <LoadsSection />
      {committee ? <AgreementSection /> : null}
    </>
  );
}

const roleLabel = (role: string) =>
  (STAFF_ROLES as readonly string[]).includes(role) ? ROLE_LABELS[role as StaffRole] : role;

function LoadsSection() {
  const titleId = useId();
  const readers = useQuery(readersQuery);
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Readers’ loads
      </h2>
      {readers.isPending ? (
        <p className={styles.muted}>Loading the readers...</p>
      ) : readers.isError ? (
        <FormAlert message={serverMessage(readers.error)} />
      ) : readers.data.readers.length === 0 ? (
        <p className={styles.muted}>No member can read applications.</p>
      ) : (
        <div className={styles.tableFrame}>
          <table className={styles.table}>
            <caption className="visually-hidden">Each reader’s open and submitted reads</caption>
            <thead>
              <tr>
                <th scope="col">Reader</th>
                <th scope="col">Role</th>
                <th scope="col">Open reads</th>
                <th scope="col">Submitted reads</th>
              </tr>
            </thead>
            <tbody>
              {readers.data.readers.map((reader) => (
                <tr key={reader.id}>
                  <th scope="row">
                    {reader.name}
                    {reader.disabled ? <span className={styles.muted}> (disabled)</span> : null}
                  </th>
                  <td>{roleLabel(reader.role)}</td>
                  <td>{reader.open.toLocaleString('en-US')}</td>
                  <td>{reader.submitted.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function AgreementSection() {
  const titleId = useId();
  const agreement = useQuery({ queryKey: readingKeys.agreement, queryFn: readingCalls.agreement });
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        Agreement between readers
      </h2>
      <p className={styles.muted}>
        How far each application’s first and second reads are apart, per cycle.
      </p>
      {agreement.isPending ? (
        <p className={styles.muted}>Loading the agreement...</p>
      ) : agreement.isError ? (
        <FormAlert message={serverMessage(agreement.error)} />
      ) : (
        <AgreementTable rows={agreement.data} />
      )}
    </section>
  );
}

export function AgreementTable({ rows }: { rows: readonly AgreementRow[] }) {
  if (rows.length === 0)
    return <p className={styles.muted}>No application has two submitted reads yet.</p>;
  const number = (value: number | null | undefined, digits: number) =>
    value === null || value === undefined ? '' : value.toFixed(digits);
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">Agreement between readers per cycle</caption>
        <thead>
          <tr>
            <th scope="col">Cycle</th>
            <th scope="col">Applications read twice</th>
            <th scope="col">Mean difference</th>
            <th scope="col">Within the third-read gap</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.cycle}>
              <th scope="row">{row.cycle}</th>
              <td>{row.count?.toLocaleString('en-US') ?? ''}</td>
              <td>{number(row.mean_difference, 2)}</td>
              <td>{percentText(row.within_gap_share)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { ReadingPage as Component };
