import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { createMetrics } from '../metrics/metrics';
import { createTestDatabase } from '../test/test-database';
import { outboxMailer, readOutbox, smtpMailer } from './mailer';

describe('the outbox mailer', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps the message and logs only who it is for and its subject, never its text', async () => {
    const lines: string[] = [];
    const { log } = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    const mailer = outboxMailer(database.db, log);
    mailer.send({
      to: 'maria@example.edu',
      subject: 'Your confirmation code',
      text: 'Your confirmation code is 493021.',
      html: '<p>Your confirmation code is 493021.</p>',
    });
    await mailer.drain();
    expect((await readOutbox(database.db))[0]?.text).toBe('Your confirmation code is 493021.');
    expect(lines.join('\n')).toContain('Your confirmation code');
    expect(lines.join('\n')).toContain('maria@example.edu');
    expect(lines.join('\n')).not.toContain('493021');
  });

  it('counts what it delivered and what failed', async () => {
    const metrics = createMetrics();
    const { log } = Fastify({ logger: false });
    const message = { to: 'maria@example.edu', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
    const outbox = outboxMailer(database.db, log, metrics);
    outbox.send(message);
    await outbox.drain();
    // Port 1 refuses the connection at once: the delivery fails.
    const unreachable = smtpMailer(
      'smtp://127.0.0.1:1',
      'Admissions <a@example.edu>',
      log,
      metrics,
    );
    unreachable.send(message);
    await unreachable.drain();
    const body = await metrics.registry.metrics();
    expect(body).toContain('portal_mail_sent_total 1');
    expect(body).toContain('portal_mail_failed_total 1');
  });
});
