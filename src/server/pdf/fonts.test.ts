import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  DocumentFonts,
  fallbackFileFor,
  isWinAnsi,
  normaliseText,
  winAnsiCodePoints,
} from './fonts';

describe('fonts', () => {
  it('sends to Helvetica only characters it can encode', async () => {
    const doc = await PDFDocument.create();
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    const points = winAnsiCodePoints();
    expect(points.length).toBe(95 + 95 + 27);
    for (const codePoint of points) {
      expect(() => helvetica.encodeText(String.fromCodePoint(codePoint))).not.toThrow();
    }
    expect(isWinAnsi(0x4e2d)).toBe(false);
    expect(isWinAnsi(0x09)).toBe(false);
  });

  it('finds fallback subsets that really hold the glyph', () => {
    expect(fallbackFileFor(0x0416, 400)).toMatch(/noto-sans-cyrillic-400-normal\.woff$/);
    expect(fallbackFileFor(0x03a9, 700)).toMatch(/noto-sans-greek-700-normal\.woff$/);
    expect(fallbackFileFor(0x4e2d, 400)).toMatch(/noto-sans-sc-\d+-400-normal\.woff$/);
    expect(fallbackFileFor(0x3042, 400)).toMatch(/noto-sans-sc-/); // hiragana
    expect(fallbackFileFor(0x1f393, 400)).toBeNull(); // emoji: no font here
  });

  it('splits text into runs by font and counts what it had to replace', async () => {
    const doc = await PDFDocument.create();
    const fonts = await DocumentFonts.create(doc);
    const text = 'Név: Łukasz 中文 🎓';
    await fonts.prepare([{ text, bold: false }]);
    const runs = fonts.runs(text, { bold: false, italic: false });
    expect(runs.map((run) => run.text).join('')).toBe('Név: Łukasz 中文 ?');
    expect(runs.length).toBeGreaterThan(2);
    expect(fonts.replacedCharacters).toBe(1);
  });

  it('normalises text for layout', () => {
    expect(normaliseText('e\u0301')).toBe('é');
    expect(normaliseText('a\tb')).toBe('a    b');
    expect(normaliseText('zero\u200bwidth\u00ad soft')).toBe('zerowidth soft');
    expect(normaliseText('thin\u2009space')).toBe('thin space');
    expect(normaliseText('☺\ufe0f')).toBe('☺');
  });
});
