import { describe, expect, it } from 'vitest';
import { DEFAULT_DECISION_CODES, LETTER_PLACEHOLDERS } from './decision-config';
import { escapeMarkdown, fillLetter, formatReplyDeadline, letterValues } from './letter';

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
  replyDeadline: '2027-05-01',
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
      reply_deadline: 'May 1, 2027',
      partner_name: 'Northfield State University',
    });
    expect(Object.keys(values).sort()).toEqual([...LETTER_PLACEHOLDERS].sort());
    const template = LETTER_PLACEHOLDERS.map((name) => `{{ ${name} }}`).join('|');
    expect(fillLetter(template, values)).toBe(
      'Maria|Lopez|Maria|Psychology \\(BA\\)|Fall 2026|Admit|NSU\\-FA26\\-000123|May 1\\, 2027|Northfield State University',
    );
  });

  it('leaves a missing answer and a missing receipt empty', () => {
    const bare = letterValues({
      answers: {},
      decisionLabel: 'Deny',
      confirmationNumber: null,
      replyDeadline: null,
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

  it('formats the reply deadline as a date in words', () => {
    expect(formatReplyDeadline('2027-12-31')).toBe('December 31, 2027');
    expect(formatReplyDeadline(null)).toBe('');
    expect(formatReplyDeadline('not a date')).toBe('');
  });
});
