import { describe, expect, it } from 'vitest';
import { add, compare, divide, fraction, fromDecimal, multiply, toFixedHalfUp } from './fraction';

describe('exact fractions', () => {
  it('read a number as the decimal it was written as', () => {
    expect(fromDecimal(3.7)).toEqual(fraction(37n, 10n));
    expect(fromDecimal(0.1)).toEqual(fraction(1n, 10n));
    expect(fromDecimal(30)).toEqual(fraction(30n));
    expect(fromDecimal(1e21)).toEqual(fraction(10n ** 21n));
    expect(fromDecimal(1.5e-7)).toEqual(fraction(15n, 10n ** 8n));
    expect(fromDecimal(-2.5)).toEqual(fraction(-5n, 2n));
    expect(fromDecimal(Number.NaN)).toBeNull();
    expect(fromDecimal(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('add without the drift of floats: 0.1 + 0.2 is 0.3', () => {
    const tenth = fromDecimal(0.1) ?? fraction(0n);
    const fifth = fromDecimal(0.2) ?? fraction(0n);
    expect(compare(add(tenth, fifth), fromDecimal(0.3) ?? fraction(0n))).toBe(0);
    expect(multiply(fraction(3n), fraction(2n, 3n))).toEqual(fraction(2n));
    expect(divide(fraction(1n), fraction(3n))).toEqual(fraction(1n, 3n));
  });

  it('round half up only when shown', () => {
    expect(toFixedHalfUp(fraction(2345n, 1000n))).toBe('2.35');
    expect(toFixedHalfUp(fraction(2344999n, 1000000n))).toBe('2.34');
    expect(toFixedHalfUp(fraction(8n, 3n))).toBe('2.67');
    expect(toFixedHalfUp(fraction(2n))).toBe('2.00');
    expect(toFixedHalfUp(fraction(1n, 200n))).toBe('0.01');
    expect(toFixedHalfUp(fraction(0n))).toBe('0.00');
    expect(toFixedHalfUp(fraction(-5n, 2n), 0)).toBe('-3');
    expect(toFixedHalfUp(fraction(-1n, 1000n))).toBe('0.00');
  });
});
