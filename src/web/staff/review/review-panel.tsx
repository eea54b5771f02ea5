import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Answers, AnswerValue } from '../../../shared/form/model';
import { hiddenAnswersPatch } from '../../../shared/form/resolve';
import { todayIso, type ValidationErrors, validateAnswers } from '../../../shared/form/validate';
import {
  type ApplicationReviews,
  type ReadView,
  ROUND_LABELS,
} from '../../../shared/review/review-api';
import { buildReviewForm, type ReviewForm, readScore } from '../../../shared/review/review-form';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { LoadingIndicator } from '../../ui/loading-indicator';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, FormErrorSummary, serverMessage } from '../shell/staff-form';
import { QueuePosition } from './queue-position';
import {
  applicationReviewsQuery,
  saveDraftMutation,
  startReadMutation,
  submitReadMutation,
  withMine,
} from './review-calls';
import { ReadAnswers, ReviewFields, shownFields } from './review-fields';
import {
  changedAnswers,
  fieldErrorsOf,
  STATUS_TEXT,
  savedAtText,
  scoreText,
  summaryOf,
} from './review-logic';
import styles from './review-panel.module.css';

/** How long typing pauses before the changed answers are saved. */
export const AUTOSAVE_WAIT_MS = 800;

/**
 * The reader's side of an application: their read (started, drafted, submitted) and the other
 * reads as far as they may see them. Made to stand in a narrow column that scrolls on its own.
 */
export function ReviewPanel({
  applicationId,
  queue = false,
}: {
  applicationId: string;
  /** Opened from the reader's queue: the panel says where this application stands in it. */
  queue?: boolean;
}) {
  const reviews = useQuery(applicationReviewsQuery(applicationId));
  const titleId = useId();
  const [announcement, setAnnouncement] = useState('');
  const heading = useRef<HTMLHeadingElement | null>(null);
  // The same sentence twice is not read twice by every screen reader: make it differ.
  const announce = useCallback((text: string, focusPanel = false) => {
    setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text));
    // The control pressed is about to go (a submitted read has no form): the focus goes to the
    // panel's heading, not to the page's start.
    if (focusPanel) heading.current?.focus();
  }, []);
  return (
    <section aria-labelledby={titleId} className={styles.panel}>
      <h2 id={titleId} className={styles.title} ref={heading} tabIndex={-1}>
        Your read
      </h2>
      {queue ? <QueuePosition applicationId={applicationId} /> : null}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {reviews.isPending ? (
        <p className={consoleStyles.muted}>
          <LoadingIndicator type="circles" size="xs" /> Loading the reads...
        </p>
      ) : reviews.isError ? (
        <FormAlert message={serverMessage(reviews.error)} />
      ) : (
        <LoadedReviews applicationId={applicationId} data={reviews.data} announce={announce} />
      )}
    </section>
  );
}

export function LoadedReviews({
  applicationId,
  data,
  announce,
}: {
  applicationId: string;
  data: ApplicationReviews;
  announce: (text: string, focusPanel?: boolean) => void;
}) {
  const form = useMemo(
    () => buildReviewForm(data.form, data.decision_codes),
    [data.form, data.decision_codes],
  );
  const mine = data.mine;
  return (
    <>
      {mine === null ? (
        data.can_start ? (
          <StartRead applicationId={applicationId} />
        ) : (
          <p className={consoleStyles.muted}>This application is not in your queue.</p>
        )
      ) : mine.status === 'submitted' ? (
        <SubmittedRead form={form} read={mine} />
      ) : (
        // A read given back by the server (another tab, a reassignment) starts the editor afresh.
        <ReadEditor
          key={mine.id}
          applicationId={applicationId}
          form={form}
          read={mine}
          announce={announce}
        />
      )}
      <OtherReads reads={data.others} form={form} codes={data.decision_codes} />
    </>
  );
}

function StartRead({ applicationId }: { applicationId: string }) {
  const queryClient = useQueryClient();
  const start = useMutation(startReadMutation(queryClient, applicationId));
  return (
    <div className={styles.start}>
      <p className={consoleStyles.muted}>This application is not assigned to you.</p>
      <FormAlert message={start.isError ? serverMessage(start.error) : null} />
      <Button
        type="button"
        variant="primary"
        disabled={start.isPending}
        onClick={() => start.mutate()}
      >
        {start.isPending ? 'Starting...' : 'Start a read'}
      </Button>
    </div>
  );
}

function SubmittedRead({ form, read }: { form: ReviewForm; read: ReadView }) {
  const score = read.score ?? readScore(form.criteria, read.answers);
  return (
    <div className={styles.submitted}>
      <p className={styles.submittedHead}>
        <strong>{ROUND_LABELS[read.round]}: submitted</strong>
        {read.submitted_at ? (
          <>
            {' '}
            <time dateTime={read.submitted_at}>{formatDateTime(read.submitted_at)}</time>
          </>
        ) : null}
      </p>
      <p className={styles.score}>
        Weighted score <strong>{scoreText(score)}</strong>
      </p>
      <ReadAnswers form={form} answers={read.answers} />
    </div>
  );
}

/** Why saving stopped for good: the read was submitted elsewhere or given to someone else. */
function isConflict(error: unknown): boolean {
  return error instanceof ServerError && (error.status === 409 || error.status === 403);
}

function ReadEditor({
  applicationId,
  form,
  read,
  announce,
}: {
  applicationId: string;
  form: ReviewForm;
  read: ReadView;
  announce: (text: string, focusPanel?: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const idBase = useId();
  const controlId = useCallback((key: string) => `${idBase}-${key}`, [idBase]);
  const [answers, setAnswers] = useState<Answers>(read.answers);
  const [errors, setErrors] = useState<ValidationErrors>({});
  const [saveText, setSaveText] = useState(
    read.saved_at ? savedAtText(new Date(read.saved_at)) : '',
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);
  const [summaryShown, setSummaryShown] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const summary = useRef<HTMLElement | null>(null);
  // What the server holds, so each save sends only what changed since.
  const saved = useRef<Answers>(read.answers);
  const latest = useRef<Answers>(read.answers);
  // Saves go one after another, so a slow one never lands after a newer one.
  const chain = useRef<Promise<boolean>>(Promise.resolve(true));
  // mutateAsync stays the same function across renders, so the save below does too.
  const { mutateAsync: saveDraft } = useMutation(saveDraftMutation(applicationId));
  const submit = useMutation(submitReadMutation(queryClient, applicationId));

  useEffect(() => {
    if (focusRequest > 0) summary.current?.focus();
  }, [focusRequest]);

  const refused = useCallback((error: unknown, focus: boolean) => {
    const fields = fieldErrorsOf(error);
    if (fields && error instanceof ServerError && error.status === 422) {
      setErrors(fields);
      setFailure(null);
      setSummaryShown(true);
      if (focus) setFocusRequest((count) => count + 1);
      return;
    }
    if (isConflict(error)) setLocked(true);
    setFailure(serverMessage(error));
  }, []);

  /** Saves what changed; true when the server holds every answer. */
  const save = useCallback(
    (focusOnError: boolean): Promise<boolean> => {
      const run = async (): Promise<boolean> => {
        const patch = changedAnswers(saved.current, latest.current);
        if (Object.keys(patch).length === 0) return true;
        setSaveText('Saving...');
        try {
          const stored = await saveDraft({ readId: read.id, patch });
          saved.current = { ...saved.current, ...patch };
          setSaveText(savedAtText(stored.saved_at ? new Date(stored.saved_at) : new Date()));
          setFailure(null);
          return true;
        } catch (error) {
          setSaveText('Draft not saved');
          refused(error, focusOnError);
          return false;
        }
      };
      chain.current = chain.current.then(run, run);
      return chain.current;
    },
    [saveDraft, read.id, refused],
  );

  // The waiting autosave: one timer per editor, restarted by each change.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const autosave = useMemo(() => {
    const cancel = () => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
    const schedule = () => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        void save(false);
      }, AUTOSAVE_WAIT_MS);
    };
    const flush = () => {
      if (timer.current === null) return;
      cancel();
      void save(false);
    };
    return Object.assign(schedule, { cancel, flush });
  }, [save]);
  // Leaving the application saves what is waiting rather than dropping it.
  useEffect(() => () => autosave.flush(), [autosave]);

  const onChange = useCallback(
    (key: string, value: AnswerValue) => {
      if (locked) return;
      const next = { ...latest.current, [key]: value };
      // An answer whose question a condition now hides is cleared, as on the application.
      const cleared = hiddenAnswersPatch(form.model, {
        answers: next,
        addAnother: {},
        tabs: {},
        isLoggedIn: true,
      });
      const answered = { ...next, ...cleared };
      latest.current = answered;
      setAnswers(answered);
      setErrors((previous) => {
        if (!(key in previous)) return previous;
        const { [key]: _fixed, ...rest } = previous;
        return rest;
      });
      autosave();
    },
    [autosave, form.model, locked],
  );

  async function onSaveDraft() {
    autosave.cancel();
    if (Object.keys(changedAnswers(saved.current, latest.current)).length === 0) {
      // Nothing waits: say so, so the button is never silent.
      setSaveText('No changes since the last save');
      return;
    }
    await save(true);
  }

  async function onSubmit() {
    autosave.cancel();
    // The same check as the server's, so the reader hears what is missing without a round trip.
    const found = validateAnswers(
      form.model,
      { answers: latest.current, addAnother: {}, tabs: {}, isLoggedIn: true },
      { today: todayIso() },
    );
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setSummaryShown(true);
      setFocusRequest((count) => count + 1);
      return;
    }
    setErrors({});
    setSummaryShown(false);
    if (!(await save(true))) return;
    try {
      const submitted = await submit.mutateAsync(read.id);
      withMine(queryClient, applicationId, submitted);
      announce('Read submitted', true);
    } catch (error) {
      refused(error, true);
    }
  }

  const shown = shownFields(form, answers);
  const entries = summaryShown ? summaryOf(shown, errors, controlId) : [];
  const busy = submit.isPending;

  return (
    <div className={styles.editor}>
      <p className={styles.readHead}>
        <strong>{ROUND_LABELS[read.round]}</strong>{' '}
        <span className={consoleStyles.muted}>{STATUS_TEXT[read.status]}</span>
      </p>
      <FormErrorSummary
        entries={entries}
        ref={(element) => {
          summary.current = element;
        }}
      />
      <FormAlert message={failure} />
      <form
        noValidate
        className={styles.form}
        aria-label="Review form"
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        <ReviewFields
          form={form}
          answers={answers}
          errors={errors}
          onChange={onChange}
          controlId={controlId}
          disabled={locked || busy}
        />
        <div className={styles.actions}>
          <Button type="submit" variant="primary" disabled={locked || busy}>
            {busy ? 'Submitting...' : 'Submit read'}
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={locked || busy}
            onClick={() => void onSaveDraft()}
          >
            Save draft
          </Button>
        </div>
        <p role="status" className={styles.saveStatus}>
          {saveText}
        </p>
      </form>
    </div>
  );
}

function OtherReads({
  reads,
  form,
  codes,
}: {
  reads: readonly ReadView[];
  form: ReviewForm;
  codes: readonly { value: string; label: string }[];
}) {
  const titleId = useId();
  if (reads.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className={styles.others}>
      <h3 id={titleId} className={styles.subTitle}>
        Other reads
      </h3>
      <ul className={styles.otherList}>
        {reads.map((other) => {
          const recommendation =
            other.recommendation && codes.find((code) => code.value === other.recommendation);
          return (
            <li key={other.id} className={styles.other}>
              <p className={styles.otherHead}>
                <strong>{other.reader_name ?? 'Not assigned'}</strong>
                <span>{ROUND_LABELS[other.round]}</span>
                <span className={consoleStyles.muted}>{STATUS_TEXT[other.status]}</span>
              </p>
              {other.blinded ? (
                <p className={consoleStyles.muted}>Scores hidden until you submit your read</p>
              ) : other.status === 'submitted' ? (
                <p>
                  Weighted score{' '}
                  <strong>
                    {scoreText(other.score ?? readScore(form.criteria, other.answers))}
                  </strong>
                  {recommendation ? <>, recommends {recommendation.label}</> : null}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
