import { useMutation } from '@tanstack/react-query';
import type { Receipt } from '../../../shared/api/status';
import { cx } from '../../ui/cx';
import consoleStyles from '../shell/console.module.css';
import { serverMessage } from '../shell/staff-form';
import { applicationCalls } from './application-calls';
import styles from './application-page.module.css';

/**
 * The receipt in the page's facts, with a check that what the console shows is what was
 * submitted: the server computes the fingerprint again from the stored answers and PDFs.
 */
export function ReceiptFact({
  applicationId,
  receipt,
}: {
  applicationId: string;
  receipt: Receipt;
}) {
  const verify = useMutation({ mutationFn: () => applicationCalls.verifyReceipt(applicationId) });
  const result = verify.data;
  return (
    <div>
      <dt>Confirmation number</dt>
      <dd>
        {receipt.number}
        <span className={styles.fingerprint}> SHA-256 {receipt.fingerprint}</span>
        <button
          type="button"
          className={cx(consoleStyles.linkButton, styles.verify)}
          aria-disabled={verify.isPending || undefined}
          onClick={() => {
            if (!verify.isPending) verify.mutate();
          }}
        >
          Check against what was submitted
        </button>
        <span role="status" className={styles.verifyResult}>
          {verify.isPending ? 'Checking...' : null}
          {result?.matches ? 'Matches what was submitted.' : null}
          {result && !result.matches
            ? `Does not match: the stored answers or documents now give ${result.recomputed}.`
            : null}
        </span>
        {verify.isError ? (
          <span role="alert" className={styles.verifyResult}>
            {serverMessage(verify.error)}
          </span>
        ) : null}
      </dd>
    </div>
  );
}
