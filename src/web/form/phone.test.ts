import { describe, expect, it } from 'vitest';
import { formatPhone } from './phone';

describe('formatPhone', () => {
  it.each([
    ['', ''],
    ['9', '(9'],
    ['954', '(954'],
    ['9542', '(954) 2'],
    ['954262', '(954) 262'],
    ['9542628', '(954) 262-8'],
    ['9542628000', '(954) 262-8000'],
    ['95426280001234', '(954) 262-8000'],
    ['(954) 262-8000', '(954) 262-8000'],
    ['954.262.8000', '(954) 262-8000'],
    ['1 954 262 8000', '(954) 262-8000'],
    ['abc', ''],
  ])('formats %j as %j while typing', (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  it('lets a deletion through: the result is never longer than the digits allow', () => {
    expect(formatPhone('(954) ')).toBe('(954');
    expect(formatPhone('(95')).toBe('(95');
  });
});
