import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useParams } from 'react-router';
import type { CreditEvaluationView } from '../../../shared/credit/credit-api';
import {
  CREDIT_OUTCOME_LABELS,
  type CreditCourse,
  type ReviewStatus,
} from '../../../shared/credit/credit-evaluation';
import { REQUIREMENT_STATUS_LABELS } from '../../../shared/credit/credit-requirements';
import { EQUIVALENCY_KINDS } from '../../../shared/credit/equivalency';
import { ServerError } from '../../data/http-client';
import { useTenantConfig } from '../../data/tenant';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { applicationPath } from '../common/application-paths';
import { ConfirmDialog } from '../shell/confirm-dialog';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { creditCalls, creditEvaluationQuery, creditKeys } from './credit-calls';
import { CREDIT_KEY_HELP, type CreditKeyAction, creditKeyFor, movedIndex } from './credit-keys';
import styles from './credit-page.module.css';
import {
  type CorrectionDraft,
  type CorrectionErrors,
  type CorrectionField,
  correctionBody,
  courseCode,
  courseUnitsText,
  emptyDraft,
  gradeText,
  mappedText,
  mappingText,
  reviewAnnouncement,
  reviewedText,
  reviewText,
  serverCorrectionErrors,
} from './credit-text';

function CreditPage() {
  const { applicationId = '' } = useParams();
  return <CreditScreen key={applicationId} id={applicationId} />;
}

function CreditScreen({ id }: { id: string }) {
  const evaluation = useQuery(creditEvaluationQuery(id));
  const tenant = useTenantConfig();
  const back = (
    <p>
      <Link to={applicationPath(id, '')} className={styles.back}>
        Back to the application
      </Link>
    </p>
  );
  useEffect(() => {
    const name = evaluation.data?.applicant_name;
    document.title = `${name ? `${name} | ` : ''}Transfer credit | ${tenant.partner_name}`;
  }, [evaluation.data?.applicant_name, tenant.partner_name]);

  if (evaluation.isPending)
    return (
      <p role="status" className={consoleStyles.muted}>
        <LoadingIndicator type="circles" size="xs" /> Loading the transfer credit...
      </p>
    );
  if (evaluation.isError)
    return (
      <>
        <PageHeading title="Transfer credit" />
        <FormAlert
          message={
            evaluation.error instanceof ServerError && evaluation.error.status === 404
              ? 'There is no application with this id. It may have been removed.'
              : serverMessage(evaluation.error)
          }
        />
        {back}
      </>
    );
  return <Evaluator id={id} view={evaluation.data} back={back} />;
}

type Pane = 'transcript' | 'preview';

function Evaluator({
  id,
  view,
  back,
}: {
  id: string;
  view: CreditEvaluationView;
  back: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [collegeIndex, setCollegeIndex] = useState(0);
  const college = view.colleges[collegeIndex] ?? view.colleges[0];
  const courses = useMemo(
    () => view.courses.filter((course) => course.grid_key === college?.grid_key),
    [view.courses, college?.grid_key],
  );
  const [current, setCurrent] = useState(0);
  const [correcting, setCorrecting] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [pane, setPane] = useState<Pane>('transcript');
  const rows = useRef(new Map<string, HTMLTableRowElement>());
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const canEvaluate = view.can_evaluate;
  const switchId = useId();

  const currentCourse = courses[Math.min(current, Math.max(courses.length - 1, 0))];

  const focusRow = useCallback(
    (index: number) => {
      const course = courses[index];
      setCurrent(index);
      if (course) rows.current.get(course.ref)?.focus();
    },
    [courses],
  );

  const setView = useCallback(
    (next: CreditEvaluationView) => {
      queryClient.setQueryData(creditKeys.evaluation(id), next);
    },
    [queryClient, id],
  );

  /** Reviews go one after another, so each answer is newer than the one before it. */
  const enqueue = useCallback(
    (
      course: CreditCourse,
      done: ReviewStatus | 'undone',
      call: () => Promise<CreditEvaluationView>,
      /** A correction's form shows its own failure beside its fields. */
      reportFailure = true,
    ): Promise<CreditEvaluationView> => {
      const run = chain.current.then(call);
      chain.current = run.catch(() => undefined);
      return run.then(
        (next) => {
          setView(next);
          setFailure(null);
          setAnnouncement(reviewAnnouncement(courseCode(course), done, next));
          return next;
        },
        (error: unknown) => {
          if (reportFailure) setFailure(`${courseCode(course)}: ${serverMessage(error)}`);
          throw error;
        },
      );
    },
    [setView],
  );

  const act = (action: CreditKeyAction, index: number) => {
    const course = courses[index];
    if (!course) return;
    switch (action) {
      case 'verify':
        void enqueue(course, 'verified', () =>
          creditCalls.review(id, {
            course_ref: course.ref,
            status: 'verified',
            grade: null,
            units: null,
            mapping: null,
            reason: '',
          }),
        ).catch(() => undefined);
        focusRow(movedIndex('down', index, courses.length));
        return;
      case 'not_on_transcript':
        void enqueue(course, 'not_on_transcript', () =>
          creditCalls.review(id, {
            course_ref: course.ref,
            status: 'not_on_transcript',
            grade: null,
            units: null,
            mapping: null,
            reason: '',
          }),
        ).catch(() => undefined);
        return;
      case 'undo':
        if (!course.review) {
          setAnnouncement(`${courseCode(course)} has no review to undo.`);
          return;
        }
        void enqueue(course, 'undone', () => creditCalls.undo(id, course.ref)).catch(
          () => undefined,
        );
        return;
      case 'correct':
        setCurrent(index);
        setCorrecting(course.ref);
        return;
      default:
        focusRow(movedIndex(action, index, courses.length));
    }
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    if (event.target !== event.currentTarget) return;
    const action = creditKeyFor(event, { tagName: 'TR' }, canEvaluate && correcting === null);
    if (!action) return;
    event.preventDefault();
    act(action, index);
  };

  const closeCorrection = (ref: string) => {
    setCorrecting(null);
    // The row is back in the list: the focus returns to it.
    requestAnimationFrame(() => rows.current.get(ref)?.focus());
  };

  const toolbarAction = (action: CreditKeyAction) => {
    act(action, current);
    if (action !== 'correct' && action !== 'verify') {
      const course = courses[current];
      if (course) rows.current.get(course.ref)?.focus();
    }
  };

  return (
    <>
      <PageHeading title="Transfer credit" />
      <div className={styles.intro}>
        <p className={styles.applicant}>
          {view.applicant_name || 'Applicant'}
          {back}
        </p>
        <EstimateActions id={id} view={view} onPreview={() => setPane('preview')} />
      </div>
      <p role="status" aria-live="polite" className={styles.announcement}>
        {announcement}
      </p>
      <FormAlert message={failure} />
      <Totals view={view} />
      {view.colleges.length > 1 ? (
        <div className={styles.switcher}>
          <label htmlFor={switchId}>College</label>
          <select
            id={switchId}
            className={consoleStyles.select}
            value={collegeIndex}
            onChange={(event) => {
              setCollegeIndex(Number(event.target.value));
              setCurrent(0);
              setCorrecting(null);
              setPane('transcript');
            }}
          >
            {view.colleges.map((entry, index) => (
              <option key={entry.grid_key} value={index}>
                {entry.name || `College ${index + 1}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className={styles.panes}>
        <section aria-labelledby="credit-courses-title" className={styles.gridPane}>
          <h2 id="credit-courses-title" className={styles.paneTitle}>
            Courses{college ? ` at ${college.name}` : ''}
          </h2>
          {college && !college.has_table ? (
            <p className={consoleStyles.muted}>
              No equivalency table is loaded for this college: every course needs review.
            </p>
          ) : null}
          {canEvaluate && currentCourse ? (
            <div className={styles.toolbar}>
              <Button
                type="button"
                variant="secondary"
                className={styles.toolButton}
                aria-keyshortcuts="V"
                onClick={() => toolbarAction('verify')}
              >
                Verify
              </Button>
              <Button
                type="button"
                variant="secondary"
                className={styles.toolButton}
                aria-keyshortcuts="C"
                onClick={() => toolbarAction('correct')}
              >
                Correct
              </Button>
              <Button
                type="button"
                variant="secondary"
                className={styles.toolButton}
                aria-keyshortcuts="N"
                onClick={() => toolbarAction('not_on_transcript')}
              >
                Not on the transcript
              </Button>
              <Button
                type="button"
                variant="secondary"
                className={styles.toolButton}
                aria-keyshortcuts="U"
                onClick={() => toolbarAction('undo')}
              >
                Undo review
              </Button>
            </div>
          ) : null}
          {courses.length === 0 ? (
            <p>This college has no courses.</p>
          ) : (
            <div className={styles.tableFrame}>
              <table className={styles.table} aria-describedby="credit-keys-hint">
                <caption className={styles.hidden}>
                  Courses{college ? ` at ${college.name}` : ''}, one row per course
                </caption>
                <colgroup>
                  <col className={styles.colTerm} />
                  <col className={styles.colCourse} />
                  <col className={styles.colUnits} />
                  <col className={styles.colGrade} />
                  <col />
                  <col className={styles.colReview} />
                </colgroup>
                <thead>
                  <tr>
                    <th scope="col">Term</th>
                    <th scope="col">Course</th>
                    <th scope="col">Units</th>
                    <th scope="col">Grade</th>
                    <th scope="col">Mapping</th>
                    <th scope="col">Review</th>
                  </tr>
                </thead>
                <tbody>
                  {courses.map((course, index) => (
                    <CourseRows
                      key={course.ref}
                      course={course}
                      current={index === current}
                      correcting={correcting === course.ref}
                      rowRef={(element) => {
                        if (element) rows.current.set(course.ref, element);
                        else rows.current.delete(course.ref);
                      }}
                      onFocus={() => setCurrent(index)}
                      onKeyDown={(event) => onRowKeyDown(event, index)}
                      onCancel={() => closeCorrection(course.ref)}
                      onSubmit={(body) =>
                        enqueue(
                          course,
                          'corrected',
                          () => creditCalls.review(id, body),
                          false,
                        ).then(() => closeCorrection(course.ref))
                      }
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Requirements view={view} />
          <KeyHelp canEvaluate={canEvaluate} />
        </section>
        <section aria-labelledby="credit-pane-title" className={styles.pdfPane}>
          {pane === 'preview' ? (
            <PreviewPane id={id} onClose={() => setPane('transcript')} />
          ) : college ? (
            <TranscriptPane id={id} view={view} gridKey={college.grid_key} name={college.name} />
          ) : null}
        </section>
      </div>
    </>
  );
}

function CourseRows({
  course,
  current,
  correcting,
  rowRef,
  onFocus,
  onKeyDown,
  onCancel,
  onSubmit,
}: {
  course: CreditCourse;
  current: boolean;
  correcting: boolean;
  rowRef: (element: HTMLTableRowElement | null) => void;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => void;
  onCancel: () => void;
  onSubmit: (body: Parameters<typeof creditCalls.review>[1]) => Promise<void>;
}) {
  const code = courseCode(course);
  const status = course.review?.status ?? 'none';
  return (
    <>
      <tr
        ref={rowRef}
        tabIndex={current ? 0 : -1}
        aria-current={current ? 'true' : undefined}
        aria-label={`${code}, ${course.title}, ${course.term}: ${courseUnitsText(course)} units, grade ${gradeText(course)}, ${mappingText(course.mapping)}, ${reviewText(course)}`}
        className={cx(styles.row, current && styles.currentRow)}
        data-ref={course.ref}
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      >
        <td>{course.term}</td>
        <td>
          <span className={styles.code}>{code}</span>
          <span className={styles.title}>{course.title}</span>
        </td>
        <td>{courseUnitsText(course)}</td>
        <td>{gradeText(course)}</td>
        <td>
          {mappingText(course.mapping)}
          {course.outcome !== 'transfers' ? (
            <span className={styles.outcome}>{CREDIT_OUTCOME_LABELS[course.outcome]}</span>
          ) : null}
        </td>
        <td>
          <span className={cx(styles.status, styles[`status-${status}`])}>
            {reviewText(course)}
          </span>
          {course.review?.reason ? (
            <span className={styles.reason}>{course.review.reason}</span>
          ) : null}
        </td>
      </tr>
      {correcting ? (
        <tr className={styles.formRow}>
          <td colSpan={6}>
            <CorrectionForm course={course} onCancel={onCancel} onSubmit={onSubmit} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

const FIELD_LABELS: Record<CorrectionField, string> = {
  grade: 'Grade on the transcript',
  units: 'Units on the transcript',
  kind: 'Mapping',
  local_course: 'Local course',
  local_units: 'Local units',
  satisfies: 'Satisfies (codes, comma separated)',
  reason: 'Reason (required)',
};

function CorrectionForm({
  course,
  onCancel,
  onSubmit,
}: {
  course: CreditCourse;
  onCancel: () => void;
  onSubmit: (body: Parameters<typeof creditCalls.review>[1]) => Promise<void>;
}) {
  const [draft, setDraft] = useState<CorrectionDraft>(() => emptyDraft(course));
  const [errors, setErrors] = useState<CorrectionErrors>({});
  const [saving, setSaving] = useState(false);
  const base = useId();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const checked = correctionBody(course.ref, draft);
    if (checked.errors) {
      setErrors(checked.errors);
      focusFirstError(base, checked.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    onSubmit(checked.body).catch((error: unknown) => {
      setSaving(false);
      const found = error instanceof ServerError ? serverCorrectionErrors(error.errors) : {};
      const next = Object.keys(found).length > 0 ? found : { form: serverMessage(error) };
      setErrors(next);
      focusFirstError(base, next);
    });
  };

  const field = (name: Exclude<CorrectionField, 'kind'>, hint?: string) => {
    const inputId = `${base}-${name}`;
    const errorId = `${inputId}-error`;
    const hintId = `${inputId}-hint`;
    const error = errors[name];
    return (
      <div className={styles.field}>
        <label htmlFor={inputId}>{FIELD_LABELS[name]}</label>
        {hint ? (
          <span id={hintId} className={styles.hint}>
            {hint}
          </span>
        ) : null}
        <input
          id={inputId}
          ref={name === 'grade' ? first : undefined}
          type="text"
          className={styles.input}
          value={draft[name]}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined
          }
          onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
        />
        {error ? (
          <span id={errorId} className={styles.error}>
            {error}
          </span>
        ) : null}
      </div>
    );
  };

  const kindId = `${base}-kind`;
  return (
    <form
      noValidate
      className={styles.correction}
      aria-label={`Correct ${courseCode(course)}`}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <p className={styles.hint}>
        Entered: {course.units || 'no'} units, grade {course.grade || 'none'}. Leave a field empty
        to keep what was entered.
      </p>
      {errors.form ? (
        <p role="alert" className={styles.error}>
          {errors.form}
        </p>
      ) : null}
      <div className={styles.fields}>
        {field('grade')}
        {field('units')}
        <div className={styles.field}>
          <label htmlFor={kindId}>{FIELD_LABELS.kind}</label>
          <select
            id={kindId}
            className={styles.input}
            value={draft.kind}
            aria-invalid={errors.kind ? true : undefined}
            aria-describedby={errors.kind ? `${kindId}-error` : undefined}
            onChange={(event) =>
              setDraft({ ...draft, kind: event.target.value as CorrectionDraft['kind'] })
            }
          >
            <option value="">Keep: {mappingText(course.mapping)}</option>
            {EQUIVALENCY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind === 'course' ? 'Course' : kind === 'elective' ? 'Elective' : 'No credit'}
              </option>
            ))}
          </select>
          {errors.kind ? (
            <span id={`${kindId}-error`} className={styles.error}>
              {errors.kind}
            </span>
          ) : null}
        </div>
        {draft.kind !== '' ? (
          <>
            {field('local_course', 'Such as MATH 150')}
            {field('local_units')}
            {field('satisfies', 'Such as GE-B4, GE-A2')}
          </>
        ) : null}
      </div>
      {field('reason', 'As the transcript shows it')}
      <div className={styles.formActions}>
        <Button type="submit" variant="primary" className={consoleStyles.smallButton}>
          {saving ? 'Saving...' : 'Save correction'}
        </Button>
        <Button
          type="button"
          variant="secondary"
          className={consoleStyles.smallButton}
          onClick={onCancel}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

function focusFirstError(base: string, errors: CorrectionErrors) {
  const order: CorrectionField[] = [
    'grade',
    'units',
    'kind',
    'local_course',
    'local_units',
    'satisfies',
    'reason',
  ];
  const field = order.find((name) => errors[name]);
  if (field) document.getElementById(`${base}-${field}`)?.focus();
}

function Totals({ view }: { view: CreditEvaluationView }) {
  const { totals, summary } = view;
  return (
    <section aria-labelledby="credit-totals-title" className={styles.totals}>
      <h2 id="credit-totals-title" className={styles.hidden}>
        Totals
      </h2>
      <dl className={styles.totalsList}>
        <div>
          <dt>Transfer GPA</dt>
          <dd data-testid="credit-gpa">{totals.transfer_gpa ?? 'None yet'}</dd>
        </div>
        <div>
          <dt>Transferable units</dt>
          <dd>{totals.transfer_units}</dd>
        </div>
        <div>
          <dt>Local credit units</dt>
          <dd>{totals.credit_units}</dd>
        </div>
        <div>
          <dt>Pending</dt>
          <dd>{totals.pending_credit_units}</dd>
        </div>
        <div>
          <dt>Mapped</dt>
          <dd>{mappedText(summary)}</dd>
        </div>
        <div>
          <dt>Reviewed</dt>
          <dd>{reviewedText(summary)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Requirements({ view }: { view: CreditEvaluationView }) {
  if (view.requirements.length === 0) return null;
  return (
    <section aria-labelledby="credit-requirements-title" className={styles.requirements}>
      <h3 id="credit-requirements-title" className={styles.paneTitle}>
        Requirements
      </h3>
      <ul className={styles.requirementList}>
        {view.requirements.map((requirement) => (
          <li key={requirement.id} data-requirement={requirement.id}>
            <span className={cx(styles.status, styles[`requirement-${requirement.status}`])}>
              {REQUIREMENT_STATUS_LABELS[requirement.status]}
            </span>{' '}
            <strong>{requirement.label}</strong>
            <span className={styles.reason}>{requirement.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function KeyHelp({ canEvaluate }: { canEvaluate: boolean }) {
  return (
    <details className={styles.keys} open>
      <summary>Keyboard shortcuts</summary>
      <p id="credit-keys-hint" className={consoleStyles.muted}>
        Select a course row, then press a key alone (not while typing in a field).
      </p>
      <dl className={styles.keyList}>
        {CREDIT_KEY_HELP.filter((entry) => canEvaluate || !entry.review).map((entry) => (
          <div key={entry.does}>
            <dt>
              {entry.keys.map((key, index) => (
                <span key={key}>
                  {index > 0 ? ' or ' : ''}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{entry.does}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** A PDF in the pane: fetched, then shown from a blob address (the policy forbids framing ours). */
function usePdfBlobUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

function TranscriptPane({
  id,
  view,
  gridKey,
  name,
}: {
  id: string;
  view: CreditEvaluationView;
  gridKey: string;
  name: string;
}) {
  const queryClient = useQueryClient();
  const transcript = view.transcripts.find((entry) => entry.grid_key === gridKey) ?? null;
  const pdfUrl = transcript?.pdf_url ?? null;
  const file = useQuery({
    queryKey: creditKeys.transcript(pdfUrl ?? '', transcript?.file_name ?? ''),
    queryFn: () => creditCalls.transcript(pdfUrl ?? ''),
    enabled: pdfUrl !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const url = usePdfBlobUrl(pdfUrl ? file.data?.blob : undefined);
  const [status, setStatus] = useState('');
  const attach = useMutation({
    mutationFn: (chosen: File) => creditCalls.attachTranscript(id, gridKey, chosen),
    onSuccess: (next, chosen) => {
      void queryClient.removeQueries({ queryKey: ['staff', 'credit', 'transcript'] });
      queryClient.setQueryData(creditKeys.evaluation(id), next);
      setStatus(`Transcript ${chosen.name} attached.`);
    },
  });
  const inputId = useId();

  return (
    <>
      <h2 id="credit-pane-title" className={styles.paneTitle}>
        Transcript{name ? ` from ${name}` : ''}
      </h2>
      {transcript ? (
        <p className={consoleStyles.muted}>{transcript.file_name}</p>
      ) : (
        <p>No official transcript is attached for this college.</p>
      )}
      {pdfUrl === null && transcript ? <p>The transcript is being converted.</p> : null}
      {file.isError ? <FormAlert message={serverMessage(file.error)} /> : null}
      {url ? (
        <iframe className={styles.frame} title={`Transcript from ${name}`} src={url} />
      ) : transcript && file.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          Loading the transcript...
        </p>
      ) : null}
      {view.can_evaluate ? (
        <div className={styles.attach}>
          <label htmlFor={inputId}>
            {transcript
              ? 'Replace the official transcript (PDF)'
              : 'Attach the official transcript (PDF)'}
          </label>
          <input
            id={inputId}
            type="file"
            accept="application/pdf,.pdf"
            disabled={attach.isPending}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (chosen) {
                setStatus('Attaching the transcript...');
                attach.mutate(chosen);
              }
            }}
          />
        </div>
      ) : null}
      <p role="status" className={styles.paneStatus}>
        {attach.isError ? '' : status}
      </p>
      <FormAlert message={attach.isError ? serverMessage(attach.error) : null} />
    </>
  );
}

function PreviewPane({ id, onClose }: { id: string; onClose: () => void }) {
  const file = useQuery({
    queryKey: creditKeys.preview(id),
    queryFn: () => creditCalls.preview(id),
    gcTime: 0,
    retry: false,
  });
  const url = usePdfBlobUrl(file.data?.blob);
  return (
    <>
      <h2 id="credit-pane-title" className={styles.paneTitle}>
        Estimate preview
      </h2>
      <Button type="button" variant="link" onClick={onClose}>
        Show the transcript
      </Button>
      {file.isError ? <FormAlert message={serverMessage(file.error)} /> : null}
      {url ? (
        <iframe className={styles.frame} title="Credit estimate preview" src={url} />
      ) : file.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          Preparing the preview...
        </p>
      ) : null}
    </>
  );
}

function EstimateActions({
  id,
  view,
  onPreview,
}: {
  id: string;
  view: CreditEvaluationView;
  onPreview: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const release = useMutation({
    mutationFn: () => creditCalls.release(id),
    onSuccess: (released) => {
      queryClient.setQueryData<CreditEvaluationView>(creditKeys.evaluation(id), (old) =>
        old ? { ...old, estimate: released } : old,
      );
    },
  });
  return (
    <div className={styles.estimate}>
      <p className={styles.released} role="status">
        {view.estimate
          ? `Estimate released on ${formatDateTime(view.estimate.released_at)} by ${view.estimate.released_by}.`
          : 'Estimate not released yet.'}
      </p>
      <div className={consoleStyles.inlineButtons}>
        <Button
          type="button"
          variant="secondary"
          className={consoleStyles.smallButton}
          onClick={onPreview}
        >
          Preview estimate (PDF)
        </Button>
        {view.can_evaluate ? (
          <Button
            type="button"
            variant="primary"
            className={consoleStyles.smallButton}
            aria-disabled={release.isPending || undefined}
            onClick={() => {
              if (!release.isPending) setConfirming(true);
            }}
          >
            {release.isPending
              ? 'Releasing...'
              : view.estimate
                ? 'Release credit estimate again'
                : 'Release credit estimate'}
          </Button>
        ) : null}
      </div>
      <FormAlert message={release.isError ? serverMessage(release.error) : null} />
      <ConfirmDialog
        open={confirming}
        title="Release the credit estimate?"
        description="The applicant will see this estimate of their transfer credit as it stands now."
        action="Release credit estimate"
        onConfirm={() => {
          setConfirming(false);
          release.mutate();
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

export { CreditPage as Component };
