import type { Page } from '@playwright/test';

/**
 * Holds the page's requests to `url` until the returned function is called, then lets them go
 * on: a test can act while a script or an answer is still on its way.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.fallback();
  });
  return release;
}
