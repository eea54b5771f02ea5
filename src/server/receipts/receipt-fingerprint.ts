import { createHash } from 'node:crypto';

/**
 * What a receipt's fingerprint covers: the application as submitted (answers after hidden ones
 * were cleared, chosen tabs, add-another counts) and, for each converted document, the SHA-256 of
 * its PDF by answer key (`MISSING_PDF` when the PDF was missing from storage at submit).
 */
export interface FingerprintInput {
  answers: Record<string, unknown>;
  tabs: Record<string, unknown>;
  addAnother: Record<string, unknown>;
  documents: Record<string, string>;
}

/** In place of a hash: the document's PDF was not in storage. */
export const MISSING_PDF = 'missing';

/** Bumped if the serialisation below ever changes, so old receipts still verify by their own. */
export const FINGERPRINT_VERSION = 1;

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * JSON with object keys sorted by UTF-16 code units at every depth and no whitespace: for the
 * strings, numbers, booleans, arrays and objects answers hold, the same bytes as the JSON
 * Canonicalization Scheme (RFC 8785). A value JSON cannot hold is refused rather than dropped,
 * so two different applications never serialise alike.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('canonical JSON has no non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  throw new Error(`canonical JSON cannot hold a ${typeof value}`);
}

/** The bytes hashed: UTF-8 of the canonical JSON of `{v, answers, tabs, add_another, documents}`. */
export function fingerprintBytes(input: FingerprintInput): string {
  return canonicalJson({
    v: FINGERPRINT_VERSION,
    answers: input.answers,
    tabs: input.tabs,
    add_another: input.addAnother,
    documents: input.documents,
  });
}

/** The receipt's fingerprint: SHA-256 (lower-case hex) of `fingerprintBytes`. */
export function fingerprintOf(input: FingerprintInput): string {
  return sha256Hex(fingerprintBytes(input));
}
