import { describe, expect, it } from 'vitest';
import { PDF_RETRY_DEFAULT_MS, PDF_TRIES_MAX, pdfRetryWait } from './pdf-retry';

describe('waiting for the application PDF', () => {
  it('waits as long as the server says', () => {
    expect(pdfRetryWait(5000)).toBe(5000);
    expect(pdfRetryWait(1000)).toBe(1000);
    expect(pdfRetryWait(30_000)).toBe(30_000);
  });

  it('waits a few seconds when the server does not say', () => {
    expect(pdfRetryWait(undefined)).toBe(PDF_RETRY_DEFAULT_MS);
    expect(PDF_RETRY_DEFAULT_MS).toBe(3000);
  });

  it('never asks again sooner than a second or later than half a minute', () => {
    expect(pdfRetryWait(0)).toBe(1000);
    expect(pdfRetryWait(200)).toBe(1000);
    expect(pdfRetryWait(120_000)).toBe(30_000);
  });

  it('gives up after a bounded number of tries', () => {
    expect(PDF_TRIES_MAX).toBe(40);
  });
});
