import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sessionCookieName } from '../accounts/sessions';
import type { OutboxEntry } from '../mail/mailer';
import { devToolsPath } from './test-app';

export const STRONG_PASSWORD = 'Transfer-2026-ok';
const MAIL_WAIT_MS = 15_000;

/** Polls the outbox until a message to `to` matching `subject` arrives (mail leaves in the background). */
export async function waitForMail(
  app: FastifyInstance,
  to: string,
  subject: RegExp,
  after = 0,
): Promise<OutboxEntry> {
  // Bounded by time, not by a count of polls: on a busy machine the outbox may lag many polls.
  const deadline = Date.now() + MAIL_WAIT_MS;
  for (;;) {
    const found = await mailsTo(app, to, subject);
    if (found.length > after) return found[0] as OutboxEntry;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Every message to `to` matching `subject` in the outbox so far, newest first. */
export async function mailsTo(
  app: FastifyInstance,
  to: string,
  subject: RegExp,
): Promise<OutboxEntry[]> {
  const messages = (await app.inject(devToolsPath('/dev/mail.json'))).json() as OutboxEntry[];
  return messages.filter((m) => m.to === to && subject.test(m.subject));
}

export function codeFrom(mail: OutboxEntry): string {
  const match = /confirmation code is (\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in: ${mail.text}`);
  return match[1];
}

export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

/** The session token a signed-in cookie header carries (the test server's cookies are not secure). */
export function sessionTokenOf(cookie: string): string {
  const token = new RegExp(`${sessionCookieName(false)}=([^;]+)`).exec(cookie)?.[1];
  if (!token) throw new Error(`no session cookie in ${cookie}`);
  return token;
}

export function post(app: FastifyInstance, url: string, payload: unknown, cookie?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: cookie ? { cookie } : {},
  });
}

/** A call made with an applicant's session cookies, with a JSON payload when one is given. */
export function callAs(
  app: FastifyInstance,
  cookie: string,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Signs up, confirms from the outbox and logs in; returns the session cookies. */
export async function signedInApplicant(app: FastifyInstance, username: string): Promise<string> {
  await post(app, '/public/signup', { username, password: STRONG_PASSWORD });
  const code = codeFrom(await waitForMail(app, username, /confirmation code/));
  await post(app, '/public/confirm', { username, code });
  const login = await post(app, '/public/login', { username, password: STRONG_PASSWORD });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return cookieHeader(login);
}
