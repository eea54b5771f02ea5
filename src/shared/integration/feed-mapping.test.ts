import { describe, expect, it } from 'vitest';
import { applicationModel } from '../application/application-model';
import { formatValue, parseFeedMapping, parseFormat } from './feed-mapping';

const minimal = {
  name: 'sis-admits',
  select: 'changed',
  file: { name: 'admits-{date}.txt' },
  destination: { type: 'folder', path: '/srv/feeds' },
  columns: [
    { header: 'ID', source: 'application_id' },
    { header: 'PROGRAM', source: 'answer:applied_major', map: { '205': 'CS-BS' } },
    { header: 'BIRTH', source: 'answer:birth_date', format: 'date:MM/DD/YYYY' },
  ],
};

const parse = (value: unknown) => parseFeedMapping(JSON.stringify(value), applicationModel);

describe('the feed mapping file', () => {
  it('reads a minimal mapping with its defaults', () => {
    const result = parse(minimal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.mapping.timezone).toBe('UTC');
    expect(result.mapping.file).toMatchObject({
      delimiter: 'comma',
      header: true,
      line_ending: 'CRLF',
      quoting: 'minimal',
    });
    expect(result.mapping.columns[1]?.unmapped).toBe('error');
  });

  it('refuses unknown keys, naming each with its path', () => {
    const result = parse({
      ...minimal,
      colour: 'blue',
      columns: [...minimal.columns, { header: 'X', source: 'email', fromat: 'upper' }],
      destination: { type: 'folder', path: '/srv', mode: '0600' },
    });
    expect(result).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        'colour is not a known key',
        'columns[3].fromat is not a known key',
        'destination.mode is not a known key',
      ]),
    });
  });

  it('says every other problem with its path', () => {
    const result = parse({
      ...minimal,
      name: 'SIS Admits',
      schedule: '61 2 * * *',
      timezone: 'Mars/Olympus',
      file: { name: 'admits-{day}.txt', delimiter: 'semicolon' },
      columns: [
        { header: 'A', source: 'answer:favourite_colour' },
        { header: 'B', source: 'label:first_name' },
        { header: 'C', source: 'birthday' },
        { header: 'D', source: 'answer:birth_date', format: 'date:DD.MM.YY' },
        { header: 'E', source: 'answer:birth_date', format: 'titlecase' },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.problems.join('\n');
    expect(text).toMatch(/^name: must be/m);
    expect(text).toMatch(/^schedule: is not a cron schedule \(.*minute.*\)/m);
    expect(text).toMatch(/^timezone: must be a time zone/m);
    expect(text).toMatch(/^file\.name: may hold only \{date\}, \{time\} and \{run\}/m);
    expect(text).toMatch(/^file\.delimiter: /m);
    expect(text).toMatch(/^columns\[2\]\.source: must be one of application_id/m);
    expect(text).toMatch(/^columns\[4\]\.format: must be upper/m);
  });

  it('checks answer and label keys against the application model', () => {
    const result = parse({
      ...minimal,
      columns: [
        { header: 'A', source: 'answer:favourite_colour' },
        { header: 'B', source: 'label:first_name' },
        { header: 'C', source: 'label:applied_major' },
      ],
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        'columns[0].source: favourite_colour is not a question of the application',
        'columns[1].source: first_name has no option labels (use answer:first_name)',
      ],
    });
  });

  it('asks SFTP for exactly one way to sign in, a pinned host key and no secret in the file', () => {
    const result = parse({
      ...minimal,
      destination: {
        type: 'sftp',
        host: 'sftp.sis.example.edu',
        username: 'loader',
        password: 'hunter2',
        path: '/incoming',
        host_key_sha256: 'not-a-fingerprint',
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'destination.password is not a known key',
        expect.stringMatching(/^destination\.host_key_sha256: must be the SHA-256 fingerprint/),
      ]),
    );
    const neither = parse({
      ...minimal,
      destination: {
        type: 'sftp',
        host: 'sftp.sis.example.edu',
        username: 'loader',
        path: '/incoming',
        host_key_sha256: `SHA256:${'A'.repeat(43)}`,
      },
    });
    expect(neither).toEqual({
      ok: false,
      problems: ['destination: give exactly one of password_env and private_key_file'],
    });
  });

  it('names a file that is not JSON', () => {
    expect(parseFeedMapping('{"name": ', applicationModel)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^not JSON: /)],
    });
  });
});

describe('formats', () => {
  const format = (value: string, text: string, zone = 'UTC') => {
    const parsed = parseFormat(text);
    if (!parsed) throw new Error(`no format ${text}`);
    return formatValue(value, parsed, zone);
  };

  it('writes dates in the pattern, instants in the feed time zone', () => {
    expect(format('2001-02-03', 'date:MM/DD/YYYY')).toBe('02/03/2001');
    expect(format('2001-02-03', 'date:YYYYMMDD', 'Asia/Tokyo')).toBe('20010203');
    expect(format('2027-03-01T03:30:00.000Z', 'date:YYYY-MM-DD HH:mm', 'America/Los_Angeles')).toBe(
      '2027-02-28 19:30',
    );
    expect(format('soon', 'date:YYYY-MM-DD')).toBeNull();
  });

  it('changes case, keeps digits, fixes decimals and writes booleans as Y/N', () => {
    expect(format('Ada', 'upper')).toBe('ADA');
    expect(format('(555) 010-2030', 'digits')).toBe('5550102030');
    expect(format('3.456', 'fixed:2')).toBe('3.46');
    expect(format('many', 'fixed:2')).toBeNull();
    expect(format('true', 'yes_no')).toBe('Y');
    expect(format('', 'fixed:2')).toBe('');
  });

  it('refuses formats it does not know', () => {
    expect(parseFormat('date:')).toBeNull();
    expect(parseFormat('date:today')).toBeNull();
    expect(parseFormat('fixed:10')).toBeNull();
    expect(parseFormat('titlecase')).toBeNull();
  });
});
