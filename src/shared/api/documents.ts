/**
 * Answers, statuses and messages of the document calls (spec 000 sections 3 and 7); the request
 * schemas are in document-schemas.ts, so the screens load no zod.
 */
export const DOCUMENT_STATUSES = [
  'UNPROCESSED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'NOT_ANSWERED',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** The statuses a stored row can hold; NOT_ANSWERED is the absence of a row. */
export type StoredDocumentStatus = Exclude<DocumentStatus, 'NOT_ANSWERED'>;

export interface ConversionStatusResponse {
  status: DocumentStatus;
  message: string | null;
  url: string | null;
}

/**
 * Where a browser upload goes: the app's own `/public/upload` or an S3 bucket. Every field is
 * posted, in order, before the `file` part; which fields there are depends on the storage.
 */
export interface PresignedUrlResponse {
  url: string;
  fields: { key: string } & Record<string, string>;
}

export type DocumentAnswersResponse = Record<string, { file_name: string; file_size: number }>;

/** Where a completed conversion is downloaded. */
export const documentPdfUrl = (key: string) => `/api/document/${encodeURIComponent(key)}/pdf`;

export const ANSWERED = 'ANSWERED';
export const NOT_A_FILE_QUESTION_MESSAGE = 'There is no file question with this key.';
export const UPLOAD_NOT_FOUND_MESSAGE =
  'We could not find your uploaded file. Please upload it again.';
export const CONVERSION_ERROR_MESSAGE =
  'We could not convert your file at this time. Please try again later or upload a different file.';
