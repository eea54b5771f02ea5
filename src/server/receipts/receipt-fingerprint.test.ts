import { describe, expect, it } from 'vitest';
import { validApplicationAnswers } from '../../shared/test/application-fixtures';
import { CONFIRMATION_NUMBER, confirmationNumber, cycleOf } from './confirmation-number';
import {
  canonicalJson,
  type FingerprintInput,
  fingerprintBytes,
  fingerprintOf,
  MISSING_PDF,
  sha256Hex,
} from './receipt-fingerprint';

const pdf = new TextEncoder().encode('%PDF-1.7 a transcript');
const submitted = (): FingerprintInput => ({
  answers: validApplicationAnswers(),
  tabs: { personal_statement: 'upload' },
  addAnother: { colleges: 2 },
  documents: { hs_transcript: sha256Hex(pdf) },
});

describe('the receipt fingerprint', () => {
  it('serialises with sorted keys at every depth and no whitespace', () => {
    expect(canonicalJson({ b: [2, { z: true, a: null }], a: 'é"', c: undefined })).toBe(
      '{"a":"é\\"","b":[2,{"a":null,"z":true}]}',
    );
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(
      fingerprintBytes({ answers: { b: '2', a: '1' }, tabs: {}, addAnother: {}, documents: {} }),
    ).toBe('{"add_another":{},"answers":{"a":"1","b":"2"},"documents":{},"tabs":{},"v":1}');
  });

  it('is the SHA-256 of those bytes, whatever order the keys came in', () => {
    const input = submitted();
    expect(fingerprintOf(input)).toBe(sha256Hex(fingerprintBytes(input)));
    expect(fingerprintOf(input)).toMatch(/^[0-9a-f]{64}$/);
    const reversed = Object.fromEntries(Object.entries(input.answers).reverse());
    expect(fingerprintOf({ ...input, answers: reversed })).toBe(fingerprintOf(input));
  });

  it('changes when any answer, tab, count or document byte changes', () => {
    const before = fingerprintOf(submitted());
    const changed = (change: (input: FingerprintInput) => void) => {
      const input = submitted();
      change(input);
      return fingerprintOf(input);
    };
    const first = Object.keys(submitted().answers)[0] as string;
    const variants = [
      changed((input) => {
        input.answers[first] = `${String(input.answers[first])} `;
      }),
      changed((input) => {
        input.answers.extra = '';
      }),
      changed((input) => {
        input.tabs.personal_statement = 'write';
      }),
      changed((input) => {
        input.addAnother.colleges = 3;
      }),
      changed((input) => {
        const tampered = new Uint8Array(pdf);
        tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
        input.documents.hs_transcript = sha256Hex(tampered);
      }),
      changed((input) => {
        input.documents.hs_transcript = MISSING_PDF;
      }),
      changed((input) => {
        input.documents = {};
      }),
    ];
    for (const variant of variants) expect(variant).not.toBe(before);
    expect(new Set(variants).size).toBe(variants.length);
  });
});

describe('confirmation numbers', () => {
  it('take the cycle from the entry term, or the submit year without one', () => {
    expect(cycleOf('FA2026', 2026)).toBe('FA26');
    expect(cycleOf('SP2027', 2026)).toBe('SP27');
    expect(cycleOf('', 2026)).toBe('YR26');
    expect(cycleOf(undefined, 2031)).toBe('YR31');
    expect(cycleOf('fall', 2026)).toBe('YR26');
  });

  it('are the prefix, the cycle and six digits at least', () => {
    expect(confirmationNumber('NSU', 'FA26', 123)).toBe('NSU-FA26-000123');
    expect(confirmationNumber('NSU', 'FA26', 1_234_567)).toBe('NSU-FA26-1234567');
    expect(confirmationNumber('NSU', 'FA26', 123)).toMatch(CONFIRMATION_NUMBER);
  });
});
