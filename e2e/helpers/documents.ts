import { expect, type Page } from '@playwright/test';

/**
 * Attaches a document the way the file question does, through the page's session: presigned
 * form, upload, conversion; resolves once the conversion is COMPLETED.
 */
export async function attachDocument(
  page: Page,
  answerKey: string,
  file: { name: string; mimeType: string; bytes: Uint8Array },
): Promise<void> {
  const presigned = await page.request.post('/api/presigned-url', {
    data: { answer_key: answerKey },
  });
  expect(presigned.status(), await presigned.text()).toBe(200);
  const { url, fields } = (await presigned.json()) as {
    url: string;
    fields: Record<string, string>;
  };
  const uploaded = await page.request.post(url, {
    multipart: {
      ...fields,
      file: { name: file.name, mimeType: file.mimeType, buffer: Buffer.from(file.bytes) },
    },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  const started = await page.request.post(`/api/pdf/document-answer/${answerKey}`, {
    data: { file_key: fields.key, file_name: file.name },
  });
  expect(started.status(), await started.text()).toBe(202);
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`/api/pdf/document-answer/${answerKey}`);
        return ((await status.json()) as { status: string }).status;
      },
      { message: `${answerKey} converted`, timeout: 30_000 },
    )
    .toBe('COMPLETED');
}
