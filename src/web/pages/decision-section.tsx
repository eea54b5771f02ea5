import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { GENERIC_SERVER_ERROR_MESSAGE } from '../../shared/api/errors';
import {
  DECISION_LETTER_PDF_URL,
  type DecisionReply,
  type ReleasedDecision,
} from '../../shared/api/status';
import { ServerError } from '../data/http-client';
import { decisionQueryOptions, replyToDecision } from '../data/status';
import { Modal } from '../modal/modal';
import modalStyles from '../modal/modal.module.css';
import buttonStyles from '../ui/button.module.css';
import { cx } from '../ui/cx';
import { formatMoment } from './format-time';
import styles from './status-page.module.css';

const REPLY_WORDS: Record<DecisionReply, { verb: string; done: string }> = {
  accepted: { verb: 'Accept', done: 'You accepted this offer' },
  declined: { verb: 'Decline', done: 'You declined this offer' },
};

const messageOf = (error: unknown) =>
  error instanceof ServerError ? error.message : GENERIC_SERVER_ERROR_MESSAGE;

/** The released decision: its letter (made safe on the server), the letter's PDF and the reply. */
export function DecisionSection() {
  const headingId = useId();
  const { data } = useQuery(decisionQueryOptions);
  // Nothing is said about a decision before it is released, nor when it cannot be read.
  if (!data) return null;
  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Decision
      </h2>
      <p className={styles.decisionLabel}>{data.label}</p>
      <p className={styles.note}>
        Released <time dateTime={data.released_at}>{formatMoment(data.released_at)}</time>
      </p>
      <div
        className={styles.letter}
        // Rendered on the server from Markdown with raw HTML disabled.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's letter is already safe
        dangerouslySetInnerHTML={{ __html: data.letter_html }}
      />
      <p>
        <a href={DECISION_LETTER_PDF_URL} download>
          Download your decision letter (PDF)
        </a>
      </p>
      <OfferReply decision={data} />
    </section>
  );
}

function OfferReply({ decision }: { decision: ReleasedDecision }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<DecisionReply | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const result = useRef<HTMLParagraphElement>(null);
  const mutation = useMutation({
    mutationFn: replyToDecision,
    onSuccess: (updated) => {
      queryClient.setQueryData(decisionQueryOptions.queryKey, updated);
      setConfirming(null);
      // The buttons are gone: the focus goes to what replaced them.
      requestAnimationFrame(() => result.current?.focus());
    },
  });

  if (!decision.offer) return null;
  if (decision.reply) {
    return (
      <p ref={result} tabIndex={-1} className={styles.reply}>
        {REPLY_WORDS[decision.reply].done}
        {decision.replied_at ? (
          <>
            {' on '}
            <time dateTime={decision.replied_at}>{formatMoment(decision.replied_at)}</time>
          </>
        ) : null}
        .
      </p>
    );
  }
  const deadline = decision.reply_deadline;
  if (deadline && new Date(deadline).getTime() < Date.now()) {
    return (
      <p className={styles.note}>
        The deadline to reply, {formatMoment(deadline)}, has passed. Contact the admissions office.
      </p>
    );
  }
  return (
    <div className={styles.replyBox}>
      {deadline ? (
        <p>
          Please reply by <time dateTime={deadline}>{formatMoment(deadline)}</time>.
        </p>
      ) : null}
      <div className={styles.replyButtons}>
        {(['accepted', 'declined'] as const).map((reply) => (
          <Modal
            key={reply}
            title={`${REPLY_WORDS[reply].verb} this offer?`}
            description={
              reply === 'accepted'
                ? 'You are telling the admissions office that you will enroll. You cannot change your reply here afterwards.'
                : 'You are turning down this offer of admission. You cannot change your reply here afterwards.'
            }
            size="xs"
            initialFocusRef={cancel}
            open={confirming === reply}
            onOpenChange={(open) => {
              if (mutation.isPending) return;
              mutation.reset();
              setConfirming(open ? reply : null);
            }}
            trigger={
              <button
                type="button"
                className={cx(
                  buttonStyles.button,
                  reply === 'accepted' ? buttonStyles.primary : buttonStyles.secondary,
                )}
              >
                {REPLY_WORDS[reply].verb} offer
              </button>
            }
          >
            {mutation.isError ? (
              <p role="alert" className={styles.alert}>
                {messageOf(mutation.error)}
              </p>
            ) : null}
            <div className={modalStyles.actions}>
              <button
                ref={cancel}
                type="button"
                className={cx(buttonStyles.button, buttonStyles.secondary)}
                disabled={mutation.isPending}
                onClick={() => setConfirming(null)}
              >
                Cancel
              </button>
              <button
                type="button"
                className={cx(buttonStyles.button, buttonStyles.primary)}
                disabled={mutation.isPending}
                onClick={() => mutation.mutate(reply)}
              >
                {mutation.isPending ? 'Sending...' : `${REPLY_WORDS[reply].verb} offer`}
              </button>
            </div>
          </Modal>
        ))}
      </div>
    </div>
  );
}
