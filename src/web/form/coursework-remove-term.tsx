import type { RefObject } from 'react';
import { termName } from '../../shared/coursework/coursework';
import { isBlankCourse, type TermEntry } from '../../shared/coursework/coursework-answer';
import { Modal } from '../modal/modal';
import { Button } from '../ui/button';
import styles from './coursework-grid.module.css';

/** Courses entered in a term: what removing it would lose. */
export function filledCourses(term: TermEntry): number {
  return term.courses.filter((course) => !isBlankCourse(course)).length;
}

/** Asks before a term with courses goes: a slip of the finger should not lose a transcript. */
export function RemoveTermDialog({
  term,
  onCancel,
  onConfirm,
  returnFocusRef,
}: {
  term: TermEntry | null;
  /** Where the focus goes once the dialog closes: what the grid focused after the removal. */
  returnFocusRef: RefObject<HTMLElement | null>;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const count = term ? filledCourses(term) : 0;
  const name = term ? termName(term) : '';
  return (
    <Modal
      title={term ? `Remove ${name}?` : 'Remove the term?'}
      size="xs"
      open={term !== null}
      returnFocusRef={returnFocusRef}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      {term ? (
        <>
          <p>Its {count === 1 ? 'course is' : `${count} courses are`} removed with it.</p>
          <div className={styles.dialogActions}>
            <Button type="button" variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="button" variant="primary" onClick={onConfirm}>
              Remove {name}
            </Button>
          </div>
        </>
      ) : null}
    </Modal>
  );
}
