import { z } from 'zod';

/** Payloads of the document calls (spec 000 sections 3 and 7). */
export const presignedUrlSchema = z.strictObject({
  answer_key: z.string().min(1).max(200),
});

export const startConversionSchema = z.strictObject({
  file_key: z.string().min(1).max(200),
  file_name: z.string().min(1).max(1000),
});

export const answerKeyParamsSchema = z.object({ key: z.string().min(1).max(200) });
