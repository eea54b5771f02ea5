import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { FILE_TOO_LARGE_MESSAGE } from '../../shared/documents/file-rules';
import { HttpError } from '../http/http-error';
import { UPLOAD_REFUSED_MESSAGE, UPLOAD_URL } from './local-disk';
import type { SelfReceivingStorage } from './storage';

export interface UploadRoutesOptions {
  storage: SelfReceivingStorage;
  /** The largest file part accepted at all; a policy may only lower it. */
  maxBytes: number;
  /** A last say on a correctly signed key, e.g. that it is still waiting for its upload. */
  acceptKey?: (key: string) => Promise<boolean>;
}

/** Room for the boundaries, part headers and the three policy fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
const NO_FILE_MESSAGE = 'No file was sent. Please choose a file and upload it again.';

/**
 * The local driver's stand-in for an S3 presigned POST: a multipart form whose `key`, `policy`
 * and `signature` fields come first (as S3 requires) and whose `file` part comes last. The
 * signature, expiry and key are checked before a byte of the file is kept.
 */
export const uploadRoutes: FastifyPluginAsync<UploadRoutesOptions> = async (app, options) => {
  const { storage, maxBytes } = options;
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 4096, parts: 6, headerPairs: 50 },
  });

  app.post(
    UPLOAD_URL,
    { bodyLimit: maxBytes + MULTIPART_OVERHEAD_BYTES },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(400, NO_FILE_MESSAGE);
      const fields: Record<string, string> = {};
      let stored = false;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || stored) throw new HttpError(400, UPLOAD_REFUSED_MESSAGE);
        const check = storage.verifyUploadPolicy(fields);
        if (!check.ok) throw new HttpError(check.statusCode, check.message);
        if (options.acceptKey && !(await options.acceptKey(check.key))) {
          throw new HttpError(403, UPLOAD_REFUSED_MESSAGE);
        }
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
          }
          throw error;
        }
        if (bytes.length > check.maxBytes) throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
        await storage.put(check.key, new Uint8Array(bytes));
        stored = true;
      }
      if (!stored) throw new HttpError(400, NO_FILE_MESSAGE);
      return reply.status(204).send();
    },
  );
};
