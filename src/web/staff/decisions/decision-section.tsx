import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import type { ApplicationDetail } from '../../../shared/staff/application-api';
import {
  DECISION_MESSAGES,
  type DecisionCodeView,
  type StaffDecision,
} from '../../../shared/staff/decision-api';
import { ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { applicationKeys, listKeys } from '../common/staff-query-keys';
import { ConfirmDialog } from '../shell/confirm-dialog';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { decisionCalls, decisionCodesQuery } from './decision-calls';
import { DecisionCodeField } from './decision-code-field';
import {
  formatDeadline,
  isReleased,
  localInputToIso,
  RELEASE_TIME_MISSING,
  releaseStateText,
  replyText,
} from './decision-logic';
import styles from './decision-section.module.css';
import { ReleaseAtField } from './release-at-field';

/** A refused call's most precise sentence: the field's own (a release time), else the reply's. */
export function decisionFailureText(error: unknown): string {
  if (error instanceof ServerError && error.errors) {
    const fields = [...new Set(Object.values(error.errors).flat())];
    if (fields.length > 0) return fields.join(' ');
  }
  return serverMessage(error);
}

/**
 * The application's decision in the side panel: what was decided, by whom, whether applicants
 * can see it and what they answered. Members who manage decisions record and release it here
 * until it is released; after that it stands.
 */
export function DecisionSection({
  id,
  submitted,
  decision,
  className,
}: {
  id: string;
  submitted: boolean;
  decision: StaffDecision | null;
  /** The panel's box and its place on the page, which the page decides. */
  className?: string;
}) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canManage = me?.permissions.includes('decisions.manage') ?? false;
  const codes = useQuery({ ...decisionCodesQuery, enabled: decision !== null || canManage });
  const offer = codes.data?.find((code) => code.code === decision?.code)?.offer ?? false;
  const [announcement, setAnnouncement] = useState('');
  // The same sentence twice is not read twice by every screen reader: make it differ.
  const announce = useCallback(
    (text: string) => setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );
  const reply = decision ? replyText(decision, offer, formatDateTime, formatDeadline) : null;
  const titleRef = useRef<HTMLHeadingElement>(null);

  return (
    <section aria-labelledby="decision-title" className={className}>
      <h2 id="decision-title" ref={titleRef} tabIndex={-1} className={styles.title}>
        Decision
      </h2>
      <p role="status" className={styles.announcement}>
        {announcement}
      </p>
      {decision ? (
        <dl className={styles.decisionFacts}>
          <div>
            <dt>Decision</dt>
            <dd className={styles.decisionLabel}>{decision.label}</dd>
          </div>
          <div>
            <dt>Recorded</dt>
            <dd>
              By {decision.recorded_by},{' '}
              <time dateTime={decision.recorded_at}>{formatDateTime(decision.recorded_at)}</time>
            </dd>
          </div>
          <div>
            <dt>Release</dt>
            <dd>
              <span
                className={cx(
                  styles.badge,
                  isReleased(decision) ? styles['badge-received'] : styles['badge-awaiting'],
                )}
              >
                {releaseStateText(decision, formatDateTime)}
              </span>
            </dd>
          </div>
          {reply ? (
            <div>
              <dt>Reply</dt>
              <dd>{reply}</dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p>No decision has been recorded.</p>
      )}
      {!submitted ? (
        <p className={consoleStyles.muted}>
          A decision needs a submitted application: this one has not been submitted.
        </p>
      ) : canManage && !isReleased(decision) ? (
        <DecisionControls
          id={id}
          decision={decision}
          codes={codes}
          onDone={announce}
          // Released, the controls go, and the focused button with them: the panel takes focus.
          onReleased={() => titleRef.current?.focus()}
        />
      ) : null}
    </section>
  );
}

function DecisionControls({
  id,
  decision,
  codes,
  onDone,
  onReleased,
}: {
  id: string;
  decision: StaffDecision | null;
  codes: UseQueryResult<DecisionCodeView[]>;
  onDone: (text: string) => void;
  onReleased: () => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const selectId = useId();
  const [choice, setChoice] = useState(decision?.code ?? '');
  // A colleague's change, read when the page loads again, moves the select with it.
  const [given, setGiven] = useState(decision?.code ?? '');
  if ((decision?.code ?? '') !== given) {
    setGiven(decision?.code ?? '');
    setChoice(decision?.code ?? '');
  }
  const [at, setAt] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // A release cannot be undone: Release now asks first, as the list's release does.
  const [confirming, setConfirming] = useState(false);

  const saved = (next: StaffDecision) => {
    queryClient.setQueryData<ApplicationDetail>(applicationKeys.detail(id), (old) =>
      old ? { ...old, decision: next } : old,
    );
    void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
    // The list's Decision column shows it too.
    void queryClient.invalidateQueries({ queryKey: listKeys.all });
  };
  const failed = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(decisionFailureText(error));
  };

  const record = useMutation({
    mutationFn: (code: string) => stepUp.run(() => decisionCalls.record(id, code)),
    onSuccess: (next) => {
      saved(next);
      onDone(`Decision recorded: ${next.label}.`);
    },
    onError: failed,
  });
  const release = useMutation({
    mutationFn: (when: string | undefined) => stepUp.run(() => decisionCalls.release(id, when)),
    onSuccess: (next) => {
      saved(next);
      setAt('');
      onDone(
        next.released_at
          ? 'Released: the applicant can see the decision.'
          : `${releaseStateText(next, formatDateTime)}.`,
      );
      if (next.released_at) onReleased();
    },
    onError: failed,
  });
  const busy = record.isPending || release.isPending;

  const onRecord = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (choice === '') {
      setFailure(DECISION_MESSAGES.code);
      return;
    }
    setFailure(null);
    record.mutate(choice);
  };

  const onSchedule = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const iso = at === '' ? null : localInputToIso(at);
    if (!iso) {
      setFailure(at === '' ? RELEASE_TIME_MISSING : DECISION_MESSAGES.releaseAt);
      return;
    }
    setFailure(null);
    release.mutate(iso);
  };

  return (
    <div className={styles.decisionControls}>
      <FormAlert message={failure} />
      <form noValidate onSubmit={onRecord} aria-label="Record the decision">
        <DecisionCodeField
          id={selectId}
          label={decision ? 'Change the decision' : 'Record a decision'}
          codes={codes}
          value={choice}
          onChange={setChoice}
        />
        <Button
          type="submit"
          variant="primary"
          className={consoleStyles.smallButton}
          aria-disabled={busy || undefined}
        >
          {record.isPending ? 'Saving...' : 'Save decision'}
        </Button>
      </form>
      {decision ? (
        <div className={styles.release}>
          <h3 className={styles.releaseTitle}>Release to the applicant</h3>
          <p className={consoleStyles.muted}>
            Once released, the applicant sees the decision and it can no longer be changed.
          </p>
          <Button
            type="button"
            variant="primary"
            className={consoleStyles.smallButton}
            aria-disabled={busy || undefined}
            onClick={() => {
              if (busy) return;
              setFailure(null);
              setConfirming(true);
            }}
          >
            {release.isPending && release.variables === undefined ? 'Releasing...' : 'Release now'}
          </Button>
          <ConfirmDialog
            open={confirming}
            title="Release this decision now?"
            description={`The applicant will see the decision ${decision.label} and be told by email. A release cannot be undone: the decision can no longer be changed.`}
            action="Release now"
            onConfirm={() => {
              setConfirming(false);
              if (!busy) release.mutate(undefined);
            }}
            onCancel={() => setConfirming(false)}
          />
          <form noValidate onSubmit={onSchedule} aria-label="Schedule the release">
            <ReleaseAtField value={at} onChange={setAt} />
            <Button
              type="submit"
              variant="secondary"
              className={consoleStyles.smallButton}
              aria-disabled={busy || undefined}
            >
              {release.isPending && release.variables !== undefined
                ? 'Scheduling...'
                : 'Schedule release'}
            </Button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
