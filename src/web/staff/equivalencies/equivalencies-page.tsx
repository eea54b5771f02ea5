import { useQuery } from '@tanstack/react-query';
import styles from '../shell/console.module.css';
import { PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { equivalenciesCalls, equivalenciesKeys } from './equivalencies-calls';
import { ImportSection } from './import-section';
import { TablesList } from './tables-list';

/** Equivalency tables (`credit.tables`): how each sending college's courses transfer here. */
function EquivalenciesPage() {
  const tables = useQuery({
    queryKey: equivalenciesKeys.tables,
    queryFn: equivalenciesCalls.tables,
    refetchOnMount: 'always',
  });
  return (
    <>
      <PageHeading
        title="Equivalency tables"
        intro="How each sending college's courses transfer here. Check a file first; importing it replaces the tables of the colleges it names and leaves the others."
      />
      <ImportSection />
      <section className={styles.section} aria-labelledby="tables-title">
        <h2 id="tables-title" className={styles.sectionTitle}>
          Tables
        </h2>
        {tables.isPending ? (
          <p className={styles.muted}>Loading the tables...</p>
        ) : tables.isError ? (
          <FormAlert message={serverMessage(tables.error)} />
        ) : (
          <TablesList tables={tables.data} />
        )}
      </section>
    </>
  );
}

export { EquivalenciesPage as Component };
