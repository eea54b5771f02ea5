import { describe, expect, it } from 'vitest';
import { DEFAULT_DECISION_CODES, LETTER_PLACEHOLDERS } from './decision-config';
import {
  escapeMarkdown,
  fillLetter,
  formatDeadline,
  letterValues,
  replyDeadlineAt,
} from './letter';

const answers = {
  first_name: 'Maria',
  last_name: 'Lopez',
  preferred_name: '',
  applied_major_desc: 'Psychology (BA)',
  entry_term_desc: 'Fall 2026',
  gpa: true,
};

const values = letterValues({
  answers,
  decisionLabel: 'Admit',
  confirmationNumber: 'NSU-FA26-000123',
  replyDeadline: replyDeadlineAt('2027-05-01', 'UTC'),
  timeZone: 'UTC',
  partnerName: 'Northfield State University',
});

describe('decision letters', () => {
  it('fills every placeholder from the application', () => {
    expect(values).toEqual({
      first_name: 'Maria',
      last_name: 'Lopez',
      preferred_name: 'Maria',
      program: 'Psychology (BA)',
      term: 'Fall 2026',
      decision: 'Admit',
      confirmation_number: 'NSU-FA26-000123',
      reply_deadline: 'May 1, 2027 at 11:59 PM UTC',
      partner_name: 'Northfield State University',
    });
    expect(Object.keys(values).sort()).toEqual([...LETTER_PLACEHOLDERS].sort());
    const template = LETTER_PLACEHOLDERS.map((name) => `{{ ${name} }}`).join('|');
    expect(fillLetter(template, values)).toBe(
      'Maria|Lopez|Maria|Psychology \\(BA\\)|Fall 2026|Admit|NSU\\-FA26\\-000123|May 1\\, 2027 at 11\\:59 PM UTC|Northfield State University',
    );
  });

  it('leaves a missing answer and a missing receipt empty', () => {
    const bare = letterValues({
      answers: {},
      decisionLabel: 'Deny',
      confirmationNumber: null,
      replyDeadline: null,
      timeZone: 'UTC',
      partnerName: 'NSU',
    });
    expect(bare.first_name).toBe('');
    expect(bare.confirmation_number).toBe('');
    expect(bare.reply_deadline).toBe('');
    expect(fillLetter(DEFAULT_DECISION_CODES[1]?.letter ?? '', bare)).toContain('Dear ,');
  });

  it('escapes what the applicant typed, so it prints as typed and never as formatting', () => {
    expect(escapeMarkdown('**x** <script>alert(1)</script> [a](javascript:x)')).toBe(
      '\\*\\*x\\*\\* \\<script\\>alert\\(1\\)\\<\\/script\\> \\[a\\]\\(javascript\\:x\\)',
    );
    // One line: a value cannot start a heading, a list or a new paragraph.
    expect(escapeMarkdown('Ann\n\n# Heading\n- item')).toBe('Ann \\# Heading \\- item');
    expect(escapeMarkdown('&amp; `code` \\ {{first_name}}')).toBe(
      '\\&amp\\; \\`code\\` \\\\ \\{\\{first\\_name\\}\\}',
    );
  });

  it('fills in one pass: a value that looks like a placeholder stays as typed', () => {
    const filled = fillLetter('Dear {{first_name}} {{last_name}}', {
      ...values,
      first_name: '{{last_name}}',
    });
    expect(filled).toBe('Dear \\{\\{last\\_name\\}\\} Lopez');
  });

  it('leaves an unknown placeholder as written (the tenant file refuses it at load)', () => {
    expect(fillLetter('Hi {{nickname}}', values)).toBe('Hi {{nickname}}');
  });

  it('ends the reply day at its last moment in the office’s time zone', () => {
    expect(replyDeadlineAt('2027-05-01', 'UTC').toISOString()).toBe('2027-05-01T23:59:59.999Z');
    // Eastern daylight time is UTC-4 in May, standard time UTC-5 in December.
    expect(replyDeadlineAt('2027-05-01', 'America/New_York').toISOString()).toBe(
      '2027-05-02T03:59:59.999Z',
    );
    expect(replyDeadlineAt('2027-12-31', 'America/New_York').toISOString()).toBe(
      '2028-01-01T04:59:59.999Z',
    );
    expect(replyDeadlineAt('2027-05-01', 'Asia/Kolkata').toISOString()).toBe(
      '2027-05-01T18:29:59.999Z',
    );
  });

  it('says a deadline one way: date, time and the named zone', () => {
    expect(formatDeadline('2027-12-31T23:59:59.999Z', 'UTC')).toBe(
      'December 31, 2027 at 11:59 PM UTC',
    );
    expect(
      formatDeadline(replyDeadlineAt('2027-05-01', 'America/New_York'), 'America/New_York'),
    ).toBe('May 1, 2027 at 11:59 PM EDT');
    expect(formatDeadline('not a date', 'UTC')).toBe('');
  });
});
