import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { DECISION_MESSAGES } from '../../../shared/staff/decision-api';
import { type ListQuery, listQueryString } from '../../../shared/staff/list-query';
import { Button } from '../../ui/button';
import { filterLabelsOf } from '../common/list-filter-choices';
import { fetchApplicationList, listKeys } from '../common/staff-query-keys';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import batch from './decision-batch-panel.module.css';
import { decisionCalls, decisionCodesQuery } from './decision-calls';
import { DecisionCodeField } from './decision-code-field';
import {
  batchRecordLabel,
  batchResultText,
  filtersSentence,
  localInputToIso,
  RELEASE_TIME_MISSING,
  submittedQueryOf,
} from './decision-logic';
import { decisionFailureText } from './decision-section';
import { ReleaseAtField } from './release-at-field';

type Pending =
  | { kind: 'record'; code: string; label: string; count: number | null }
  | { kind: 'release'; at: string | null };

/**
 * Decisions for every application the list's search and filters find (every page, not only
 * this one): a code recorded for the submitted ones, then their release now or at a set time.
 * Each asks for confirmation with the count and the filters, since it reaches many applicants.
 */
export function DecisionBatchPanel({ query }: { query: ListQuery }) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const codes = useQuery(decisionCodesQuery);
  const codeId = useId();
  const [code, setCode] = useState('');
  const [at, setAt] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const search = listQueryString(query, { paging: false });
  const submittedQuery = submittedQueryOf(query);
  const submittedSearch = submittedQuery ? listQueryString(submittedQuery) : null;
  const submitted = useQuery({
    queryKey: listKeys.list(submittedSearch ?? 'none'),
    queryFn: ({ signal }) => fetchApplicationList(submittedSearch ?? '', signal),
    enabled: submittedSearch !== null,
  });
  const count = submittedSearch === null ? 0 : (submitted.data?.total ?? null);

  const codeLabels = new Map((codes.data ?? []).map((item) => [item.code, item.label]));
  const filters = filtersSentence(
    query,
    filterLabelsOf(new Date().getFullYear(), query, codeLabels),
  );

  const settled = () => {
    // Every list, count and open application may show the new decisions.
    void queryClient.invalidateQueries({ queryKey: listKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['staff', 'application'] });
  };
  const failed = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(decisionFailureText(error));
  };
  const record = useMutation({
    mutationFn: (chosen: string) => stepUp.run(() => decisionCalls.batch(search, chosen)),
    onSuccess: (result) => {
      setStatus(batchResultText(result, 'record'));
      settled();
    },
    onError: failed,
  });
  const release = useMutation({
    mutationFn: (when: string | null) =>
      stepUp.run(() => decisionCalls.batchRelease(search, when ?? undefined)),
    onSuccess: (result, when) => {
      setStatus(batchResultText(result, when ? 'schedule' : 'release'));
      setAt('');
      settled();
    },
    onError: failed,
  });
  const busy = record.isPending || release.isPending;

  const ask = (next: Pending) => {
    if (busy) return;
    setStatus('');
    setFailure(null);
    setPending(next);
  };

  const confirm = () => {
    const chosen = pending;
    setPending(null);
    if (!chosen) return;
    if (chosen.kind === 'record') record.mutate(chosen.code);
    else release.mutate(chosen.at);
  };

  return (
    <section className={styles.section} aria-labelledby="batch-title">
      <h2 id="batch-title" className={styles.sectionTitle}>
        Decide for this list
      </h2>
      <p className={styles.muted}>
        For every application the search and filters find, not only this page. {filters}
      </p>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <div className={batch.batchGrid}>
        <div className={batch.batchBox}>
          <h3 className={styles.subTitle}>Record a decision</h3>
          <DecisionCodeField
            id={codeId}
            label="Decision to record"
            codes={codes}
            value={code}
            onChange={setCode}
          />
          <p className={styles.muted}>
            Applications not submitted, or whose decision is released, are left alone.
          </p>
          <Button
            type="button"
            variant="primary"
            className={batch.wrapButton}
            aria-disabled={busy || undefined}
            onClick={() => {
              if (code === '') {
                setStatus('');
                setFailure(DECISION_MESSAGES.code);
                return;
              }
              if (count === 0) {
                setStatus('');
                setFailure(DECISION_MESSAGES.batchEmpty);
                return;
              }
              ask({ kind: 'record', code, label: codeLabels.get(code) ?? code, count });
            }}
          >
            {record.isPending ? 'Recording...' : batchRecordLabel(count)}
          </Button>
        </div>
        <div className={batch.batchBox}>
          <h3 className={styles.subTitle}>Release the decisions of this list</h3>
          <p className={styles.muted}>
            Recorded decisions not yet released; applicants see them once released.
          </p>
          <Button
            type="button"
            variant="primary"
            aria-disabled={busy || undefined}
            onClick={() => ask({ kind: 'release', at: null })}
          >
            {release.isPending && release.variables === null ? 'Releasing...' : 'Release now'}
          </Button>
          <div className={batch.batchRelease}>
            <ReleaseAtField value={at} onChange={setAt} />
            <Button
              type="button"
              variant="secondary"
              aria-disabled={busy || undefined}
              onClick={() => {
                const iso = at === '' ? null : localInputToIso(at);
                if (!iso) {
                  setStatus('');
                  setFailure(at === '' ? RELEASE_TIME_MISSING : DECISION_MESSAGES.releaseAt);
                  return;
                }
                ask({ kind: 'release', at: iso });
              }}
            >
              {release.isPending && release.variables !== null
                ? 'Scheduling...'
                : 'Schedule release'}
            </Button>
          </div>
        </div>
      </div>
      <ConfirmDialog
        open={pending !== null}
        title={pending ? confirmTitle(pending) : 'Confirm'}
        description={pending ? confirmText(pending, filters) : undefined}
        action={pending ? confirmAction(pending) : 'Confirm'}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

function applications(count: number | null): string {
  if (count === null) return 'the submitted applications of this list';
  return `${count.toLocaleString('en-US')} submitted application${count === 1 ? '' : 's'}`;
}

function confirmTitle(pending: Pending): string {
  return pending.kind === 'record'
    ? `Record ${pending.label} for ${applications(pending.count)}?`
    : pending.at
      ? 'Schedule the release of this list’s decisions?'
      : 'Release this list’s decisions now?';
}

function confirmText(pending: Pending, filters: string): ReactNode {
  const what =
    pending.kind === 'record'
      ? `The decision ${pending.label} will be recorded for ${applications(pending.count)}, replacing any unreleased decision.`
      : pending.at
        ? `Every recorded decision of this list not yet released will be released on ${formatDateTime(pending.at)}.`
        : 'Every recorded decision of this list not yet released will be released now, and applicants will see it.';
  return (
    <>
      {what} The list: {filters}
    </>
  );
}

function confirmAction(pending: Pending): string {
  return pending.kind === 'record'
    ? `Record ${pending.label}`
    : pending.at
      ? 'Schedule release'
      : 'Release now';
}
