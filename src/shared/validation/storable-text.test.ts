import { describe, expect, it } from 'vitest';
import { isStorableText, unstorableTextPath } from './storable-text';

/** An array nested `depth` levels deep around `innermost`, built without recursion. */
function nested(depth: number, innermost: unknown): unknown {
  let value = innermost;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe('unstorableTextPath', () => {
  it('is null when every string and key can be stored', () => {
    expect(unstorableTextPath({ a: ['x', 1, null, { b: 'ü 王 😀' }], c: true })).toBeNull();
    expect(unstorableTextPath('plain')).toBeNull();
    expect(unstorableTextPath(undefined)).toBeNull();
  });

  it('names the first string that cannot be stored, in document order', () => {
    expect(unstorableTextPath({ a: 'ok', b: ['x', 'y\u0000'], c: '\uD800' })).toBe('b.1');
    expect(unstorableTextPath(['\uDC00', '\u0000'])).toBe('0');
    expect(unstorableTextPath('\u0000')).toBe('_');
  });

  it('names a key that cannot be stored before anything under it', () => {
    expect(unstorableTextPath({ ok: { 'k\u0000': 'v\u0000' } })).toBe('ok.k\u0000');
    expect(unstorableTextPath({ first: 'x\uD800', 'k\u0000': 'y' })).toBe('first');
  });

  it('walks any nesting without running out of stack', () => {
    expect(unstorableTextPath(nested(100_000, 'fine'))).toBeNull();
    expect(unstorableTextPath(nested(100_000, '\u0000'))).toBe(
      Array.from({ length: 100_000 }, () => '0').join('.'),
    );
  });
});

describe('isStorableText', () => {
  it('accepts paired surrogates and refuses NUL and lone halves', () => {
    expect(isStorableText('😀')).toBe(true);
    expect(isStorableText('a\u0000')).toBe(false);
    expect(isStorableText('\uD83D')).toBe(false);
    expect(isStorableText('\uDE00x')).toBe(false);
  });
});
