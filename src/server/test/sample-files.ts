// Builders of real sample files for the tests and the benchmark. Nothing binary is committed: every
// PNG, JPEG, PDF and DOCX is made here, so a reader can see exactly what each test feeds in.
// Test and bench support only: it imports devDependencies (fflate, jpeg-js).
import { crc32, deflateSync } from 'node:zlib';
import { type Zippable, zipSync } from 'fflate';
import jpeg from 'jpeg-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A small deterministic PRNG so "noisy" samples are identical on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0, 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

export interface PngOptions {
  width: number;
  height: number;
  /**
   * 'rgb' = colour type 2, 'rgba' = 6 (alpha channel), 'gray' = 0, 'palette' = 3 (four colours,
   * with a tRNS chunk when `paletteAlpha` is set).
   */
  color?: 'rgb' | 'rgba' | 'gray' | 'palette';
  paletteAlpha?: boolean;
  /** 0 = flat colour gradient (compresses well), 1 = pure noise (does not compress). */
  noise?: number;
  seed?: number;
}

const PNG_COLOR_TYPE = { gray: 0, rgb: 2, palette: 3, rgba: 6 } as const;
const PNG_CHANNELS = { gray: 1, rgb: 3, palette: 1, rgba: 4 } as const;

/** Encodes a real PNG (8-bit, filter 0 rows) with node:zlib. */
export function makePng({
  width,
  height,
  color = 'rgb',
  paletteAlpha = false,
  noise = 0,
  seed = 1,
}: PngOptions): Uint8Array {
  const channels = PNG_CHANNELS[color];
  const random = seededRandom(seed);
  const raw = Buffer.alloc(height * (1 + width * channels));
  let offset = 0;
  for (let y = 0; y < height; y++) {
    raw[offset++] = 0;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        const flat =
          color === 'palette'
            ? Math.floor((x * 4) / width) & 3
            : c === 3
              ? x < width / 2
                ? 255
                : 96
              : ((x + y + c * 60) * 3) & 0xff;
        const noisy = color === 'palette' ? Math.floor(random() * 4) : Math.floor(random() * 256);
        raw[offset++] = noise > 0 && random() < noise ? noisy : flat;
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = PNG_COLOR_TYPE[color];
  const chunks = [pngChunk('IHDR', ihdr)];
  if (color === 'palette') {
    chunks.push(pngChunk('PLTE', Buffer.from([200, 30, 30, 30, 160, 30, 30, 30, 200, 20, 20, 20])));
    if (paletteAlpha) chunks.push(pngChunk('tRNS', Buffer.from([255, 128, 255, 0])));
  }
  chunks.push(pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', new Uint8Array(0)));
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]),
  );
}

/** A noisy RGB PNG of just under `targetBytes` (noise does not compress, so size ~ pixels * 3). */
export function makePngOfSize(targetBytes: number, seed = 7): Uint8Array {
  let side = Math.floor(Math.sqrt(targetBytes / 3));
  for (;;) {
    const png = makePng({ width: side, height: side, noise: 1, seed });
    if (png.byteLength <= targetBytes) return png;
    side -= 4;
  }
}

export interface JpegOptions {
  width: number;
  height: number;
  quality?: number;
  noise?: number;
  seed?: number;
  /** EXIF orientation 1-8 written in an APP1 segment, as phone cameras do. */
  orientation?: number;
}

/** Encodes a real baseline JPEG with jpeg-js. */
export function makeJpeg({
  width,
  height,
  quality = 85,
  noise = 0,
  seed = 3,
  orientation,
}: JpegOptions): Uint8Array {
  const random = seededRandom(seed);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, p = 0; i < width * height; i++, p += 4) {
    const x = i % width;
    const y = Math.floor(i / width);
    // The top-left quadrant is dark so an orientation test could find it again.
    const base = x < width / 2 && y < height / 2 ? 20 : 200;
    for (let c = 0; c < 3; c++) {
      data[p + c] = noise > 0 && random() < noise ? Math.floor(random() * 256) : base;
    }
    data[p + 3] = 255;
  }
  const encoded = new Uint8Array(jpeg.encode({ data, width, height }, quality).data);
  return orientation === undefined ? encoded : withExifOrientation(encoded, orientation);
}

/** Inserts an APP1 Exif segment holding only the Orientation tag right after SOI. */
export function withExifOrientation(jpegBytes: Uint8Array, orientation: number): Uint8Array {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1'); // big-endian TIFF
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 offset
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // count
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return new Uint8Array(
    Buffer.concat([jpegBytes.subarray(0, 2), header, payload, jpegBytes.subarray(2)]),
  );
}

/** A noisy JPEG of just under `targetBytes`. */
export function makeJpegOfSize(targetBytes: number, seed = 5): Uint8Array {
  // Pure noise at quality 80 costs about 1.6 bytes a pixel with jpeg-js.
  let side = Math.floor(Math.sqrt(targetBytes / 1.6));
  for (;;) {
    const jpg = makeJpeg({ width: side, height: side, noise: 1, quality: 80, seed });
    if (jpg.byteLength <= targetBytes) return jpg;
    side = Math.floor(side * 0.97);
  }
}

/** A real PDF made with pdf-lib holding the given lines, one page per entry. */
export async function makePdf(pages: string[][] = [['Official transcript']]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 72, y: 720 - i * 16, size: 12, font });
    });
  }
  return doc.save({ useObjectStreams: false });
}

/**
 * An encrypted PDF: a pdf-lib PDF followed by an incremental update whose trailer names an
 * /Encrypt dictionary of the standard security handler (RC4 40-bit, as `qpdf --encrypt` writes).
 * Readers treat such a file as password-protected, which is all the inspection has to see.
 */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const base = Buffer.from(await makePdf([['Secret transcript']]));
  const text = base.toString('latin1');
  const prevXref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const size = Number(/\/Size (\d+)/.exec(text)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(text)?.[1];
  if (!Number.isFinite(prevXref) || !Number.isFinite(size) || !root) {
    throw new Error('unexpected pdf-lib output');
  }
  const hex32 = 'AB'.repeat(32);
  const encryptObject = `\n${size} 0 obj\n<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${hex32}> /U <${hex32}> /P -44 >>\nendobj\n`;
  const objectOffset = base.length + 1; // after the newline that opens the update
  const xrefOffset = objectOffset + encryptObject.length;
  const update =
    encryptObject +
    `xref\n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Encrypt ${size} 0 R /Prev ${prevXref} /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([base, Buffer.from(update, 'latin1')]));
}

/** The namespace declarations every sample part's root element carries. */
export const WORD_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" ' +
  'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One run of text; `\t` becomes a Word tab. */
function run(text: string, bold = false): string {
  const props = bold ? '<w:rPr><w:b/></w:rPr>' : '';
  return text
    .split('\t')
    .map((part) => `<w:r>${props}<w:t xml:space="preserve">${escapeXml(part)}</w:t></w:r>`)
    .join('<w:r><w:tab/></w:r>');
}

export const docxXml = {
  paragraph: (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${run(text)}</w:p>`,
  heading: (text: string, level: 1 | 2 | 3) => docxXml.paragraph(text, `Heading${level}`),
  /** numId 1 is the bulleted list, numId 2 the numbered one (see numbering.xml below). */
  listItem: (text: string, numId: 1 | 2, level = 0) =>
    `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr>${run(text)}</w:p>`,
  boldParagraph: (plain: string, bold: string) => `<w:p>${run(plain)}${run(bold, true)}</w:p>`,
  table: (rows: string[][]) =>
    `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>` +
    rows
      .map(
        (cells) =>
          `<w:tr>${cells.map((cell) => `<w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/></w:tcPr>${docxXml.paragraph(cell)}</w:tc>`).join('')}</w:tr>`,
      )
      .join('') +
    '</w:tbl>',
  pageBreak: () => '<w:p><w:r><w:br w:type="page"/></w:r></w:p>',
  /** An inline picture; `relId` names a media part passed to makeDocx (rIdImg0, rIdImg1, ...). */
  picture: (relId: string, description: string, widthPx: number, heightPx: number) => {
    const cx = widthPx * 9525; // EMU per pixel at 96 dpi
    const cy = heightPx * 9525;
    return `<w:p><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="1" name="Picture 1" descr="${escapeXml(description)}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="picture"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  },
};

const contentTypes = (
  mediaDefaults: string,
  overrides = '',
) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${mediaDefaults}${overrides}
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>
</Types>`;

const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const documentRels = (mediaRels: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>${mediaRels}
</Relationships>`;

export interface DocxMedia {
  /** File name inside word/media/, e.g. 'photo.png'. */
  name: string;
  bytes: Uint8Array;
}

const headingStyle = (level: number) =>
  `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:outlineLvl w:val="${level - 1}"/></w:pPr><w:rPr><w:b/><w:sz w:val="${36 - level * 4}"/></w:rPr></w:style>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles ${WORD_NS}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
${[1, 2, 3].map(headingStyle).join('\n')}
<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>
<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>
</w:styles>`;

const level = (ilvl: number, format: string, text: string) =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;

const NUMBERING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering ${WORD_NS}>
<w:abstractNum w:abstractNumId="0">${level(0, 'bullet', '•')}${level(1, 'bullet', 'o')}</w:abstractNum>
<w:abstractNum w:abstractNumId="1">${level(0, 'decimal', '%1.')}${level(1, 'lowerLetter', '%2.')}</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>`;

export interface DocxOptions {
  /** More ZIP entries, e.g. a zip bomb part. */
  extraEntries?: Zippable;
  /** Pictures; they get the relationship ids rIdImg0, rIdImg1, ... for docxXml.picture(). */
  media?: DocxMedia[];
  /** Paragraph XML of the default header and footer (header1.xml, footer1.xml). */
  headerXml?: string;
  footerXml?: string;
  /**
   * More <Relationship> elements by the part they belong to ('word/document.xml',
   * 'word/header1.xml', ...); the part's relationships file is written when it has none.
   */
  relationships?: Record<string, string>;
  /** More parts, as XML text or bytes, each with its content type when it needs an override. */
  parts?: Record<string, { content: string | Uint8Array; contentType?: string }>;
  /** More children of the last section's properties, such as header references. */
  sectionXml?: string;
}

/** The name of a part's relationships file: word/header1.xml has word/_rels/header1.xml.rels. */
export function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

const relationshipsXml = (relationships: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`;

/** A real DOCX package (zipped with fflate) around the given body XML. */
export function makeDocx(bodyXml: string, options: DocxOptions = {}): Uint8Array {
  const {
    extraEntries = {},
    media = [],
    headerXml,
    footerXml,
    relationships = {},
    parts = {},
    sectionXml = '',
  } = options;
  const references =
    (headerXml ? '<w:headerReference w:type="default" r:id="rIdHeader"/>' : '') +
    (footerXml ? '<w:footerReference w:type="default" r:id="rIdFooter"/>' : '') +
    sectionXml;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${WORD_NS}><w:body>${bodyXml}<w:sectPr>${references}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:body></w:document>`;
  const part = (root: 'hdr' | 'ftr', xml: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:${root} ${WORD_NS}>${xml}</w:${root}>`;
  const relationshipType = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const headerFooterRels =
    (headerXml
      ? `<Relationship Id="rIdHeader" Type="${relationshipType}/header" Target="header1.xml"/>`
      : '') +
    (footerXml
      ? `<Relationship Id="rIdFooter" Type="${relationshipType}/footer" Target="footer1.xml"/>`
      : '');
  const headerFooterParts: Record<string, Uint8Array> = {};
  if (headerXml)
    headerFooterParts['header1.xml'] = new TextEncoder().encode(part('hdr', headerXml));
  if (footerXml)
    headerFooterParts['footer1.xml'] = new TextEncoder().encode(part('ftr', footerXml));
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const extensions = [...new Set(media.map((item) => item.name.split('.').pop() ?? ''))];
  const mediaDefaults = extensions
    .map(
      (ext) => `<Default Extension="${ext}" ContentType="image/${ext === 'jpg' ? 'jpeg' : ext}"/>`,
    )
    .join('');
  const mediaRels =
    headerFooterRels +
    media
      .map(
        (item, i) =>
          `<Relationship Id="rIdImg${i}" Type="${relationshipType}/image" Target="media/${item.name}"/>`,
      )
      .join('') +
    (relationships['word/document.xml'] ?? '');
  const overrides = Object.entries(parts)
    .filter(([, part]) => part.contentType)
    .map(([name, part]) => `<Override PartName="/${name}" ContentType="${part.contentType}"/>`)
    .join('');
  const otherParts: Zippable = {};
  for (const [name, part] of Object.entries(parts)) {
    otherParts[name] = typeof part.content === 'string' ? utf8(part.content) : part.content;
  }
  for (const [name, xml] of Object.entries(relationships)) {
    if (name !== 'word/document.xml')
      otherParts[relationshipsPartOf(name)] = utf8(relationshipsXml(xml));
  }
  return zipSync({
    '[Content_Types].xml': utf8(contentTypes(mediaDefaults, overrides)),
    _rels: { '.rels': utf8(PACKAGE_RELS) },
    word: {
      'document.xml': utf8(document),
      'styles.xml': utf8(STYLES),
      'numbering.xml': utf8(NUMBERING),
      _rels: { 'document.xml.rels': utf8(documentRels(mediaRels)) },
      media: Object.fromEntries(media.map((item) => [item.name, item.bytes])),
      ...headerFooterParts,
    },
    ...otherParts,
    ...extraEntries,
  });
}

/** The texts the sample DOCX holds, so tests can look for every one of them in the PDF. */
export const SAMPLE_DOCX_TEXT = {
  title: 'Personal Statement',
  subheading: 'Academic Goals',
  paragraph: 'I am applying to transfer because the nursing program fits my goals.',
  bold: 'Dean’s List three terms',
  bullets: ['Volunteer at the county clinic', 'Peer tutor in chemistry', 'Nested bullet item'],
  numbered: ['Finish prerequisites', 'Apply for transfer', 'Nested numbered item'],
  table: [
    ['Course', 'Grade', 'Credits'],
    ['Biology 101', 'A', '4'],
    ['Chemistry 110 with a long laboratory title that wraps inside its cell', 'B+', '5'],
  ],
  tabbed: 'Name:\tAlex Doe',
  unicode: 'Zoë Łukasz Ελληνικά Кириллица 中文姓名 ✓ 🎓',
} as const;

export function makeSampleDocx(): Uint8Array {
  const t = SAMPLE_DOCX_TEXT;
  return makeDocx(
    [
      docxXml.heading(t.title, 1),
      docxXml.paragraph(t.paragraph),
      docxXml.boldParagraph('Honours: ', t.bold),
      docxXml.heading(t.subheading, 2),
      docxXml.listItem(t.bullets[0], 1),
      docxXml.listItem(t.bullets[1], 1),
      docxXml.listItem(t.bullets[2], 1, 1),
      docxXml.listItem(t.numbered[0], 2),
      docxXml.listItem(t.numbered[1], 2),
      docxXml.listItem(t.numbered[2], 2, 1),
      docxXml.table(t.table.map((row) => [...row])),
      docxXml.paragraph(t.tabbed),
      docxXml.paragraph(t.unicode),
    ].join(''),
  );
}

const LOREM =
  'Transfer applicants describe their academic history, the courses they completed, and the ' +
  'reasons they want to continue their studies here. This sentence repeats to fill the page ' +
  'with realistic prose so that word wrapping and pagination are exercised.';

/** A DOCX of about five US Letter pages: headings, prose, lists and a table on each page. */
export function makeFivePageDocx(): Uint8Array {
  const parts: string[] = [];
  for (let page = 1; page <= 5; page++) {
    parts.push(docxXml.heading(`Section ${page}`, 1));
    for (let p = 0; p < 4; p++) parts.push(docxXml.paragraph(`${LOREM} ${LOREM}`));
    for (let i = 1; i <= 3; i++) parts.push(docxXml.listItem(`Point ${page}.${i}`, 1));
    parts.push(
      docxXml.table([
        ['Term', 'Course', 'Grade'],
        [`Fall ${2020 + page}`, 'English Composition', 'A-'],
        [`Spring ${2021 + page}`, 'Statistics', 'B'],
      ]),
    );
    if (page < 5) parts.push(docxXml.pageBreak());
  }
  return makeDocx(parts.join(''));
}

/** A DOCX whose document.xml is `bytes` of zeros: tiny compressed, huge inflated. */
export function makeZipBombDocx(bytes = 50 * 1024 * 1024): Uint8Array {
  return makeDocx('<w:p/>', {
    extraEntries: { 'word/media/bomb.bin': [new Uint8Array(bytes), { level: 9 }] },
  });
}

/** A DOCX with `count` extra tiny entries. */
export function makeManyEntriesDocx(count = 5000): Uint8Array {
  const extra: Zippable = {};
  for (let i = 0; i < count; i++) extra[`word/parts/p${i}.xml`] = new Uint8Array([60, 97, 47, 62]);
  return makeDocx('<w:p/>', { extraEntries: extra });
}

/** A Windows executable header ('MZ', then the DOS stub text) to save under another name. */
export function makeExe(): Uint8Array {
  const bytes = Buffer.alloc(512);
  bytes.write('MZ', 0, 'latin1');
  bytes.write('This program cannot be run in DOS mode.', 78, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return new Uint8Array(bytes);
}
