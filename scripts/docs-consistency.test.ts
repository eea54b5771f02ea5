import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const decisionsDir = path.join(root, 'docs/decisions');
const decisions = readdirSync(decisionsDir)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({
    name,
    number: name.slice(0, 3),
    text: readFileSync(path.join(decisionsDir, name), 'utf8'),
  }));

/** The header lines of a decision, before its first section. */
function header(text: string): string {
  return text.split('\n## ')[0] ?? '';
}

describe('the decision records', () => {
  it('each carries its date and status before its first section', () => {
    const missing = decisions
      .filter(
        ({ text }) =>
          !/^- Date: \d{4}-\d{2}-\d{2}$/m.test(header(text)) ||
          !/^- Status: \S/m.test(header(text)),
      )
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('name the decisions that amend them, as those name what they amend', () => {
    const unanswered: string[] = [];
    for (const { number, text } of decisions) {
      const status = /^- Status: (.*)$/m.exec(header(text))?.[1] ?? '';
      const amended = /amends ([\d, and]+)/.exec(status)?.[1]?.match(/\d{3}/g) ?? [];
      for (const target of amended) {
        const record = decisions.find((decision) => decision.number === target);
        if (!record || !new RegExp(`amended by [^\\n]*${number}`).test(header(record.text))) {
          unanswered.push(`${target} does not say that ${number} amends it`);
        }
      }
    }
    expect(decisions.length).toBeGreaterThan(40);
    expect(unanswered).toEqual([]);
  });
});

describe('the guides', () => {
  const guides = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];

  it('name only files and folders the project has', () => {
    const missing: string[] = [];
    for (const guide of guides) {
      const text = readFileSync(path.join(root, guide), 'utf8');
      for (const [, named] of text.matchAll(
        /`((?:src|scripts|e2e|bench|drizzle|tenant|lookup-lists|docs)\/[\w./-]+)`/g,
      )) {
        if (named && !named.includes('NNN') && !existsSync(path.join(root, named))) {
          missing.push(`${guide}: ${named}`);
        }
      }
    }
    expect(guides.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
