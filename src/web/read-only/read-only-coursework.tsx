import type { CourseworkSubtotals } from '../../shared/coursework/coursework-totals';
import type {
  PrintableCoursework,
  PrintableEntry,
  PrintablePage,
  PrintableRow,
} from '../../shared/form/printable';
import { CourseworkAmounts } from './coursework-amounts';
import styles from './read-only-coursework.module.css';

const STATUS_NAMES: Record<PrintableCoursework['terms'][number]['status'], string> = {
  completed: 'Completed',
  in_progress: 'In progress',
  planned: 'Planned',
};

const SYSTEM_NAMES: Record<PrintableCoursework['system'], string> = {
  quarter: 'Quarter',
  semester: 'Semester',
};

/**
 * One college's coursework as the printable projection holds it: a table per term, its caption
 * naming the term and its status, repeats marked, then the college's subtotals.
 */
export function CourseworkRow({ row }: { row: PrintableRow & { value: PrintableCoursework } }) {
  const { value } = row;
  return (
    // Not named, so not a landmark: with two colleges, two regions would share the grid's label.
    <section className={styles.coursework} data-key={row.key}>
      <p className={styles.label}>{row.label}</p>
      {value.terms.length === 0 ? (
        <p className={styles.none}>No courses entered.</p>
      ) : (
        <>
          <p className={styles.system}>Term system: {SYSTEM_NAMES[value.system]}</p>
          {value.terms.map((term, index) => {
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: terms are told apart by place.
              <div key={index}>
                <table className={styles.table}>
                  <caption className={styles.caption}>
                    {term.name} · {STATUS_NAMES[term.status]}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Subject</th>
                      <th scope="col">Number</th>
                      <th scope="col">Course title</th>
                      <th scope="col" className={styles.numeric}>
                        Units
                      </th>
                      <th scope="col">Grade</th>
                    </tr>
                  </thead>
                  <tbody>
                    {term.courses.length === 0 ? (
                      <tr>
                        <td colSpan={5} className={styles.none}>
                          No courses entered for this term.
                        </td>
                      </tr>
                    ) : (
                      term.courses.map((course, courseIndex) => (
                        <tr
                          // biome-ignore lint/suspicious/noArrayIndexKey: rows are told apart by place.
                          key={courseIndex}
                          className={course.repeat ? styles.repeat : undefined}
                        >
                          <td>{course.subject}</td>
                          <td>{course.number}</td>
                          <td>
                            {course.title}
                            {course.repeat ? (
                              <span className={styles.repeatNote}>Repeat — not counted</span>
                            ) : null}
                          </td>
                          <td className={styles.numeric}>{course.units}</td>
                          <td>{course.grade}</td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </table>
              </div>
            );
          })}
          {value.subtotals ? (
            <div className={styles.subtotals}>
              <p className={styles.totalsTitle}>
                This college <span className={styles.note}>(semester units)</span>
              </p>
              <CourseworkAmounts
                amounts={value.subtotals}
                label={`${row.label}: this college`}
                withGradedUnits
              />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The application's transfer GPA and units, all colleges together, once. */
export function CourseworkTotalsSection({
  totals,
  level,
}: {
  totals: CourseworkSubtotals;
  level: 2 | 3 | 4 | 5 | 6;
}) {
  const Tag = `h${level}` as const;
  return (
    <section className={styles.totals} aria-labelledby="coursework-totals-title">
      <Tag id="coursework-totals-title" className={styles.totalsTitle}>
        Transfer GPA and units, all colleges <span className={styles.note}>(semester units)</span>
      </Tag>
      <CourseworkAmounts amounts={totals} label="All colleges" withGradedUnits />
    </section>
  );
}

/** Whether a page of the projection holds a coursework grid, somewhere in its groups. */
export function hasCoursework(page: PrintablePage): boolean {
  const inEntries = (entries: readonly PrintableEntry[]): boolean =>
    entries.some((entry) => {
      switch (entry.kind) {
        case 'row':
          return entry.value.kind === 'coursework';
        case 'repeat':
          return entry.instances.some((instance) => inEntries(instance.entries));
        default:
          return inEntries(entry.entries);
      }
    });
  return page.groups.some((group) => inEntries(group.entries));
}

export function isCourseworkRow(
  entry: PrintableEntry,
): entry is PrintableRow & { value: PrintableCoursework } {
  return entry.kind === 'row' && entry.value.kind === 'coursework';
}
