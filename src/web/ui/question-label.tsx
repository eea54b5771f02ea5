import styles from './question-label.module.css';

/** The words after the label of a question that must be answered (decision 024). */
export const REQUIRED_MARK = '(required)';

/**
 * A question's label with its required mark. The control itself says "required" to screen
 * readers (aria-required), so the visible mark is hidden from them unless the control cannot.
 */
export function QuestionLabel({
  text,
  required,
  spoken = false,
}: {
  text: string;
  required: boolean;
  spoken?: boolean;
}) {
  return (
    <>
      {text}
      {required ? (
        <span className={styles.requiredMark} aria-hidden={spoken ? undefined : true}>
          {` ${REQUIRED_MARK}`}
        </span>
      ) : null}
    </>
  );
}
