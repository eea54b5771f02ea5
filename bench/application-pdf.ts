// The application PDF (design.md: well under a second): the printable projection of an
// application with every question it can show answered, laid out and joined to three converted
// documents. Each case gets warm-up runs that are not counted, then at least 20 timed runs
// reported as median and p95. Run alone with `node --import tsx bench/application-pdf.ts`.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { renderApplicationPdf } from '../src/server/application-pdf/render-application-pdf';
import { convertToPdf } from '../src/server/documents/convert-to-pdf';
import { makeFivePageDocx, makeJpegOfSize, makePdf } from '../src/server/test/sample-files';
import { applicationModel } from '../src/shared/application/application-model';
import { MAJOR } from '../src/shared/application/option-lists';
import { FILE_MAX_BYTES } from '../src/shared/constants';
import { containersOf } from '../src/shared/form/containers';
import type { Answers, Field, FormModel, FormState } from '../src/shared/form/model';
import { attachedDocuments, printableApplication } from '../src/shared/form/printable';
import { resolveModel } from '../src/shared/form/resolve';
import { validApplicationAnswers } from '../src/shared/test/application-fixtures';
import { type TimedCase, timeCase } from './timing';

export type ApplicationPdfBenchRow = TimedCase;

const WARM_UP_RUNS = 3;

const measure = (
  name: string,
  runs: number,
  task: () => unknown,
): Promise<ApplicationPdfBenchRow> => timeCase(name, runs, WARM_UP_RUNS, task);

/**
 * The transfer application with one more file question: it has two (the personal statement and
 * the transcript), and the case to measure has three documents.
 */
const benchModel: FormModel = {
  pages: applicationModel.pages.map((page, index, pages) =>
    index < pages.length - 1
      ? page
      : {
          ...page,
          items: [
            ...page.items,
            {
              kind: 'block',
              id: 'additional_documents',
              title: 'Additional documents',
              items: [
                {
                  kind: 'field',
                  key: 'additional_document',
                  widget: 'file',
                  label: 'Additional document',
                },
              ],
            },
          ],
        },
  ),
};

const LONG_TEXT = 'I moved to Florida to care for my grandmother and studied in the evenings. '
  .repeat(20)
  .trim();

/** A plausible answer of the largest size the question accepts. */
function answerFor(field: Field): Answers[string] {
  switch (field.widget) {
    case 'checkbox':
    case 'confirmCheckbox':
    case 'confirmButton':
      return true;
    case 'textarea':
      return LONG_TEXT.slice(0, field.characterLimit ?? 1500);
    case 'date':
      return '2001-04-12';
    case 'phone':
      return '(954) 555-0147';
    case 'email':
      return 'family.member@example.edu';
    case 'year':
      return '2019';
    case 'file':
      return 'ANSWERED';
    case 'text':
      return 'Answer of a typical length'.slice(0, field.maxLength ?? 45);
    default: {
      const options = field.options ?? Object.values(field.optionsFrom?.options ?? {})[0] ?? [];
      return options.find((option) => option.value !== '')?.value ?? 'x';
    }
  }
}

/**
 * A valid application for the program that asks the most, every add-another block at its
 * maximum, the choices that open more questions, and then every question still empty answered,
 * until answering shows no new ones.
 */
function fullyAnsweredState(): FormState {
  const addAnother: Record<string, number> = {};
  for (const [id, repeat] of containersOf(benchModel).repeats)
    addAnother[id] = repeat.instances.length;
  const answers: Answers = {
    ...validApplicationAnswers(MAJOR.cardiopulmonary),
    mailing_addr_same_as_perm_addr: 'N',
    military_service: 'Y',
    submit_parent_info: 'Y',
    nsu_alumni: 'Y',
    hs_rank: 'Y',
    fee_waiver: 'Y',
    covid_question: 'Y',
    conviction: 'Y',
    protective: 'Y',
    professional_licensure: 'Y',
  };
  const state: FormState = {
    answers,
    addAnother,
    tabs: { personal_statement: 'upload' },
    isLoggedIn: true,
  };
  for (let pass = 0; pass < 10; pass++) {
    let added = 0;
    for (const place of resolveModel(benchModel, state)) {
      if (!place.visible || answers[place.key] !== undefined) continue;
      answers[place.key] = answerFor(place.field);
      added++;
    }
    if (added === 0) break;
  }
  return state;
}

export async function benchApplicationPdf(runs = 20): Promise<ApplicationPdfBenchRow[]> {
  const state = fullyAnsweredState();
  const documents = {
    personal_statement_doc: { file_name: 'statement.docx' },
    hs_transcript: { file_name: 'transcript.jpg' },
    additional_document: { file_name: 'recommendation.pdf' },
  };
  const printable = () => printableApplication(benchModel, { ...state, documents });
  const attached = attachedDocuments(printable()).map((document) => document.answerKey);
  if (attached.length !== 3) throw new Error(`expected three documents, got ${attached.length}`);

  // The documents as the conversion stores them: a 5-page DOCX, a 1 MB photo, a 3-page PDF.
  const converted = new Map<string, Uint8Array>([
    [
      'personal_statement_doc',
      await convertToPdf(makeFivePageDocx(), 'docx', { docxEngine: 'js' }),
    ],
    ['hs_transcript', await convertToPdf(makeJpegOfSize(FILE_MAX_BYTES), 'jpeg')],
    [
      'additional_document',
      await convertToPdf(
        await makePdf([['Recommendation, page 1'], ['Page 2'], ['Page 3']]),
        'pdf',
      ),
    ],
  ]);
  const cover = {
    institution: 'Northfield State University',
    applicantName: 'Maria Lopez',
    email: 'maria.lopez@example.edu',
    submittedAt: new Date(),
    generatedAt: new Date(),
  };
  const groups = printable().pages.flatMap((page) => page.groups).length;
  const sample = await renderApplicationPdf({
    printable: printable(),
    documents: converted,
    cover,
  });
  const answered = Object.values(state.answers).filter((value) => value !== '' && value !== false);
  const what = `${answered.length} answers, ${groups} groups`;

  return [
    await measure(`printable projection (${what})`, runs, printable),
    await measure(`application PDF without documents (${what})`, runs, () =>
      renderApplicationPdf({ printable: printable(), documents: new Map(), cover }),
    ),
    await measure(
      `application PDF with three documents (${what}, ${sample.pageCount} pages, ${Math.round(sample.pdf.byteLength / 1024)} KB)`,
      runs,
      () => renderApplicationPdf({ printable: printable(), documents: converted, cover }),
    ),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchApplicationPdf();
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version}.\n`,
  );
  console.log('| case | runs | median (ms) | p95 (ms) |\n|---|---|---|---|');
  for (const row of rows)
    console.log(
      `| ${row.case} | ${row.runs} | ${row.medianMs.toFixed(1)} | ${row.p95Ms.toFixed(1)} |`,
    );
}
