import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FormModel } from '../../shared/form/model';
import { type PrintableState, printableApplication } from '../../shared/form/printable';
import { fixtureModel } from '../../shared/test/fixture-model';
import { ApplicationDocument, serviceLinks } from './read-only-view';

const TOKEN = 'staff-token';

function render(model: FormModel, state: PrintableState): string {
  return renderToStaticMarkup(
    <ApplicationDocument
      application={printableApplication(model, state)}
      title="Application of Ada Lovelace"
      partnerName="Northfield State University"
      links={serviceLinks(TOKEN)}
    />,
  );
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** A row's markup; rows hold no nested divs. */
function rowOf(html: string, key: string): string {
  const match = new RegExp(`<div[^>]*data-key="${key}"[^>]*>([\\s\\S]*?)</div>`).exec(html);
  if (!match?.[1]) throw new Error(`no row ${key}`);
  return match[1];
}

/** The text a row shows on screen and paper: words for screen readers only are left out. */
const shown = (html: string, key: string) =>
  textOf(rowOf(html, key).replace(/<span class="visually-hidden">[^<]*<\/span>/g, ''));

/** What a screen reader hears for a row: the marks are hidden from it, their words are not. */
const heard = (html: string, key: string) =>
  textOf(rowOf(html, key).replace(/<span[^>]*aria-hidden="true"[^>]*>[^<]*<\/span>/g, ''));

const answered: PrintableState = {
  answers: {
    first_name: 'Ada',
    birth_date: '2000-05-15',
    military: 'Y',
    military_desc: 'Yes',
    optin_sms_ind: false,
    phone_mobile: '(954) 555-0123',
    branch_name: 'Navy',
    branch_start_year: '2019',
    major: '6',
    major_desc: 'Nursing',
    study_location: 'Main campus',
    statement_doc: 'ANSWERED',
    agree: true,
    signature: 'Ada Lovelace',
  },
  tabs: { statement_tabs: 'upload' },
  documents: { statement_doc: { file_name: 'essay.docx', file_size: 2048 } },
};

describe('the read-only document', () => {
  it('shows each widget as the paper form would', () => {
    const page = render(fixtureModel, answered);
    expect(shown(page, 'first_name')).toBe('First name Ada');
    expect(shown(page, 'birth_date')).toBe('Date of birth 2000-05-15');
    expect(shown(page, 'military')).toBe('Military service Yes');
    expect(shown(page, 'optin_sms_ind')).toBe('Text me updates [ ]');
    expect(heard(page, 'optin_sms_ind')).toBe('Text me updates Not checked');
    expect(shown(page, 'agree')).toMatch(/\[X\]$/);
    expect(heard(page, 'agree')).toMatch(/Checked$/);
    expect(shown(page, 'major')).toBe('Major (X) Nursing ( ) Film ( ) History');
    expect(heard(page, 'major')).toBe('Major Nursing (selected) Film History');
    expect(shown(page, 'branch_start_year')).toBe('Start year 2019');
    expect(shown(page, 'signature')).toBe('Signature Ada Lovelace');
    expect(page).not.toMatch(/<(input|select|textarea|button)\b/);
  });

  it('links an attached document to its PDF through the staff token', () => {
    const page = render(fixtureModel, answered);
    const link = /<a href="([^"]+)"[^>]*>([^<]*)<\/a>/.exec(rowOf(page, 'statement_doc'));
    expect(link?.[1]).toBe(`/service/document/statement_doc/pdf?service_token=${TOKEN}`);
    expect(link?.[2]).toBe('Document attached');
    expect(shown(page, 'statement_doc')).toContain('(essay.docx)');
  });

  it('offers a document to view and to download where the links say how', () => {
    const page = renderToStaticMarkup(
      <ApplicationDocument
        application={printableApplication(fixtureModel, answered)}
        title="Answers"
        partnerName="Northfield State University"
        titleLevel={2}
        links={{
          document: (key) => `/staff/api/applications/a1/documents/${key}/pdf`,
          download: (key) =>
            `/staff/api/applications/a1/documents/${key}/pdf?disposition=attachment`,
        }}
      />,
    );
    const links = [...rowOf(page, 'statement_doc').matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)];
    expect(links.map(([, attributes]) => /href="([^"]+)"/.exec(attributes ?? '')?.[1])).toEqual([
      '/staff/api/applications/a1/documents/statement_doc/pdf',
      '/staff/api/applications/a1/documents/statement_doc/pdf?disposition=attachment',
    ]);
    expect(links[0]?.[1]).toContain('target="_blank"');
    expect(links[1]?.[1]).toContain('download');
    expect(textOf(links[0]?.[2] ?? '')).toMatch(/^View .+, in a new tab$/);
    expect(textOf(links[1]?.[2] ?? '')).toMatch(/^Download .+/);
    // Under the console's own heading: no PDF link of its own, and every heading one level down.
    expect(page).not.toContain('Download the application as one PDF');
    expect(page).toMatch(/<h2 id="read-only-title"[^>]*>Answers<\/h2>/);
    expect(page).toMatch(/<h3 id="page-about-title"/);
    expect(page).not.toMatch(/<h1\b/);
  });

  it('shows a group only when one of its answers exists, and says when a page has none', () => {
    const page = render(fixtureModel, { answers: { first_name: 'Ada' } });
    const headings = [...page.matchAll(/<(h[1-6])[^>]*>([^<]*)<\/h[1-6]>/g)].map(
      ([, tag, text]) => `${tag} ${text}`,
    );
    expect(headings).toEqual([
      'h1 Application of Ada Lovelace',
      'h2 About You',
      'h3 Your name',
      'h2 Your Academics',
    ]);
    expect(textOf(page)).toContain('No answers on this page.');
    expect(page).not.toContain('data-key="major"');
  });

  it('shows a school search as one line of text, and a text area as its text', () => {
    const model: FormModel = {
      pages: [
        {
          id: 'education',
          route: '/education',
          title: 'Your Academics',
          items: [
            {
              kind: 'block',
              id: 'school',
              title: 'High school',
              layout: 'schoolSearch',
              items: [
                { kind: 'field', key: 'hs_name', widget: 'text', label: 'School name' },
                { kind: 'field', key: 'hs_city', widget: 'text', label: 'City' },
                { kind: 'field', key: 'hs_state', widget: 'text', label: 'State' },
                { kind: 'field', key: 'hs_ceeb', widget: 'text', label: 'CEEB code' },
              ],
            },
            { kind: 'field', key: 'essay', widget: 'textarea', label: 'Essay' },
          ],
        },
      ],
    };
    const page = render(model, {
      answers: {
        hs_name: 'Plantation High School',
        hs_city: 'Plantation',
        hs_state: 'FL',
        hs_ceeb: '101234',
        essay: 'Line one.\nLine two.',
      },
    });
    expect(shown(page, 'hs_name')).toBe(
      'High school Plantation High School, Plantation, FL (CEEB code 101234)',
    );
    expect(rowOf(page, 'essay')).toContain('Line one.\nLine two.');
  });

  it('writes an empty answer as a dash that reads "Not answered"', () => {
    const page = render(fixtureModel, { answers: { first_name: 'Ada', military: 'N' } });
    expect(shown(page, 'birth_date')).toBe('Date of birth —');
    expect(heard(page, 'birth_date')).toBe('Date of birth Not answered');
  });
});
