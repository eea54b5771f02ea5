import { describe, expect, it } from 'vitest';
import { NEXT_PDFS, nextPdfsPreparer } from './next-pdfs';

const queueOf = (ids: string[]) => ({ items: ids.map((id) => ({ application_id: id })) });

describe('nextPdfsPreparer', () => {
  it('starts the PDFs of the reads after the opened one, no more', async () => {
    const requested: string[] = [];
    const prepare = nextPdfsPreparer({
      queue: async () => queueOf(['a', 'b', 'c', 'd', 'e']) as never,
      request: async (id) => requested.push(id),
    });
    await prepare('reader', 'b');
    expect(requested).toEqual(['c', 'd'].slice(0, NEXT_PDFS));
  });

  it('starts nothing for an application outside the open queue or at its end', async () => {
    const requested: string[] = [];
    const prepare = nextPdfsPreparer({
      queue: async () => queueOf(['a', 'b']) as never,
      request: async (id) => requested.push(id),
    });
    await prepare('reader', 'x');
    await prepare('reader', 'b');
    expect(requested).toEqual([]);
  });
});
