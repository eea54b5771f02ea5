import { type APIRequestContext, type Browser, expect } from '@playwright/test';
import type { Answers } from '../../src/shared/form/model';
import { createAccount, STRONG_PASSWORD, uniqueEmail } from './accounts';

/**
 * An applicant with these answers, made through the API in a browser context of its own (the
 * staff page keeps its cookies), submitted when asked.
 */
export async function applicantThroughApi(
  browser: Browser,
  request: APIRequestContext,
  answers: Answers,
  submit: boolean,
): Promise<string> {
  const email = uniqueEmail('listed');
  await createAccount(request, email, { confirm: true });
  const context = await browser.newContext();
  try {
    const api = context.request;
    const login = await api.post('/public/login', {
      data: { username: email, password: STRONG_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
    const saved = await api.put('/api/answer', { data: answers });
    expect(saved.status(), await saved.text()).toBe(200);
    if (submit) {
      const validating = await api.post('/api/web-status', { data: { web_status: 'validating' } });
      expect(validating.status(), await validating.text()).toBe(200);
      const submitted = await api.post('/api/submit');
      expect(submitted.status(), await submitted.text()).toBe(200);
    }
  } finally {
    await context.close();
  }
  return email;
}

/** Letters only, so the name stays one word the search folds as it is. */
export function letters(count: number): string {
  return Array.from({ length: count }, () =>
    String.fromCharCode(97 + Math.floor(Math.random() * 26)),
  ).join('');
}
