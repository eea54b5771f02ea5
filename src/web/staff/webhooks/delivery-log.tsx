import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookDeliveryView } from '../../../shared/integration/webhooks-api';
import { Button } from '../../ui/button';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import local from './webhooks.module.css';
import { webhooksCalls, webhooksKeys } from './webhooks-calls';

const STATUS_LABELS: Record<WebhookDeliveryView['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** A subscription's latest deliveries, newest first, each with a Replay button. */
export function DeliveryLog({ subscriptionId, title }: { subscriptionId: string; title: string }) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const deliveries = useQuery({
    queryKey: webhooksKeys.deliveries(subscriptionId),
    queryFn: () => webhooksCalls.deliveries(subscriptionId),
    refetchOnMount: 'always',
  });
  const replay = useMutation({
    mutationFn: (deliveryId: string) =>
      stepUp.run(() => webhooksCalls.replay(subscriptionId, deliveryId)),
    onMutate: () => {
      setStatus('');
      setFailure(null);
    },
    onSuccess: async (reply) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(subscriptionId) });
      const last = reply.attempt_log.at(-1);
      setStatus(
        last?.status_code && last.status_code >= 200 && last.status_code < 300
          ? `Sent ${reply.event_type} again: the receiver answered ${last.status_code}.`
          : `Sent ${reply.event_type} again: it failed (${last?.error ?? `HTTP ${last?.status_code ?? '?'}`}).`,
      );
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
    },
  });

  return (
    <section className={local.log} aria-label={title}>
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <FormAlert message={failure} />
      {deliveries.isPending ? (
        <p className={styles.muted}>Loading the deliveries...</p>
      ) : deliveries.isError ? (
        <FormAlert message={serverMessage(deliveries.error)} />
      ) : deliveries.data.length === 0 ? (
        <p className={styles.muted}>Nothing has been sent yet.</p>
      ) : (
        <ul className={styles.cardList}>
          {deliveries.data.map((delivery) => (
            <li key={delivery.id} className={`${styles.card} ${local.delivery}`}>
              <dl className={`${styles.facts} ${local.facts}`}>
                <dt>Event</dt>
                <dd>
                  <code>{delivery.event_type}</code>
                </dd>
                <dt>Application</dt>
                <dd>{delivery.application_id}</dd>
                <dt>Status</dt>
                <dd>
                  {STATUS_LABELS[delivery.status]}
                  {delivery.status === 'pending' && delivery.next_attempt_at
                    ? `, next try ${formatDateTime(delivery.next_attempt_at)}`
                    : ''}
                </dd>
                <dt>Attempts</dt>
                <dd>
                  {delivery.attempts}
                  {delivery.attempt_log.some((attempt) => attempt.replay)
                    ? ` (and ${delivery.attempt_log.filter((attempt) => attempt.replay).length} replayed)`
                    : ''}
                </dd>
                <dt>Last answer</dt>
                <dd>
                  {delivery.last_status_code ?? ''}
                  {delivery.last_error ? ` ${delivery.last_error}` : ''}
                  {delivery.last_status_code === null && !delivery.last_error ? 'None yet' : ''}
                </dd>
                <dt>Created</dt>
                <dd>{formatDateTime(delivery.created_at)}</dd>
                <dt>Last attempt</dt>
                <dd>{formatDateTime(delivery.last_attempt_at) || 'None yet'}</dd>
                <dt>Message id</dt>
                <dd>
                  <code>{delivery.id}</code>
                </dd>
              </dl>
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                disabled={replay.isPending}
                aria-label={`Replay ${delivery.event_type} ${delivery.id}`}
                onClick={() => replay.mutate(delivery.id)}
              >
                Replay
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
