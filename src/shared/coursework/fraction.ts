/*
 * Exact fractions for the coursework totals. Quarter units become thirds of semester units and
 * grade points such as 3.7 have no exact binary float, so sums of floats drift (0.1 + 0.2) and a
 * GPA that is exactly 2.345 could print as 2.34. Numerators and denominators are bigints, always
 * reduced, with a positive denominator; nothing is rounded until a value is shown.
 */

export interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

function greatestCommonDivisor(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function fraction(numerator: bigint, denominator = 1n): Fraction {
  if (denominator === 0n) throw new RangeError('A fraction cannot have a denominator of 0');
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = greatestCommonDivisor(numerator, denominator) || 1n;
  return { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor };
}

export const ZERO = fraction(0n);
export const ONE = fraction(1n);

export function add(a: Fraction, b: Fraction): Fraction {
  return fraction(
    a.numerator * b.denominator + b.numerator * a.denominator,
    a.denominator * b.denominator,
  );
}

export function multiply(a: Fraction, b: Fraction): Fraction {
  return fraction(a.numerator * b.numerator, a.denominator * b.denominator);
}

export function divide(a: Fraction, b: Fraction): Fraction {
  return fraction(a.numerator * b.denominator, a.denominator * b.numerator);
}

/** Negative, zero or positive as a is less than, equal to or greater than b. */
export function compare(a: Fraction, b: Fraction): number {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export function sum(values: Iterable<Fraction>): Fraction {
  let total = ZERO;
  for (const value of values) total = add(total, value);
  return total;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * The decimal a number was written as: 3.7 in a tenant file or a form is 37/10, not the binary
 * float nearest it. JavaScript prints a number as the shortest decimal that reads back as the same
 * float, which is the decimal typed for any value with fewer than 16 significant digits. Null for
 * NaN and the infinities.
 */
export function fromDecimal(value: number): Fraction | null {
  if (!Number.isFinite(value)) return null;
  const match = DECIMAL.exec(String(value));
  if (!match) return null;
  const [, sign = '', whole = '0', decimals = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - decimals.length;
  const digits = BigInt(`${sign}${whole}${decimals}`);
  return exponent >= 0
    ? fraction(digits * 10n ** BigInt(exponent))
    : fraction(digits, 10n ** BigInt(-exponent));
}

/**
 * The fraction to `places` decimals, half rounded up (away from zero), as text: 2.345 is "2.35",
 * 8/3 is "2.67", 2 is "2.00".
 */
export function toFixedHalfUp(value: Fraction, places = 2): string {
  const scale = 10n ** BigInt(places);
  const magnitude = value.numerator < 0n ? -value.numerator : value.numerator;
  // floor(x * scale + 1/2) for x >= 0, in integers: (2 * n * scale + d) / (2 * d).
  const rounded = (2n * magnitude * scale + value.denominator) / (2n * value.denominator);
  const sign = value.numerator < 0n && rounded !== 0n ? '-' : '';
  const whole = rounded / scale;
  if (places === 0) return `${sign}${whole}`;
  const decimals = (rounded % scale).toString().padStart(places, '0');
  return `${sign}${whole}.${decimals}`;
}
