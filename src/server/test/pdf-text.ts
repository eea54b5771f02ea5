// Reads the text back out of a PDF, so tests can prove a conversion kept every word. Test and
// bench support only: unpdf (a serverless build of Mozilla's PDF.js) is a devDependency.
import { extractText, getDocumentProxy } from 'unpdf';

/** The text of each page, in page order. */
export async function extractPdfPages(bytes: Uint8Array): Promise<string[]> {
  // PDF.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** All the text of a PDF with runs of white space collapsed to one space, for `toContain`. */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  const pages = await extractPdfPages(bytes);
  return pages.join('\n').replace(/\s+/g, ' ').trim();
}

export interface PdfTextItem {
  page: number;
  text: string;
  x: number;
  y: number;
  fontSize: number;
  fontName: string;
}

/** Every text item with its position and size, for checks on layout (heading sizes, indents). */
export async function extractPdfTextItems(bytes: Uint8Array): Promise<PdfTextItem[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const items: PdfTextItem[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [a = 0, b = 0, , , x = 0, y = 0] = item.transform as number[];
        items.push({
          page: number,
          text: item.str,
          x,
          y,
          fontSize: Math.round(Math.hypot(a, b) * 10) / 10,
          fontName: item.fontName,
        });
      }
    }
    return items;
  } finally {
    await pdf.loadingTask.destroy();
  }
}
