import type { FastifyPluginAsync } from 'fastify';
import type { AppDatabase } from '../db/database';
import { devToolsGuard } from '../http/dev-tools-access';
import { escapeHtml } from './account-messages';
import { readOutbox } from './mailer';

/**
 * The development outbox: registered only outside production and without SMTP, and answering only
 * this machine with the development tools key (devToolsGuard), which the server logs at start.
 */
export const devMailRoutes: FastifyPluginAsync<{ db: AppDatabase; devToolsKey: string }> = async (
  app,
  { db, devToolsKey },
) => {
  app.addHook('onRequest', devToolsGuard(devToolsKey));
  app.get('/dev/mail.json', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return readOutbox(db);
  });

  app.get('/dev/mail', async (_request, reply) => {
    const messages = await readOutbox(db);
    const items = messages
      .map(
        (message) => `<article>
  <h2>${escapeHtml(message.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(message.to)}</strong> at <time datetime="${message.sent_at}">${message.sent_at}</time></p>
  <pre>${escapeHtml(message.text)}</pre>
</article>`,
      )
      .join('\n');
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2329}article{border:1px solid #d9dbe0;border-radius:6px;padding:1rem;margin:1rem 0}h2{font-size:1.1rem;margin:0 0 .25rem}.meta{color:#5c6270;margin:0 0 .5rem}pre{white-space:pre-wrap;font:inherit}</style>
</head><body><main><h1>Outbox</h1>
<p>Mail the server would have sent, newest first. It is kept here because no SMTP_URL is set.</p>
${items || '<p>No mail yet.</p>'}
</main></body></html>`;
  });
};
