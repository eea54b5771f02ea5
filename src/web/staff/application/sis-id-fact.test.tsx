import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SisIdFact } from './sis-id-fact';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe("the student information system's id on the application", () => {
  it('shows the id with the client that wrote it back and when', () => {
    const html = renderToStaticMarkup(
      <SisIdFact
        sisId={{ value: 'S0042', set_by: 'Banner nightly', set_at: '2026-11-20T08:30:00.000Z' }}
      />,
    );
    expect(textOf(html)).toMatch(/^SIS ID S0042 Set by Banner nightly, Nov 20, 2026/);
    expect(html).toContain('dateTime="2026-11-20T08:30:00.000Z"');
  });

  it('says when it has not been written back', () => {
    expect(textOf(renderToStaticMarkup(<SisIdFact sisId={null} />))).toBe(
      'SIS ID Not written back yet',
    );
  });
});
