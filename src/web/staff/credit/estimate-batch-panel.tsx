import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../../shared/api/errors';
import { CREDIT_MESSAGES, creditUrls } from '../../../shared/credit/credit-api';
import { type ListQuery, listQueryString } from '../../../shared/staff/list-query';
import { postJson, ServerError } from '../../data/http-client';
import { Button } from '../../ui/button';
import { filterLabelsOf } from '../common/list-filter-choices';
import { fetchApplicationList, listKeys } from '../common/staff-query-keys';
import { filtersSentence, submittedQueryOf } from '../decisions/decision-logic';
import { decisionFailureText } from '../decisions/decision-section';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { FormAlert } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import panelStyles from './estimate-batch-panel.module.css';

const resultSchema = z.object({
  count: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
type EstimateBatchResult = z.infer<typeof resultSchema>;

/** POST creditUrls.batchRelease with the list's query, as the decision batch sends it. */
async function releaseEstimates(query: string): Promise<EstimateBatchResult> {
  const result = resultSchema.safeParse(
    await postJson<unknown>(creditUrls.batchRelease, { query }),
  );
  if (!result.success) throw new ServerError(GENERIC_SERVER_ERROR_MESSAGE, 200);
  return result.data;
}

const applications = (count: number | null) =>
  count === null
    ? 'the submitted applications of this list'
    : `${count.toLocaleString('en-US')} submitted application${count === 1 ? '' : 's'}`;

export function estimateResultText(result: EstimateBatchResult): string {
  const done = `Credit estimate released for ${applications(result.count)}.`;
  if (result.skipped === 0) return done;
  return `${done} ${result.skipped.toLocaleString('en-US')} without courses left alone.`;
}

/**
 * Releases the transfer credit estimate of every submitted application the list's search and
 * filters find (every page), after a confirmation with the count and the filters. Shown only to
 * members with credit.evaluate; the server checks it again.
 */
export function EstimateBatchPanel({ query }: { query: ListQuery }) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  // The dialog is gone: the result is where the member's attention goes next.
  useEffect(() => {
    if (status !== '') statusRef.current?.focus();
  }, [status]);

  const search = listQueryString(query, { paging: false });
  const submittedQuery = submittedQueryOf(query);
  const submittedSearch = submittedQuery ? listQueryString(submittedQuery) : null;
  const submitted = useQuery({
    queryKey: listKeys.list(submittedSearch ?? 'none'),
    queryFn: ({ signal }) => fetchApplicationList(submittedSearch ?? '', signal),
    enabled: submittedSearch !== null,
  });
  const count = submittedSearch === null ? 0 : (submitted.data?.total ?? null);
  const filters = filtersSentence(
    query,
    filterLabelsOf(new Date().getFullYear(), query, new Map()),
  );

  const release = useMutation({
    mutationFn: () => stepUp.run(() => releaseEstimates(search)),
    onSuccess: (result) => {
      setStatus(estimateResultText(result));
      void queryClient.invalidateQueries({ queryKey: ['staff', 'application'] });
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(decisionFailureText(error));
    },
  });

  return (
    <section className={styles.section} aria-labelledby="estimate-batch-title">
      <h2 id="estimate-batch-title" className={styles.sectionTitle}>
        Transfer credit estimates for this list
      </h2>
      <p className={styles.muted}>
        For every submitted application the search and filters find, not only this page. Each
        applicant gets the estimate as it stands now (released again, it replaces the last one) and
        one email saying it is available. {filters}
      </p>
      <FormAlert message={failure} />
      <p ref={statusRef} tabIndex={-1} role="status" className={styles.statusLine}>
        {status}
      </p>
      <Button
        type="button"
        variant="primary"
        className={panelStyles.wrapButton}
        aria-disabled={release.isPending || undefined}
        onClick={() => {
          if (release.isPending) return;
          setStatus('');
          setFailure(null);
          if (count === 0) {
            setFailure(CREDIT_MESSAGES.batchEmpty);
            return;
          }
          setConfirming(true);
        }}
      >
        {release.isPending ? 'Releasing...' : 'Release credit estimates for this list'}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Release the credit estimates of ${applications(count)}?`}
        description={
          <>
            Each applicant will see their transfer credit estimate as it stands now and get an email
            saying it is available. The list: {filters}
          </>
        }
        action="Release estimates"
        onConfirm={() => {
          setConfirming(false);
          release.mutate();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
