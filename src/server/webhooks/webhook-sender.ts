import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type PrivateNetworks,
  type Resolver,
  resolveWebhookHost,
  systemResolver,
} from './ssrf-guard';

export const SEND_TIMEOUT_MS = 10_000;
/** What of a receiver's answer is read: enough to say why it refused, never a flood. */
const ANSWER_LIMIT = 2_048;

export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  delivered: boolean;
}

export interface SendOptions {
  /** Refuse non-public addresses (production). */
  publicOnly: boolean;
  /** Non-public networks production may reach, over http too (WEBHOOK_PRIVATE_NETWORKS). */
  privateNetworks?: PrivateNetworks;
  resolve?: Resolver;
  timeoutMs?: number;
}

export type WebhookSender = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<SendOutcome>;

/**
 * Sends one signed request. The host is resolved and checked once, and the connection goes to
 * that very address, so a name that changes its answer after the check (DNS rebinding) gains
 * nothing. Redirects are not followed: a 3xx is a failed attempt like any other non-2xx.
 */
export function createWebhookSender(options: SendOptions): WebhookSender {
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  return async (url, headers, body) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (statusCode: number | null, error: string): SendOutcome => ({
      statusCode,
      error,
      durationMs: elapsed(),
      delivered: false,
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed(null, 'The address is not a URL.');
    }
    let checked: Awaited<ReturnType<typeof resolveWebhookHost>>;
    try {
      checked = await resolveWebhookHost(target.hostname, options.publicOnly, resolve, {
        privateNetworks: options.privateNetworks,
        plainHttp: target.protocol === 'http:',
      });
    } catch (error) {
      return failed(null, error instanceof Error ? error.message : String(error));
    }
    const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
      if ((lookupOptions as { all?: boolean }).all)
        (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(
          null,
          [checked],
        );
      else callback(null, checked.address, checked.family);
    };
    const client = target.protocol === 'https:' ? https : http;
    return new Promise<SendOutcome>((resolvePromise) => {
      let settled = false;
      let answered = false;
      const settle = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        resolvePromise(outcome);
      };
      const request = client.request(
        target,
        {
          method: 'POST',
          lookup: pinned,
          timeout: timeoutMs,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (response) => {
          answered = true;
          const status = response.statusCode ?? 0;
          let answer = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (answer.length < ANSWER_LIMIT) answer += chunk;
          });
          response.on('error', () => undefined);
          response.on('close', () => {
            if (!response.complete) settle(failed(status, 'The answer was cut off.'));
          });
          response.on('end', () => {
            if (status >= 200 && status < 300)
              settle({ statusCode: status, error: null, durationMs: elapsed(), delivered: true });
            else if (status >= 300 && status < 400)
              settle(
                failed(status, `Redirect to ${response.headers.location ?? '?'} not followed.`),
              );
            else
              settle(
                failed(status, `HTTP ${status}${answer ? `: ${answer.slice(0, 200).trim()}` : ''}`),
              );
          });
        },
      );
      const deadline = setTimeout(() => {
        request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      request.on('timeout', () =>
        request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`)),
      );
      request.on('error', (error) => settle(failed(null, error.message)));
      request.on('close', () => {
        clearTimeout(deadline);
        if (!answered) settle(failed(null, 'The connection closed without an answer.'));
      });
      request.end(body);
    });
  };
}
