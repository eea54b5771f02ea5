import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Route files say what a request does; the queries live in each area's store
 * (`accounts-store.ts`, `applications-store.ts`, ...), where they can be read, reused and
 * measured on their own. This keeps SQL from creeping back into a `*-routes.ts` file.
 */

const serverRoot = import.meta.dirname;

/** What a route file may not contain, each with the reason shown when it does. */
const forbidden: Array<{ pattern: RegExp; reason: string }> = [
  { pattern: /from\s+['"]drizzle-orm(\/[^'"]*)?['"]/, reason: 'imports drizzle-orm' },
  { pattern: /from\s+['"][./]*db\/schema['"]/, reason: 'imports the schema' },
  { pattern: /\bimport\s*\{[^}]*\browsOf\b[^}]*\}/, reason: 'imports rowsOf' },
  { pattern: /\bsql\s*`/, reason: 'writes SQL' },
  {
    pattern:
      /\b(db|tx|database\.db)\s*\.\s*(select|insert|update|delete|execute|transaction|query)\b/,
    reason: 'calls the database directly',
  },
];

/** The reasons a route file's source breaks the rule; empty when it keeps it. */
function sqlInRouteFile(source: string): string[] {
  return forbidden.filter(({ pattern }) => pattern.test(source)).map(({ reason }) => reason);
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name.endsWith('-routes.ts') ? [full] : [];
  });
}

describe('route files hold no SQL', () => {
  const files = routeFiles(serverRoot);

  it('finds the route files', () => {
    expect(files.map((file) => path.relative(serverRoot, file))).toEqual(
      expect.arrayContaining([
        'accounts/accounts-routes.ts',
        'application/application-routes.ts',
        'documents/document-routes.ts',
        'service/service-routes.ts',
      ]),
    );
  });

  it.each(files.map((file) => [path.relative(serverRoot, file), file]))(
    '%s calls its store, not the database',
    (_name, file) => {
      expect(sqlInRouteFile(readFileSync(file, 'utf8'))).toEqual([]);
    },
  );

  it.each([
    ["import { and, eq } from 'drizzle-orm';", 'imports drizzle-orm'],
    ["import { sql } from 'drizzle-orm/sql';", 'imports drizzle-orm'],
    ["import { accounts } from '../db/schema';", 'imports the schema'],
    ["import { rowsOf } from '../db/database';", 'imports rowsOf'],
    ['const rows = await run(sql`select 1`);', 'writes SQL'],
    ['const [row] = await db.select().from(accounts);', 'calls the database directly'],
    ['await db\n  .insert(logins)\n  .values({ accountId });', 'calls the database directly'],
    ['await tx.update(accounts).set({ passwordHash });', 'calls the database directly'],
    ['await db.transaction(async (tx) => {});', 'calls the database directly'],
    ['await database.db.execute(statement);', 'calls the database directly'],
  ])('catches %j', (source, reason) => {
    expect(sqlInRouteFile(source)).toContain(reason);
  });

  it.each([
    "import type { AppDatabase } from '../db/database';",
    'const account = await store.findByUsername(email);',
    'await storage.delete(key);',
    'const body = await metrics.registry.metrics();',
    'await store.transaction(async (tx) => store.confirm(account.id, tx));',
  ])('lets %j through', (source) => {
    expect(sqlInRouteFile(source)).toEqual([]);
  });
});
