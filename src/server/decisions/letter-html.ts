import MarkdownIt from 'markdown-it';

/*
 * A released letter (Markdown, placeholders already filled and escaped) as HTML for the status
 * page; letter-render.ts lays the same tokens out as a PDF, loaded only when a letter is
 * downloaded. Raw HTML in a template is shown as text, never passed through: the tenant writes
 * the templates, but the filled values come from applicants.
 */

export const letterMarkdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** h1 to h2 and so on: on the status page the letter sits under the page's own heading. */
const HEADING_BELOW = { h1: 'h2', h2: 'h3', h3: 'h4', h4: 'h5', h5: 'h6', h6: 'h6' } as const;

/** The reply deadline as the letter was filled with it: the moment, and the words it says. */
export interface LetterDeadline {
  at: Date;
  text: string;
}

export function letterHtml(letter: string, deadline?: LetterDeadline): string {
  const tokens = letterMarkdown.parse(letter, {});
  for (const token of tokens) {
    if (
      (token.type === 'heading_open' || token.type === 'heading_close') &&
      token.tag in HEADING_BELOW
    )
      token.tag = HEADING_BELOW[token.tag as keyof typeof HEADING_BELOW];
  }
  const html = letterMarkdown.renderer.render(tokens, letterMarkdown.options, {});
  if (!deadline?.text) return html;
  // The deadline's words become a <time> naming its moment, so the status page can say it in
  // the applicant's own zone; the words (the office's zone, named) stay where no script runs.
  const words = letterMarkdown.utils.escapeHtml(deadline.text);
  return html.split(words).join(`<time datetime="${deadline.at.toISOString()}">${words}</time>`);
}
