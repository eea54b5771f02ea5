import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * Folders depend on each other in one direction. A cycle between two folders means neither can be
 * read, tested or moved without the other, so each side (server, web, shared) is checked from
 * the imports themselves. The files at a side's top (`src/server/app.ts`, `src/web/main.tsx`,
 * `src/web/staff/main.tsx`) compose the folders beneath them; a folder importing them back is a
 * cycle like any other.
 */

const srcRoot = import.meta.dirname;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder a file belongs to: `server/audit`, `web/layout`, `web/staff/list`, or a side's top. */
function folderOf(file: string): string {
  const parts = path.relative(srcRoot, file).split(path.sep).slice(0, -1);
  const depth = parts[0] === 'web' && parts[1] === 'staff' ? 3 : 2;
  return parts.slice(0, depth).join('/');
}

/** Every module a file names: imports, re-exports and `import()`, type-only ones included. */
function importedFiles(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const { module } = parseSync(file, source);
  const specifiers = [
    ...module.staticImports.map(({ moduleRequest }) => moduleRequest.value),
    ...module.staticExports.flatMap(({ entries }) =>
      entries.flatMap(({ moduleRequest }) => (moduleRequest ? [moduleRequest.value] : [])),
    ),
    ...module.dynamicImports.map(({ moduleRequest }) =>
      source.slice(moduleRequest.start + 1, moduleRequest.end - 1),
    ),
  ];
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier));
}

type Graph = Map<string, Map<string, string[]>>;

/** Which folders each folder imports, with the imports that make each edge. */
function folderGraph(files: readonly string[]): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const from = folderOf(file);
    for (const target of importedFiles(file)) {
      const to = folderOf(`${target}.ts`);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [
        ...(edges.get(to) ?? []),
        `${path.relative(srcRoot, file)} -> ${path.relative(srcRoot, target)}`,
      ]);
    }
  }
  return graph;
}

/** The groups of folders that reach each other (Tarjan's strongly connected components). */
function cyclesOf(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, next);
    low.set(folder, next);
    next += 1;
    stack.push(folder);
    onStack.add(folder);
    for (const to of graph.get(folder)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(folder, Math.min(low.get(folder) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return groups;
}

/** Each cycle described by the imports that close it, so a failure says what to move. */
function describeCycles(graph: Graph): string[] {
  return cyclesOf(graph).map((group) => {
    const edges = group.flatMap((from) =>
      group.flatMap((to) => {
        const imports = graph.get(from)?.get(to);
        return imports ? [`  ${from} -> ${to}: ${imports.slice(0, 3).join(', ')}`] : [];
      }),
    );
    return [`cycle between ${group.join(', ')}`, ...edges].join('\n');
  });
}

describe('no import cycle between folders', () => {
  it.each(['server', 'web', 'shared'])('src/%s', (side) => {
    const graph = folderGraph(sourceFiles(path.join(srcRoot, side)));
    expect(describeCycles(graph)).toEqual([]);
  });

  it('finds a cycle when one exists', () => {
    const graph: Graph = new Map([
      ['server/a', new Map([['server/b', ['a.ts -> b']]])],
      ['server/b', new Map([['server/c', ['b.ts -> c']]])],
      ['server/c', new Map([['server/a', ['c.ts -> a']]])],
      ['server/d', new Map([['server/a', ['d.ts -> a']]])],
    ]);
    expect(cyclesOf(graph)).toEqual([['server/a', 'server/b', 'server/c']]);
  });

  it('names the folder of a file at each depth', () => {
    expect(folderOf(path.join(srcRoot, 'server/audit/audit-trail.ts'))).toBe('server/audit');
    expect(folderOf(path.join(srcRoot, 'server/staff/oidc/oidc-routes.ts'))).toBe('server/staff');
    expect(folderOf(path.join(srcRoot, 'server/app.ts'))).toBe('server');
    expect(folderOf(path.join(srcRoot, 'web/staff/list/list-calls.ts'))).toBe('web/staff/list');
    expect(folderOf(path.join(srcRoot, 'web/staff/main.tsx'))).toBe('web/staff');
  });
});
