import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { createTestDatabase } from '../test/test-database';
import { outboxMailer, readOutbox } from './mailer';

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
});
