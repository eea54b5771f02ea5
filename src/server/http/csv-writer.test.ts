import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvRow, csvStream } from './csv-writer';

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('CSV writer', () => {
  it('writes plain values as they are and empty values as empty fields', () => {
    expect(csvCell('Maria Lopez')).toBe('Maria Lopez');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date('2026-09-01T12:30:00.000Z'))).toBe('2026-09-01T12:30:00.000Z');
    expect(csvCell('Zoë 张伟')).toBe('Zoë 张伟');
  });

  it('quotes fields with commas, quotes or line breaks, doubling the quotes', () => {
    expect(csvCell('Lopez, Maria')).toBe('"Lopez, Maria"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell({ q: 'a,b' })).toBe('"{""q"":""a,b""}"');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
  ])('defuses a formula in text: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves text with a formula sign elsewhere alone', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('name@example.edu')).toBe('name@example.edu');
  });

  it('ends each row with CRLF', () => {
    expect(csvRow(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
  });

  it('streams the byte order mark, the header and every record', async () => {
    const stream = csvStream(
      ['seq', 'name'],
      from([
        [1, 'Ana'],
        [2, 'Lopez, Maria'],
      ]),
    );
    const body = await text(stream);
    expect(body.startsWith(CSV_BOM)).toBe(true);
    expect(body).toBe(`${CSV_BOM}seq,name\r\n1,Ana\r\n2,"Lopez, Maria"\r\n`);
  });

  it('streams a header alone when there are no records', async () => {
    expect(await text(csvStream(['seq'], from([])))).toBe(`${CSV_BOM}seq\r\n`);
  });
});
