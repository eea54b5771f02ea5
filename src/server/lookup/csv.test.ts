import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from './csv';

const fieldsOf = (text: string) => parseCsv(text).map((record) => record.fields);

describe('parseCsv', () => {
  it('splits records and fields', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
    ]);
  });

  it('reads CRLF and LF line ends, with or without a final line end', () => {
    expect(fieldsOf('a,b\r\n1,2\r\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(fieldsOf('a,,c,\n')).toEqual([['a', '', 'c', '']]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const records = parseCsv(
      'ceeb,name,city\n060064,"Challenges, Choices And Images",DENVER\n1,"The ""Best"" School","Two\nLines"\n2,x,y\n',
    );
    expect(records.map((record) => record.fields)).toEqual([
      ['ceeb', 'name', 'city'],
      ['060064', 'Challenges, Choices And Images', 'DENVER'],
      ['1', 'The "Best" School', 'Two\nLines'],
      ['2', 'x', 'y'],
    ]);
    // The record after a quoted line break starts on the line after it.
    expect(records.map((record) => record.line)).toEqual([1, 2, 3, 5]);
  });

  it('reads an empty quoted field', () => {
    expect(fieldsOf('a,"",c\n')).toEqual([['a', '', 'c']]);
  });

  it('drops a byte order mark and skips blank lines, counting them', () => {
    const records = parseCsv('\uFEFFname\n\nLincoln\r\n\r\nAdams\n');
    expect(records).toEqual([
      { line: 1, fields: ['name'] },
      { line: 3, fields: ['Lincoln'] },
      { line: 5, fields: ['Adams'] },
    ]);
  });

  it('reads nothing from an empty file', () => {
    expect(parseCsv('')).toEqual([]);
  });

  it.each([
    ['a quote left open', 'a,b\n1,"open\n2,3\n', 2, /never closed/],
    ['text after a closing quote', 'a,b\n1,"x"y\n', 2, /follows a closing quote/],
    ['a quote inside an unquoted field', 'a,b\n1,2\n3,ab"c\n', 3, /quote inside an unquoted field/],
  ])('refuses %s, naming the line', (_case, text, line, message) => {
    let error: unknown;
    try {
      parseCsv(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CsvError);
    expect((error as CsvError).line).toBe(line);
    expect((error as CsvError).message).toMatch(new RegExp(`^line ${line}: `));
    expect((error as CsvError).message).toMatch(message);
  });
});
