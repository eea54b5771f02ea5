import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
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
import { Button } from '../ui/button';
import { formatMoment, letterInReadersZone } from './format-time';
import styles from './status-page.module.css';

const REPLY_WORDS: Record<DecisionReply, { verb: string; done: string }> = {
  accepted: { verb: 'Accept', done: 'You accepted this offer' },
  declined: { verb: 'Decline', done: 'You declined this offer' },
};

const messageOf = (error: unknown) =>
  error instanceof ServerError ? error.message : GENERIC_SERVER_ERROR_MESSAGE;

/**
 * The released decision, under the page's heading: its label, the letter (made safe on the
 * server, its headings already below the page's), the letter's PDF and the reply.
 */
export function DecisionSection({ decision }: { decision: ReleasedDecision }) {
  return (
    <>
      <p className={styles.decisionLabel}>{decision.label}</p>
      <p className={styles.note}>
        Released <time dateTime={decision.released_at}>{formatMoment(decision.released_at)}</time>
      </p>
      <div
        className={styles.letter}
        // Rendered on the server from Markdown with raw HTML disabled.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's letter is already safe
        dangerouslySetInnerHTML={{ __html: letterInReadersZone(decision.letter_html) }}
      />
      <OfferReply decision={decision} />
      <p className={styles.letterDownload}>
        <a href={DECISION_LETTER_PDF_URL} download>
          Download your decision letter (PDF)
        </a>
      </p>
    </>
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
  // Said as the letter above says it: in the applicant's zone, named.
  const deadlineText = deadline ? formatMoment(deadline) : null;
  if (deadline && new Date(deadline).getTime() < Date.now()) {
    return (
      <p className={styles.note}>
        The deadline to reply, <time dateTime={deadline}>{deadlineText}</time>, has passed. Contact
        the admissions office.
      </p>
    );
  }
  return (
    <div className={styles.replyBox}>
      {deadline ? (
        <p>
          Please reply by <time dateTime={deadline}>{deadlineText}</time>.
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
              <Button type="button" variant={reply === 'accepted' ? 'primary' : 'secondary'}>
                {REPLY_WORDS[reply].verb} offer
              </Button>
            }
          >
            {mutation.isError ? (
              <p role="alert" className={styles.alert}>
                {messageOf(mutation.error)}
              </p>
            ) : null}
            <div className={modalStyles.actions}>
              <Button
                ref={cancel}
                type="button"
                variant="secondary"
                disabled={mutation.isPending}
                onClick={() => setConfirming(null)}
              >
                Cancel
              </Button>
              <Button
                type="button"
                variant="primary"
                disabled={mutation.isPending}
                onClick={() => mutation.mutate(reply)}
              >
                {mutation.isPending ? 'Sending...' : `${REPLY_WORDS[reply].verb} offer`}
              </Button>
            </div>
          </Modal>
        ))}
      </div>
    </div>
  );
}
