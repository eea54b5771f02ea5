import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ServerError } from '../../data/http-client';
import { downloadFile } from '../shell/secrets';
import { serverMessage } from '../shell/staff-form';
import { applicationCalls, applicationKeys } from './application-calls';
import { PDF_TRIES_MAX, pdfRetryWait } from './pdf-retry';

export interface PdfDownload {
  start: () => void;
  pending: boolean;
  /** What the reader is told: preparing, downloading, or why it failed. */
  message: { kind: 'status' | 'error'; text: string } | null;
}

/**
 * The whole application as one PDF. The server may still be making it (503 with Retry-After):
 * the page says so, asks again when told, and starts the download once it is there.
 */
export function usePdfDownload(id: string): PdfDownload {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<PdfDownload['message']>(null);
  const running = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const start = useCallback(() => {
    if (running.current) return;
    running.current = true;
    setPending(true);
    setMessage(null);
    const attempt = async (tries: number): Promise<void> => {
      try {
        const file = await applicationCalls.pdf(id);
        if (!alive.current) return;
        downloadFile(file.blob, file.fileName ?? 'application.pdf');
        setMessage({ kind: 'status', text: 'The application PDF is downloading.' });
        // The download is in the application's history now.
        void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
      } catch (error) {
        if (!alive.current) return;
        const preparing = error instanceof ServerError && error.status === 503;
        if (preparing && tries < PDF_TRIES_MAX) {
          const wait = pdfRetryWait(error.retryAfterMs);
          setMessage({
            kind: 'status',
            text: `${error.message} It will download by itself when it is ready.`,
          });
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (alive.current) return attempt(tries + 1);
          return;
        }
        setMessage({ kind: 'error', text: serverMessage(error) });
      }
    };
    void attempt(1).finally(() => {
      running.current = false;
      if (alive.current) setPending(false);
    });
  }, [id, queryClient]);

  return { start, pending, message };
}
