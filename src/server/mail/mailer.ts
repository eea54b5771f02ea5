import type { FastifyBaseLogger } from 'fastify';
import type { AppDatabase } from '../db/database';
import type { Metrics } from '../metrics/metrics';
import { lazy } from '../runtime/lazy';
import { createOutboxStore } from './outbox-store';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface OutboxEntry extends MailMessage {
  sent_at: string;
}

export interface Mailer {
  /** Queues a message and returns at once, so a reply never waits on (or reveals) delivery. */
  send(message: MailMessage): void;
  /** Resolves when every queued message has been delivered or has failed (and been logged). */
  drain(): Promise<void>;
}

type Deliver = (message: MailMessage) => Promise<void>;

/** Counts deliveries; mail goes out in the background, so the counters are how anyone sees it. */
export type MailMetrics = Pick<Metrics, 'mailSent' | 'mailFailed'>;

function backgroundMailer(deliver: Deliver, log: FastifyBaseLogger, metrics?: MailMetrics): Mailer {
  const pending = new Set<Promise<void>>();
  return {
    send(message) {
      const delivery = deliver(message)
        .then(() => {
          metrics?.mailSent.inc();
          log.info({ to: message.to, subject: message.subject }, 'mail sent');
        })
        .catch((error: unknown) => {
          metrics?.mailFailed.inc();
          log.error({ err: error, subject: message.subject }, 'mail failed');
        })
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async drain() {
      await Promise.all([...pending]);
    },
  };
}

export function smtpMailer(
  smtpUrl: string,
  from: string,
  log: FastifyBaseLogger,
  metrics?: MailMetrics,
): Mailer {
  // Loaded with the first message: most starts send none.
  const transport = lazy(async () => (await import('nodemailer')).default.createTransport(smtpUrl));
  return backgroundMailer(
    async (message) => {
      await (await transport()).sendMail({ from, ...message });
    },
    log,
    metrics,
  );
}

/**
 * Without SMTP every message is kept in the database, readable at the keyed /dev/mail outside
 * production. The log names recipient and subject only: mail holds confirmation codes and reset
 * links, and logs travel further than the database.
 */
export function outboxMailer(
  db: AppDatabase,
  log: FastifyBaseLogger,
  metrics?: MailMetrics,
): Mailer {
  const store = createOutboxStore(db);
  return backgroundMailer(
    async (message) => {
      await store.add(message);
      log.info({ to: message.to, subject: message.subject }, 'mail kept in the outbox');
    },
    log,
    metrics,
  );
}

export async function readOutbox(db: AppDatabase, limit = 200): Promise<OutboxEntry[]> {
  const rows = await createOutboxStore(db).latest(limit);
  return rows.map(({ to, subject, text, html, sentAt }) => ({
    to,
    subject,
    text,
    html,
    sent_at: sentAt.toISOString(),
  }));
}
