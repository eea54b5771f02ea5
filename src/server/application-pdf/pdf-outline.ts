// pdf-lib writes no outlines (bookmarks), so the /Outlines tree is built from its low-level
// objects, as PDF 32000-1:2008 section 12.3.3 describes it: an outline dictionary in the catalog
// whose items form a doubly linked list (First/Last, Prev/Next, Parent), each item naming its
// target page through an explicit destination.
import { type PDFDocument, PDFHexString, PDFName, type PDFRef } from 'pdf-lib';

export interface OutlineEntry {
  title: string;
  /** 0-based index of the page the entry opens. */
  pageIndex: number;
}

/**
 * Adds a flat outline to the document: one bookmark per entry, in order, each opening its page
 * scrolled to the top. Readers show the bookmark panel when the document opens.
 */
export function addOutline(doc: PDFDocument, entries: readonly OutlineEntry[]): void {
  if (entries.length === 0) return;
  const { context } = doc;
  const pages = doc.getPages();
  const outlinesRef = context.nextRef();
  const itemRefs: PDFRef[] = entries.map(() => context.nextRef());

  entries.forEach((entry, index) => {
    const page = pages[entry.pageIndex];
    const ref = itemRefs[index];
    if (!page || !ref) throw new Error(`outline entry "${entry.title}" has no page`);
    const previous = itemRefs[index - 1];
    const next = itemRefs[index + 1];
    const item = context.obj({
      // A hex string in UTF-16BE carries any title, accents and all.
      Title: PDFHexString.fromText(entry.title),
      Parent: outlinesRef,
      // [page /XYZ left top zoom], with null keeping the reader's current values.
      Dest: [page.ref, 'XYZ', null, null, null],
      ...(previous ? { Prev: previous } : {}),
      ...(next ? { Next: next } : {}),
    });
    context.assign(ref, item);
  });

  const first = itemRefs[0];
  const last = itemRefs[itemRefs.length - 1];
  if (!first || !last) return;
  context.assign(
    outlinesRef,
    context.obj({ Type: 'Outlines', First: first, Last: last, Count: entries.length }),
  );
  doc.catalog.set(PDFName.of('Outlines'), outlinesRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}
