import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { EQUIVALENCY_COLUMNS } from '../../../shared/credit/equivalency';
import type { EquivalencyImportSummary } from '../../../shared/credit/equivalency-api';
import { Button } from '../../ui/button';
import authStyles from '../../ui/form-controls.module.css';
import styles from '../shell/console.module.css';
import { serverMessage } from '../shell/staff-form';
import own from './equivalencies.module.css';
import {
  EquivalencyProblemsError,
  equivalenciesCalls,
  equivalenciesKeys,
  summaryText,
} from './equivalencies-calls';

type Result =
  | { kind: 'checked'; summary: EquivalencyImportSummary }
  | { kind: 'imported'; summary: EquivalencyImportSummary }
  | { kind: 'problems'; message: string; problems: readonly string[] }
  | { kind: 'failed'; message: string };

function resultOf(error: unknown): Result {
  return error instanceof EquivalencyProblemsError
    ? { kind: 'problems', message: error.message, problems: error.problems }
    : { kind: 'failed', message: serverMessage(error) };
}

/**
 * Choose a file, check it (every problem listed with its line, or what it holds), then import it:
 * the tables of the colleges it names are replaced. Each result takes the focus to be read out.
 */
export function ImportSection() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  // A new result (even the same one again) moves the focus to its heading.
  const [shown, setShown] = useState(0);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (shown > 0) resultHeading.current?.focus();
  }, [shown]);

  const show = (next: Result) => {
    setResult(next);
    setShown((count) => count + 1);
  };

  const check = useMutation({
    mutationFn: equivalenciesCalls.check,
    onSuccess: (summary) => show({ kind: 'checked', summary }),
    onError: (error) => show(resultOf(error)),
  });
  const importing = useMutation({
    mutationFn: equivalenciesCalls.importFile,
    onSuccess: async (summary) => {
      show({ kind: 'imported', summary });
      await queryClient.invalidateQueries({ queryKey: equivalenciesKeys.tables });
    },
    onError: (error) => show(resultOf(error)),
  });
  const pending = check.isPending || importing.isPending;

  const onCheck = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      show({ kind: 'failed', message: 'Choose a CSV file first.' });
      return;
    }
    check.mutate(file);
  };

  const checked = result?.kind === 'checked' ? result.summary : null;

  return (
    <section className={styles.section} aria-labelledby="import-title">
      <h2 id="import-title" className={styles.sectionTitle}>
        Import a table
      </h2>
      <form className={authStyles.form} onSubmit={onCheck} noValidate>
        <div className={authStyles.field}>
          <label htmlFor={inputId} className={authStyles.label}>
            Equivalency table (CSV)
          </label>
          <p id={hintId} className={authStyles.hint}>
            A header row with the columns {EQUIVALENCY_COLUMNS.join(', ')} (satisfies may be left
            out), then one course of a sending college a row; at most 8 MB. Importing replaces the
            tables of the colleges the file names.
          </p>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={hintId}
            className={own.fileInput}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setResult(null);
            }}
          />
        </div>
        <div className={styles.formActions}>
          <Button type="submit" variant="secondary" disabled={pending}>
            {check.isPending ? 'Checking...' : 'Check file'}
          </Button>
          {checked && file ? (
            <Button
              type="button"
              variant="primary"
              disabled={pending}
              onClick={() => importing.mutate(file)}
            >
              {importing.isPending ? 'Importing...' : 'Import'}
            </Button>
          ) : null}
        </div>
      </form>
      <div className={own.result}>
        <ResultPanel result={result} headingRef={resultHeading} />
      </div>
    </section>
  );
}

function ResultPanel({
  result,
  headingRef,
}: {
  result: Result | null;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  if (result === null) return <div role="status" />;
  if (result.kind === 'problems' || result.kind === 'failed') {
    return (
      <div role="alert" className={`${styles.notice} ${styles.noticeError}`}>
        <h3 ref={headingRef} tabIndex={-1} className={own.resultTitle}>
          {result.kind === 'problems' ? 'The file cannot be imported' : 'Something went wrong'}
        </h3>
        <p>{result.message}</p>
        {result.kind === 'problems' ? (
          <ul className={own.problems}>
            {result.problems.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered.
              <li key={index}>{problem}</li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  return (
    <div role="status" className={styles.notice}>
      <h3 ref={headingRef} tabIndex={-1} className={own.resultTitle}>
        {result.kind === 'checked' ? 'The file is ready to import' : 'Imported'}
      </h3>
      <p>
        {summaryText(result.summary)}
        {result.kind === 'checked'
          ? '. Import replaces the tables of these colleges.'
          : `, from ${result.summary.file_name}.`}
      </p>
    </div>
  );
}
