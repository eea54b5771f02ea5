import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The browser app keeps its state in objects the app makes at its root (the query client, the
 * form session) and hands down, never in module variables: those live as long as the page, are
 * wired in whatever order modules load, and leak from one test into the next. Each exception
 * names the one place that owns it and why it may not be made at the root.
 */
const ALLOWED: Record<string, string> = {
  'src/web/data/http-client.ts:lastSessionCallAt':
    'the fetch wrapper every data call shares is the one place that sees each signed-in call',
  'src/web/session/inactivity.ts:memoryMark':
    'stands in for localStorage, which every tab of the browser shares anyway',
};

const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name);
    return isSource ? [full] : [];
  });
}

/**
 * A module-level declaration: Biome's formatting puts every top-level statement at the start of
 * a line and nothing nested there, so the lines alone tell module scope apart.
 */
const DECLARATION =
  /^(?:export\s+)?(const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([^=]+?))?\s*=\s*(.*)$/;

/** Why a module-level `const` holds changing state, or null for a constant. */
function mutableInitializer(type: string, value: string): string | null {
  // A read-only type says the container is never changed after it is made.
  if (/^(?:readonly\s|Readonly)/.test(type)) return null;
  const made = /^new\s+([\w$.]+)/.exec(value);
  if (made) return `new ${made[1]}`;
  if (/^\[\s*\](?:\s*as\s+[^;]+)?;?$/.test(value)) return 'an empty array';
  if (/^\{\s*\}(?:\s*as\s+[^;]+)?;?$/.test(value)) return 'an empty object';
  if (/^createStore\b/.test(value)) return 'createStore()';
  return null;
}

/** Every module-level `let`/`var`, and every module-level `const` holding a mutable container. */
function moduleState(dir: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = DECLARATION.exec(line);
      if (!match) continue;
      const [, keyword, name, type = '', value = ''] = match;
      const why =
        keyword === 'const'
          ? mutableInitializer(type.trim(), value.trim())
          : `a module-level ${keyword}`;
      if (why) found.push(`${relative}:${name} (${why})`);
    }
  }
  return found;
}

describe('module-level state in the browser app', () => {
  it('lives in objects made at the root, apart from the allowed exceptions', () => {
    const found = moduleState(path.join(root, 'src/web'));
    const unexpected = found.filter((entry) => !(entry.replace(/ \(.*\)$/, '') in ALLOWED));
    expect(unexpected).toEqual([]);
  });

  it('names only exceptions that still exist', () => {
    const found = new Set(
      moduleState(path.join(root, 'src/web')).map((entry) => entry.replace(/ \(.*\)$/, '')),
    );
    expect(Object.keys(ALLOWED).filter((key) => !found.has(key))).toEqual([]);
  });
});
