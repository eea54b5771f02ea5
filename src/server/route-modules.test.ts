import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * A route module (`*-routes.ts`) is a plugin: app.ts, or its own folder's plugin, registers it
 * with its options. Anything another capability needs from it (a helper, a query) belongs in a
 * module of its own, so taking it never means taking the routes. Tests may import what they
 * check, such as a message.
 */

const serverRoot = import.meta.dirname;

function productionModules(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : productionModules(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Each import of a route module: who imports it, from which folder, and which names. */
function routeImports(file: string) {
  const { module } = parseSync(file, readFileSync(file, 'utf8'));
  return module.staticImports
    .filter(({ moduleRequest }) => /-routes$/.test(moduleRequest.value))
    .map(({ moduleRequest, entries }) => ({
      importer: path.relative(serverRoot, file),
      target: path.relative(serverRoot, path.resolve(path.dirname(file), moduleRequest.value)),
      names: entries.map(({ importName }) => importName.name ?? '*'),
    }));
}

/** Why an import of a route module breaks the rule; null when it registers the plugin. */
function breach({ importer, target, names }: ReturnType<typeof routeImports>[number]) {
  const folder = (file: string) => file.split(path.sep)[0];
  const composes = importer === 'app.ts' || folder(importer) === folder(target);
  const registration = names.every((name) => /Routes$|Options$|^register[A-Z]/.test(name));
  if (composes && registration) return null;
  return `${importer} takes ${names.join(', ')} from ${target}`;
}

describe('route modules', () => {
  it('are imported only to be registered, by app.ts or their own folder', () => {
    const breaches = productionModules(serverRoot)
      .flatMap(routeImports)
      .map(breach)
      .filter((reason) => reason !== null);
    expect(breaches).toEqual([]);
  });

  it('finds a helper taken from another folder’s routes', () => {
    expect(
      breach({
        importer: 'service/service-routes.ts',
        target: 'documents/document-routes',
        names: ['fileQuestionKeys'],
      }),
    ).toBe('service/service-routes.ts takes fileQuestionKeys from documents/document-routes');
    expect(
      breach({ importer: 'app.ts', target: 'audit-log/audit-log-routes', names: ['auditRoutes'] }),
    ).toBeNull();
  });
});
