import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { WebhookSubscriptionView } from '../../../shared/integration/webhooks-api';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { AddSubscription } from './add-subscription';
import { DeliveryLog } from './delivery-log';
import local from './webhooks.module.css';
import { webhooksCalls, webhooksKeys } from './webhooks-calls';

/** Webhook subscriptions (`integrations.manage`): who gets which events, and what was sent. */
function WebhooksPage() {
  const subscriptions = useQuery({
    queryKey: webhooksKeys.subscriptions,
    queryFn: webhooksCalls.subscriptions,
    refetchOnMount: 'always',
  });
  const [status, setStatus] = useState('');
  const listTitle = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <PageHeading
        title="Webhooks"
        intro="Receivers that get a signed POST when an application changes. Adding, removing, enabling and replaying ask you to confirm it is you."
      />
      <p role="status" className={`${styles.statusLine} ${local.wrap}`}>
        {status}
      </p>
      <AddSubscription onAdded={(url) => setStatus(`Added a subscription for ${url}.`)} />
      <section className={styles.section} aria-labelledby="webhooks-title">
        <h2 id="webhooks-title" ref={listTitle} tabIndex={-1} className={styles.sectionTitle}>
          Subscriptions
        </h2>
        {subscriptions.isPending ? (
          <p className={styles.muted}>Loading the subscriptions...</p>
        ) : subscriptions.isError ? (
          <FormAlert message={serverMessage(subscriptions.error)} />
        ) : subscriptions.data.length === 0 ? (
          <p className={styles.muted}>No subscriptions yet.</p>
        ) : (
          <ul className={styles.cardList}>
            {subscriptions.data.map((subscription) => (
              <SubscriptionCard
                key={subscription.id}
                subscription={subscription}
                onRemoved={() => {
                  setStatus(`Removed the subscription for ${subscription.url}.`);
                  // Its card, which had the focus, is gone: the list's heading takes it.
                  listTitle.current?.focus();
                }}
                onEnabled={() => setStatus(`Enabled the subscription for ${subscription.url}.`)}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function SubscriptionCard({
  subscription,
  onRemoved,
  onEnabled,
}: {
  subscription: WebhookSubscriptionView;
  onRemoved: () => void;
  onEnabled: () => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = `webhook-${subscription.id}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKeys.subscriptions });
  const failed = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
  };
  const remove = useMutation({
    mutationFn: () => stepUp.run(() => webhooksCalls.remove(subscription.id)),
    onSuccess: async () => {
      await refresh();
      onRemoved();
    },
    onError: failed,
  });
  const enable = useMutation({
    mutationFn: () => stepUp.run(() => webhooksCalls.enable(subscription.id)),
    onSuccess: async () => {
      await refresh();
      onEnabled();
    },
    onError: failed,
  });
  const disabled = subscription.state === 'disabled';

  return (
    <li className={styles.card} aria-labelledby={titleId}>
      <div className={local.cardHead}>
        <h3 id={titleId} className={local.cardTitle}>
          {subscription.description || subscription.url}
        </h3>
        <span className={disabled ? `${styles.status} ${local.disabled}` : styles.status}>
          {disabled ? 'Disabled' : 'Active'}
        </span>
      </div>
      <dl className={`${styles.facts} ${local.facts}`}>
        <dt>URL</dt>
        <dd>{subscription.url}</dd>
        <dt>Events</dt>
        <dd>{subscription.events.join(', ')}</dd>
        <dt>Scopes</dt>
        <dd>{subscription.scopes.join(', ')}</dd>
        <dt>Added</dt>
        <dd>
          {formatDateTime(subscription.created_at)} by {subscription.created_by}
        </dd>
        {disabled ? (
          <>
            <dt>Disabled</dt>
            <dd>
              {formatDateTime(subscription.disabled_at)}: {subscription.disabled_reason}
            </dd>
          </>
        ) : null}
      </dl>
      <FormAlert message={failure} />
      <div className={styles.inlineButtons}>
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          aria-expanded={showLog}
          aria-controls={showLog ? `${titleId}-log` : undefined}
          onClick={() => setShowLog((shown) => !shown)}
        >
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        {disabled ? (
          <Button
            type="button"
            variant="primary"
            className={styles.smallButton}
            disabled={enable.isPending}
            onClick={() => {
              setFailure(null);
              enable.mutate();
            }}
          >
            {enable.isPending ? 'Enabling...' : 'Enable'}
          </Button>
        ) : null}
        <Button
          type="button"
          variant="secondary"
          className={styles.smallButton}
          disabled={remove.isPending}
          onClick={() => {
            setFailure(null);
            setConfirming(true);
          }}
        >
          Delete
        </Button>
      </div>
      {showLog ? (
        <div id={`${titleId}-log`}>
          <DeliveryLog
            subscriptionId={subscription.id}
            title={`Deliveries to ${subscription.url}`}
          />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Delete this subscription?"
        description={`Nothing more is sent to ${subscription.url}, and its delivery log is deleted with it.`}
        action="Delete subscription"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate();
        }}
      />
    </li>
  );
}

export { WebhooksPage as Component };
