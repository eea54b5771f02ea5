import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EquivalencyImportError, readEquivalencyCsv } from './equivalency-import';

const HEADER = 'sending_ceeb,subject,number,title,units,local_course,local_units,kind,satisfies';

function problemsOf(text: string): readonly string[] {
  try {
    readEquivalencyCsv(text);
  } catch (error) {
    if (error instanceof EquivalencyImportError) return error.problems;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('readEquivalencyCsv', () => {
  it('reads the rows of several colleges, with their lines and requirement codes', () => {
    const list = readEquivalencyCsv(
      [
        HEADER,
        '4144,ENGL,1A,Composition,3,ENGL 100,3,course,ge-a2;MAJOR-CS-CALC1',
        '4144,MATH,1XX,Math elective,4,MATH 1XX,4,elective,GE-B4 GE-A3',
        '5074,PE,10,Tennis,1,,,no_credit,',
      ].join('\r\n'),
    );
    expect(list.colleges).toEqual(['4144', '5074']);
    expect(list.rows).toEqual([
      {
        sendingCeeb: '4144',
        subject: 'ENGL',
        number: '1A',
        title: 'Composition',
        units: 3,
        localCourse: 'ENGL 100',
        localUnits: 3,
        kind: 'course',
        satisfies: ['GE-A2', 'MAJOR-CS-CALC1'],
        line: 2,
      },
      expect.objectContaining({ line: 3, kind: 'elective', satisfies: ['GE-B4', 'GE-A3'] }),
      expect.objectContaining({ line: 4, kind: 'no_credit', localCourse: '', localUnits: 0 }),
    ]);
  });

  it('takes the columns in any order and without satisfies', () => {
    const list = readEquivalencyCsv(
      'kind,sending_ceeb,subject,number,title,units,local_course,local_units\n' +
        'course,4144,CHEM,1A,General Chemistry,5,CHEM 111,5\n',
    );
    expect(list.rows[0]).toMatchObject({ subject: 'CHEM', units: 5, satisfies: [] });
  });

  it('names the missing columns and what the header has', () => {
    expect(problemsOf('sending_ceeb,subject,title\n4144,ENGL,x\n')).toEqual([
      'the header has no "number", "units", "local_course", "local_units", "kind" columns; line 1 (the header) has: sending_ceeb, subject, title.',
    ]);
  });

  it('refuses unknown and repeated columns', () => {
    expect(problemsOf(`${HEADER},notes,units\n`)).toEqual([
      'the header has a column "notes" that is not one of: sending_ceeb, subject, number, title, units, local_course, local_units, kind, satisfies.',
      'the header names "units" twice.',
    ]);
  });

  it('lists every problem of every line', () => {
    const problems = problemsOf(
      [
        HEADER,
        '4144,ENGL,1A,Composition,three,ENGL 100,3,course,',
        '4144,ENGL,1B,Composition,3,ENGL 101,31,transfer,',
        '4144,engl,1 a,Again,3,ENGL 100,3,course,',
        '4144,MATH,2,,3,,3,course,GE A2!',
        '4144,PE,1,Tennis,1,PE 1,1,no_credit,',
        '41-44,X,1,Y,1,Z,1,course',
        `4144,${'S'.repeat(11)},1,${'T'.repeat(101)},1,${'L'.repeat(41)},1,course,`,
        '4144,ART,1,Draw\u0000ing,1,ART 1,1,course,',
      ].join('\n'),
    );
    expect(problems).toEqual([
      'line 2: units "three" is not a number (write it like 3 or 4.5, at most 2 decimals).',
      'line 3: kind "transfer" is not one of: course, elective, no_credit.',
      'line 3: local_units 31 is more than 30.',
      'line 4: engl 1 a of 4144 repeats line 2.',
      'line 5: title is empty.',
      'line 5: local_course is empty (needed for course).',
      'line 5: satisfies "A2!" is not a requirement code (letters, digits, - _ . up to 40, like GE-A2).',
      'line 6: local_units must be 0 (or empty) for no_credit.',
      'line 7: expected 9 fields as in the header, found 8.',
      'line 8: subject is longer than 10 characters.',
      'line 8: title is longer than 100 characters.',
      'line 8: local_course is longer than 40 characters.',
      'line 9: title holds control characters or is not text.',
    ]);
  });

  it('refuses a bad code and a ceeb that is not letters and digits', () => {
    expect(
      problemsOf(
        `${HEADER}\n41-44,X,1,Y,1,Z,1,course,GE_A1\n4144,X,1,Y,1,Z,1,course,${'A'.repeat(41)}`,
      ),
    ).toEqual([
      'line 2: sending_ceeb "41-44" may hold only letters and digits.',
      `line 3: satisfies "${'A'.repeat(40)}..." is not a requirement code (letters, digits, - _ . up to 40, like GE-A2).`,
    ]);
  });

  it('lists fifty problems and says how many more', () => {
    const rows = Array.from({ length: 60 }, (_, index) => `4144,X,${index},T,x,L,1,course,`);
    const problems = problemsOf([HEADER, ...rows].join('\n'));
    expect(problems).toHaveLength(51);
    expect(problems[0]).toMatch(/^line 2: units "x"/);
    expect(problems[50]).toBe('... and 10 more problems.');
  });

  it('refuses a file with no rows, and an empty file', () => {
    expect(problemsOf(`${HEADER}\n`)).toEqual(['the file has no rows to import, only a header.']);
    expect(problemsOf('')).toEqual(['the file is empty; it needs a header row.']);
  });

  it('refuses CSV that is not well-formed with its line', () => {
    expect(problemsOf(`${HEADER}\n4144,"ENGL,1A\n`)).toEqual([
      'line 2: a quoted field is never closed.',
    ]);
  });

  it('refuses binary junk at once, in one sentence', () => {
    const junk = randomBytes(10 * 1024 * 1024).toString('utf8');
    const problems = problemsOf(junk);
    expect(problems).toEqual([
      expect.stringMatching(/^the file is not a CSV text file \(UTF-8\): line 1 should be/),
    ]);
    expect(problemsOf('PK\u0003\u0004\u0014\u0000\u0006\u0000')).toHaveLength(1);
    // Random bytes whose first line happens to hold no control character: binary all the same.
    const latin1 = `abc,def\n${randomBytes(4096).toString('latin1')}`;
    expect(problemsOf(latin1)).toEqual([expect.stringMatching(/^the file is not a CSV text file/)]);
  });
});
