import type { FastifyInstance } from 'fastify';
import { callAs } from './accounts-helpers';

/** A multipart/form-data body as a browser posts it to the upload URL: the fields, then the file. */
export function multipart(
  fields: Record<string, string>,
  file: Uint8Array,
  fileName = 'upload.png',
) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * Uploads a file for a document question on local-disk storage and starts its conversion, as the
 * browser does; resolves with the status the conversion settled on.
 */
export async function uploadDocument(
  app: FastifyInstance,
  cookie: string,
  answerKey: string,
  file: Uint8Array,
  fileName: string,
): Promise<{ status: string; message: string | null }> {
  const presigned = await callAs(app, cookie, 'POST', '/api/presigned-url', {
    answer_key: answerKey,
  });
  if (presigned.statusCode !== 200) throw new Error(`presign failed: ${presigned.body}`);
  const { url, fields } = presigned.json() as { url: string; fields: Record<string, string> };
  const uploaded = await app.inject({ method: 'POST', url, ...multipart(fields, file, fileName) });
  if (uploaded.statusCode !== 204) throw new Error(`upload failed: ${uploaded.body}`);
  const started = await callAs(app, cookie, 'POST', `/api/pdf/document-answer/${answerKey}`, {
    file_key: fields.key,
    file_name: fileName,
  });
  if (started.statusCode !== 202) throw new Error(`conversion did not start: ${started.body}`);
  for (let i = 0; i < 1000; i++) {
    const status = (
      await callAs(app, cookie, 'GET', `/api/pdf/document-answer/${answerKey}`)
    ).json() as { status: string; message: string | null };
    if (status.status !== 'UNPROCESSED' && status.status !== 'IN_PROGRESS') return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('conversion did not settle');
}
