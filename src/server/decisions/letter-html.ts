import MarkdownIt from 'markdown-it';

/*
 * A released letter (Markdown, placeholders already filled and escaped) as HTML for the status
 * page; letter-render.ts lays the same tokens out as a PDF, loaded only when a letter is
 * downloaded. Raw HTML in a template is shown as text, never passed through: the tenant writes
 * the templates, but the filled values come from applicants.
 */

export const letterMarkdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function letterHtml(letter: string): string {
  return letterMarkdown.render(letter);
}
