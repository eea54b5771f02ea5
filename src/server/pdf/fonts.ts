// Fonts for PDFs laid out in JavaScript. Text in the WinAnsi set uses the standard Helvetica
// family (nothing embedded, small files). Any other character is looked up in Noto Sans (Latin
// extended, Greek, Cyrillic, Vietnamese, Devanagari) and then Noto Sans SC (Chinese, Japanese kana,
// symbols), shipped as per-script WOFF subsets by @fontsource (SIL Open Font License 1.1, which
// allows embedding). Only the subsets a document uses are embedded, and only their used glyphs.
// A character no font has is drawn as '?', and counted so the caller can say so.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@cantoo/fontkit';
import { type PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

export interface FontStyle {
  bold: boolean;
  italic: boolean;
}

/** Unicode code points that Helvetica can draw through WinAnsiEncoding (beyond 0x20-0x7E, 0xA0-0xFF). */
const WIN_ANSI_EXTRA = [
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018,
  0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a,
  0x20ac, 0x2122,
];
const WIN_ANSI_EXTRA_SET = new Set(WIN_ANSI_EXTRA);

export function isWinAnsi(codePoint: number): boolean {
  return (
    (codePoint >= 0x20 && codePoint <= 0x7e) ||
    (codePoint >= 0xa0 && codePoint <= 0xff && codePoint !== 0xad) ||
    WIN_ANSI_EXTRA_SET.has(codePoint)
  );
}

/** Every code point isWinAnsi accepts, for the test that proves Helvetica really encodes them. */
export function winAnsiCodePoints(): number[] {
  const points: number[] = [];
  for (let cp = 0x20; cp <= 0xff; cp++) if (isWinAnsi(cp)) points.push(cp);
  return [...points, ...WIN_ANSI_EXTRA];
}

/**
 * Text as the layout should see it: composed (so 'e' + combining accent becomes the WinAnsi 'é'),
 * invisible format characters dropped, odd spaces made plain, tabs widened.
 */
export function normaliseText(text: string): string {
  const spaced = text
    .normalize('NFC')
    .replace(/\t/g, '    ')
    .replace(/[\u2028\u2029\r]/g, '\n')
    .replace(/[\u2000-\u200a\u202f\u205f]/g, ' ');
  let out = '';
  for (const char of spaced) if (!isInvisible(char.codePointAt(0) ?? 0)) out += char;
  return out;
}

/** Controls, soft hyphen, zero-width and joiner characters, BOM, variation selectors, tags. */
function isInvisible(cp: number): boolean {
  return (
    (cp <= 0x1f && cp !== 0x0a) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0xad ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0xfeff ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xe0001 ||
    (cp >= 0xe0020 && cp <= 0xe007f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

interface FallbackFace {
  file: string;
  ranges: Array<[number, number]>;
}

const requireFromHere = createRequire(import.meta.url);

/** Reads a fontsource stylesheet: each @font-face block names a subset file and its ranges. */
function readFaces(pkg: string, weight: 400 | 700): FallbackFace[] {
  const cssPath = requireFromHere.resolve(`${pkg}/${weight}.css`);
  const css = readFileSync(cssPath, 'utf8');
  const faces: FallbackFace[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/([^)]+?\.woff)\)/.exec(block)?.[1];
    const rangeList = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !rangeList) continue;
    const ranges: Array<[number, number]> = [];
    for (const range of rangeList.split(',')) {
      const match = /U\+([0-9a-f]+)(?:-([0-9a-f]+))?/i.exec(range.trim());
      if (!match?.[1]) continue;
      const start = Number.parseInt(match[1], 16);
      ranges.push([start, match[2] ? Number.parseInt(match[2], 16) : start]);
    }
    faces.push({ file: path.join(path.dirname(cssPath), 'files', file), ranges });
  }
  return faces;
}

/** The fallback faces in the order they are tried, per weight; read once per process. */
const facesByWeight = new Map<400 | 700, FallbackFace[]>();
function fallbackFaces(weight: 400 | 700): FallbackFace[] {
  let faces = facesByWeight.get(weight);
  if (!faces) {
    faces = [
      ...readFaces('@fontsource/noto-sans', weight),
      ...readFaces('@fontsource/noto-sans-sc', weight),
    ];
    facesByWeight.set(weight, faces);
  }
  return faces;
}

/** Font file bytes and the code points each really has (a range is a promise, not a guarantee). */
const fileBytes = new Map<string, Uint8Array>();
const fileCharacters = new Map<string, Set<number>>();
function faceBytes(file: string): Uint8Array {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(file));
    fileBytes.set(file, bytes);
  }
  return bytes;
}
function faceHas(file: string, codePoint: number): boolean {
  let characters = fileCharacters.get(file);
  if (!characters) {
    const face = fontkit.create(faceBytes(file));
    // A WOFF file holds one face; a collection (never shipped here) would have no character set.
    characters = new Set('characterSet' in face ? face.characterSet : []);
    fileCharacters.set(file, characters);
  }
  return characters.has(codePoint);
}

const fallbackCache = new Map<string, string | null>();
/** The subset file that can draw this code point at this weight, or null when none can. */
export function fallbackFileFor(codePoint: number, weight: 400 | 700): string | null {
  const key = `${weight}:${codePoint}`;
  const cached = fallbackCache.get(key);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  for (const face of fallbackFaces(weight)) {
    const inRange = face.ranges.some(([start, end]) => codePoint >= start && codePoint <= end);
    if (inRange && faceHas(face.file, codePoint)) {
      found = face.file;
      break;
    }
  }
  fallbackCache.set(key, found);
  return found;
}

export interface FontRun {
  text: string;
  font: PDFFont;
}

/** The fonts of one PDF being written. */
export class DocumentFonts {
  /** How many characters no font could draw (shown as '?'). */
  replacedCharacters = 0;
  private readonly embedded = new Map<string, PDFFont>();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly standard: Record<'regular' | 'bold' | 'italic' | 'boldItalic', PDFFont>,
  ) {}

  static async create(doc: PDFDocument): Promise<DocumentFonts> {
    doc.registerFontkit(fontkit);
    const [regular, bold, italic, boldItalic] = await Promise.all([
      doc.embedFont(StandardFonts.Helvetica),
      doc.embedFont(StandardFonts.HelveticaBold),
      doc.embedFont(StandardFonts.HelveticaOblique),
      doc.embedFont(StandardFonts.HelveticaBoldOblique),
    ]);
    return new DocumentFonts(doc, { regular, bold, italic, boldItalic });
  }

  standardFont(style: FontStyle): PDFFont {
    if (style.bold) return style.italic ? this.standard.boldItalic : this.standard.bold;
    return style.italic ? this.standard.italic : this.standard.regular;
  }

  /**
   * Embeds, before layout starts, every fallback subset the given texts need (embedding is
   * asynchronous in pdf-lib; layout then stays synchronous).
   */
  async prepare(texts: Iterable<{ text: string; bold: boolean }>): Promise<void> {
    const needed = new Set<string>();
    for (const { text, bold } of texts) {
      for (const char of text) {
        const codePoint = char.codePointAt(0) ?? 0;
        if (codePoint === 0x0a || isWinAnsi(codePoint)) continue;
        const file = fallbackFileFor(codePoint, bold ? 700 : 400);
        if (file && !this.embedded.has(file)) needed.add(file);
      }
    }
    for (const file of needed) {
      this.embedded.set(file, await this.doc.embedFont(faceBytes(file), { subset: true }));
    }
  }

  /** Splits normalised text into runs of one font each. Call prepare() with the text first. */
  runs(text: string, style: FontStyle): FontRun[] {
    const runs: FontRun[] = [];
    const standard = this.standardFont(style);
    for (const char of text) {
      const codePoint = char.codePointAt(0) ?? 0;
      let font = standard;
      let drawn = char;
      if (codePoint !== 0x0a && !isWinAnsi(codePoint)) {
        const file = fallbackFileFor(codePoint, style.bold ? 700 : 400);
        const embedded = file ? this.embedded.get(file) : undefined;
        if (embedded) {
          font = embedded;
        } else {
          drawn = '?';
          this.replacedCharacters++;
        }
      }
      const last = runs.at(-1);
      if (last && last.font === font) last.text += drawn;
      else runs.push({ text: drawn, font });
    }
    return runs;
  }
}
