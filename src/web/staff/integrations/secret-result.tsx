import { useEffect, useRef } from 'react';
import type { ApiClientSecretResponse } from '../../../shared/integration/api-clients-api';
import { Button } from '../../ui/button';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import own from './integrations.module.css';

/**
 * A client's id and secret, shown once after the client is made or its secret replaced. The
 * focus comes here, so a screen reader reads the warning before anything else.
 */
export function SecretResult({
  result,
  rotated,
  onDone,
}: {
  result: ApiClientSecretResponse;
  rotated: boolean;
  onDone: () => void;
}) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  const { client, client_secret: secret } = result;
  return (
    <section
      ref={box}
      tabIndex={-1}
      className={styles.notice}
      aria-labelledby="client-secret-title"
    >
      <h2 id="client-secret-title" className={styles.sectionTitle}>
        {rotated ? `A new secret for ${client.name}` : `The client ${client.name} was created`}
      </h2>
      <p className={own.warning}>
        Copy the secret now: it will not be shown again. Only a hash of it is kept, so nobody can
        read it back. If it is lost, replace it with a new one.
      </p>
      {rotated ? <p>The old secret, and every token it got, stopped working.</p> : null}
      <dl className={own.credential}>
        <dt>Client ID</dt>
        <dd>
          <code className={styles.secret} data-testid="client-id">
            {client.client_id}
          </code>
          <CopyButton text={client.client_id} label="Copy client ID" />
        </dd>
        <dt>Client secret</dt>
        <dd>
          <code className={styles.secret} data-testid="client-secret">
            {secret}
          </code>
          <CopyButton text={secret} label="Copy client secret" />
        </dd>
      </dl>
      <p>
        The integration gets an access token (valid for an hour) from{' '}
        <code>POST /api/v1/oauth/token</code> with the client credentials grant.
      </p>
      <Button type="button" variant="secondary" onClick={onDone}>
        I have stored the secret
      </Button>
    </section>
  );
}
