import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  ApiClientSecretResponse,
  ApiClientView,
} from '../../../shared/integration/api-clients-api';
import { Button } from '../../ui/button';
import controls from '../../ui/form-controls.module.css';
import { ConfirmDialog } from '../shell/confirm-dialog';
import styles from '../shell/console.module.css';
import { formatDateTime } from '../shell/page-heading';
import { serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import own from './integrations.module.css';
import { apiClientCalls, apiClientKeys } from './integrations-calls';

/** Every client: what it may do, who made it, when its secret was last replaced, its state. */
export function ClientsTable({
  clients,
  onRotated,
  onRevoked,
}: {
  clients: readonly ApiClientView[];
  onRotated: (reply: ApiClientSecretResponse) => void;
  onRevoked: (client: ApiClientView) => void;
}) {
  if (clients.length === 0)
    return <p className={styles.muted}>No API clients yet. Create one above.</p>;
  return (
    <div className={styles.tableFrame}>
      <table className={styles.table}>
        <caption className="visually-hidden">API clients</caption>
        <colgroup>
          <col className={own.colClient} />
          <col className={own.colScopes} />
          <col className={own.colCreated} />
          <col className={own.colRotated} />
          <col className={own.colState} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Secret rotated</th>
            <th scope="col">State and actions</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => (
            <ClientRow
              key={client.id}
              client={client}
              onRotated={onRotated}
              onRevoked={onRevoked}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ClientRow({
  client,
  onRotated,
  onRevoked,
}: {
  client: ApiClientView;
  onRotated: (reply: ApiClientSecretResponse) => void;
  onRevoked: (client: ApiClientView) => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [asking, setAsking] = useState<'rotate' | 'revoke' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiClientKeys.clients });
  const onError = (error: unknown) => {
    if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
  };
  const rotate = useMutation({
    mutationFn: () => stepUp.run(() => apiClientCalls.rotate(client.id)),
    onSuccess: async (reply) => {
      setFailure(null);
      await refresh();
      onRotated(reply);
    },
    onError,
  });
  const revoke = useMutation({
    mutationFn: () => stepUp.run(() => apiClientCalls.revoke(client.id)),
    onSuccess: async (reply) => {
      setFailure(null);
      await refresh();
      onRevoked(reply);
    },
    onError,
  });
  const errorId = `client-error-${client.id}`;
  const rotatedSinceCreated = client.secret_created_at !== client.created_at;

  return (
    <tr>
      <th scope="row">
        <span className={styles.memberEmail}>{client.name}</span>
        <br />
        <span className={own.clientId}>{client.client_id}</span>
      </th>
      <td>
        <ul className={own.scopeList} aria-label={`Scopes of ${client.name}`}>
          {client.scopes.map((scope) => (
            <li key={scope}>{scope}</li>
          ))}
        </ul>
        <span className={styles.muted}>{client.rate_limit_per_minute} calls a minute</span>
      </td>
      <td>
        {client.created_by}
        <br />
        <time dateTime={client.created_at}>{formatDateTime(client.created_at)}</time>
      </td>
      <td>
        {rotatedSinceCreated ? (
          <time dateTime={client.secret_created_at}>
            {formatDateTime(client.secret_created_at)}
          </time>
        ) : (
          <span className={styles.muted}>Not yet</span>
        )}
      </td>
      <td>
        <div className={own.stateCell}>
          {client.revoked_at ? (
            <span className={own.revoked}>
              Revoked <time dateTime={client.revoked_at}>{formatDateTime(client.revoked_at)}</time>
            </span>
          ) : (
            <span>Active</span>
          )}
          {client.revoked_at ? null : (
            <div className={styles.inlineButtons}>
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                disabled={rotate.isPending}
                aria-label={`Rotate the secret of ${client.name}`}
                aria-describedby={errorId}
                onClick={() => setAsking('rotate')}
              >
                Rotate secret
              </Button>
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                disabled={revoke.isPending}
                aria-label={`Revoke ${client.name}`}
                aria-describedby={errorId}
                onClick={() => setAsking('revoke')}
              >
                Revoke
              </Button>
            </div>
          )}
        </div>
        <div id={errorId} role="alert" className={controls.errors}>
          {failure ? <p className={controls.error}>{failure}</p> : null}
        </div>
        <ConfirmDialog
          open={asking === 'rotate'}
          title={`Rotate the secret of ${client.name}?`}
          description="A new secret is made and shown once. The current secret and every token it got stop working at once: the integration fails until it is given the new secret."
          action="Rotate secret"
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            setFailure(null);
            rotate.mutate();
          }}
        />
        <ConfirmDialog
          open={asking === 'revoke'}
          title={`Revoke ${client.name}?`}
          description="The client stops working for good: its tokens are refused at once and it gets no new ones. This cannot be undone; a new client would have a new id."
          action="Revoke client"
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            setFailure(null);
            revoke.mutate();
          }}
        />
      </td>
    </tr>
  );
}
