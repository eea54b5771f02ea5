import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiClientSecretResponse } from '../../../shared/integration/api-clients-api';
import styles from '../shell/console.module.css';
import { PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { ClientsTable } from './clients-table';
import { CreateClientForm } from './create-client-form';
import { apiClientCalls, apiClientKeys } from './integrations-calls';
import { SecretResult } from './secret-result';

/**
 * Integrators' API clients (`integrations.manage`): a new client, its secret shown once, and
 * rotating or revoking one. Each change asks for a fresh second factor.
 */
function IntegrationsPage() {
  // Other administrators and the command line change the list too: asked afresh on each visit.
  const clients = useQuery({
    queryKey: apiClientKeys.clients,
    queryFn: apiClientCalls.list,
    refetchOnMount: 'always',
  });
  const [shown, setShown] = useState<{ result: ApiClientSecretResponse; rotated: boolean } | null>(
    null,
  );
  const [status, setStatus] = useState('');
  return (
    <>
      <PageHeading
        title="API clients"
        intro="Clients let the student information system and other integrations call the portal's API with the OAuth 2.0 client credentials grant. Creating, rotating and revoking a client asks you to confirm it is you."
      />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {shown ? (
        <SecretResult
          key={shown.result.client_secret}
          result={shown.result}
          rotated={shown.rotated}
          onDone={() => {
            setShown(null);
            document.getElementById('create-client-title')?.focus();
          }}
        />
      ) : null}
      <section className={styles.section} aria-labelledby="create-client-title">
        <h2 id="create-client-title" tabIndex={-1} className={styles.sectionTitle}>
          Create a client
        </h2>
        <CreateClientForm
          onStart={() => {
            setShown(null);
            setStatus('');
          }}
          onCreated={(result) => setShown({ result, rotated: false })}
        />
      </section>
      <section className={styles.section} aria-labelledby="clients-title">
        <h2 id="clients-title" className={styles.sectionTitle}>
          Clients
        </h2>
        {clients.isPending ? (
          <p className={styles.muted}>Loading the clients...</p>
        ) : clients.isError ? (
          <FormAlert message={serverMessage(clients.error)} />
        ) : (
          <ClientsTable
            clients={clients.data}
            onRotated={(result) => {
              setStatus('');
              setShown({ result, rotated: true });
            }}
            onRevoked={(client) => {
              setShown(null);
              setStatus(`${client.name} was revoked: its tokens no longer work.`);
            }}
          />
        )}
      </section>
    </>
  );
}

export { IntegrationsPage as Component };
