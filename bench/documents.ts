// Document conversion timings (design.md: image to PDF well under a second, DOCX to PDF a few
// seconds at most). Inputs are built in memory, like the tests' samples; each case gets warm-up
// runs that are not counted, then at least 20 timed runs reported as median and p95.
// Run alone with `node --import tsx bench/documents.ts`.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { type ConvertOptions, convertToPdf } from '../src/server/documents/convert-to-pdf';
import { inspectUpload } from '../src/server/documents/inspect-upload';
import { findSoffice } from '../src/server/documents/libreoffice';
import {
  makeFivePageDocx,
  makeJpegOfSize,
  makePng,
  makePngOfSize,
} from '../src/server/test/sample-files';
import { FILE_MAX_BYTES } from '../src/shared/constants';
import type { DocumentKind } from '../src/shared/documents/file-rules';
import { type TimedCase, timeCase } from './timing';

export interface DocumentBenchRow extends TimedCase {
  /** Why a case was not measured ('not installed'). */
  note?: string;
}

const WARM_UP_RUNS = 2;

const measure = (name: string, runs: number, task: () => unknown): Promise<DocumentBenchRow> =>
  timeCase(name, runs, WARM_UP_RUNS, task);

/** The RGBA sample: noise in the colour channels, so it stays near 1 MB after compression. */
function makeAlphaPngNear1Mb(): Uint8Array {
  let side = Math.floor(Math.sqrt(FILE_MAX_BYTES / 4));
  for (;;) {
    const png = makePng({ width: side, height: side, color: 'rgba', noise: 1, seed: 11 });
    if (png.byteLength <= FILE_MAX_BYTES) return png;
    side -= 4;
  }
}

export async function benchDocuments(runs = 20): Promise<DocumentBenchRow[]> {
  const jpeg = makeJpegOfSize(FILE_MAX_BYTES);
  const png = makePngOfSize(FILE_MAX_BYTES);
  const alphaPng = makeAlphaPngNear1Mb();
  const docx = makeFivePageDocx();
  const convert = (bytes: Uint8Array, kind: DocumentKind, options?: ConvertOptions) => () =>
    convertToPdf(bytes, kind, options);
  const kb = (bytes: Uint8Array) => `${Math.round(bytes.byteLength / 1024)} KB`;

  const rows = [
    await measure(`JPEG (${kb(jpeg)}) to PDF`, runs, convert(jpeg, 'jpeg')),
    await measure(`PNG (${kb(png)}, opaque) to PDF`, runs, convert(png, 'png')),
    await measure(`PNG (${kb(alphaPng)}, with alpha) to PDF`, runs, convert(alphaPng, 'png')),
    await measure(`inspect 5-page DOCX (${kb(docx)})`, runs, () => inspectUpload(docx, 'a.docx')),
    await measure(
      `5-page DOCX to PDF, JavaScript path`,
      runs,
      convert(docx, 'docx', { docxEngine: 'js' }),
    ),
  ];
  const libreOfficeCase = '5-page DOCX to PDF, LibreOffice path';
  if (findSoffice()) {
    rows.push(
      await measure(libreOfficeCase, runs, convert(docx, 'docx', { docxEngine: 'libreoffice' })),
    );
  } else {
    rows.push({
      case: libreOfficeCase,
      runs: 0,
      medianMs: Number.NaN,
      p95Ms: Number.NaN,
      note: 'not installed',
    });
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchDocuments();
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version}.\n`,
  );
  console.log('| case | runs | median (ms) | p95 (ms) |\n|---|---|---|---|');
  for (const row of rows) {
    const value = (ms: number) => (row.note ? row.note : ms.toFixed(1));
    console.log(`| ${row.case} | ${row.runs} | ${value(row.medianMs)} | ${value(row.p95Ms)} |`);
  }
}
