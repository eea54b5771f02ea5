import { describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES, FILE_NAME_MAX_LENGTH } from '../constants';
import {
  ALLOWED_EXTENSIONS,
  checkFileMeta,
  FILE_EMPTY_MESSAGE,
  FILE_NAME_TOO_LONG_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  FILE_TYPE_MESSAGE,
  fileExtension,
  fileNameLength,
  kindFromFileName,
} from './file-rules';

describe('file rules (spec 001 sections 5 and 8)', () => {
  it('quotes the spec messages exactly', () => {
    expect(FILE_TOO_LARGE_MESSAGE).toBe('Your file is too large. The maximum file size is 1 MB.');
    expect(FILE_TYPE_MESSAGE).toBe(
      'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
    );
    expect(FILE_NAME_TOO_LONG_MESSAGE).toBe(
      'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
    );
    expect(FILE_EMPTY_MESSAGE).toBe('Your file is empty. Please upload a non-empty file.');
  });

  it('uses the shared constants: 1 MB and 32 characters', () => {
    expect(FILE_MAX_BYTES).toBe(1_048_576);
    expect(FILE_NAME_MAX_LENGTH).toBe(32);
    expect([...ALLOWED_EXTENSIONS]).toEqual(['png', 'jpeg', 'jpg', 'pdf', 'docx']);
  });

  it.each(['transcript.pdf', 'photo.PNG', 'scan.jpeg', 'scan.JPG', 'essay.docx', 'résumé.Docx'])(
    'accepts %s',
    (name) => {
      expect(checkFileMeta({ name, size: 10 })).toBeNull();
    },
  );

  it.each([
    'essay.doc',
    'essay.txt',
    'virus.exe',
    'archive.zip',
    'noextension',
    'photo.png.exe',
    'photo.heic',
    '',
    'trailing-dot.',
  ])('rejects the type of %j', (name) => {
    expect(checkFileMeta({ name, size: 10 })).toBe(FILE_TYPE_MESSAGE);
  });

  it('allows exactly 1 MB and rejects one byte more', () => {
    expect(checkFileMeta({ name: 'a.pdf', size: FILE_MAX_BYTES })).toBeNull();
    expect(checkFileMeta({ name: 'a.pdf', size: FILE_MAX_BYTES + 1 })).toBe(FILE_TOO_LARGE_MESSAGE);
  });

  it('allows 32 characters including the extension and rejects 33', () => {
    const name32 = `${'a'.repeat(28)}.pdf`;
    expect(name32).toHaveLength(32);
    expect(checkFileMeta({ name: name32, size: 1 })).toBeNull();
    expect(checkFileMeta({ name: `a${name32}`, size: 1 })).toBe(FILE_NAME_TOO_LONG_MESSAGE);
  });

  it('counts characters, not UTF-16 units', () => {
    const name = `${'😀'.repeat(28)}.png`;
    expect(name.length).toBe(60);
    expect(fileNameLength(name)).toBe(32);
    expect(checkFileMeta({ name, size: 1 })).toBeNull();
  });

  it('rejects an empty file', () => {
    expect(checkFileMeta({ name: 'a.pdf', size: 0 })).toBe(FILE_EMPTY_MESSAGE);
  });

  it('reports the first failing rule: size, type, name length, then emptiness', () => {
    const longName = `${'a'.repeat(40)}.exe`;
    expect(checkFileMeta({ name: longName, size: FILE_MAX_BYTES + 1 })).toBe(
      FILE_TOO_LARGE_MESSAGE,
    );
    expect(checkFileMeta({ name: longName, size: 0 })).toBe(FILE_TYPE_MESSAGE);
    expect(checkFileMeta({ name: `${'a'.repeat(40)}.pdf`, size: 0 })).toBe(
      FILE_NAME_TOO_LONG_MESSAGE,
    );
  });

  it('maps extensions to the kind of content they promise', () => {
    expect(fileExtension('a.b.JPG')).toBe('jpg');
    expect(kindFromFileName('a.jpg')).toBe('jpeg');
    expect(kindFromFileName('a.jpeg')).toBe('jpeg');
    expect(kindFromFileName('a.docx')).toBe('docx');
    expect(kindFromFileName('a.toString')).toBeNull();
    expect(kindFromFileName('a.constructor')).toBeNull();
  });
});
