import { useEffect, useState } from 'react';
import { Button } from '../../ui/button';
import styles from './console.module.css';
import { copyText } from './secrets';

const COPIED_SHOWN_MS = 4000;

/** Copies a text and says so in words, announced politely, for a few seconds. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <span className={styles.copy}>
      <Button
        type="button"
        variant="secondary"
        className={styles.smallButton}
        onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}
      >
        {label}
      </Button>
      <span aria-live="polite" className={styles.copyStatus}>
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Select the text and copy it.' : ''}
      </span>
    </span>
  );
}
