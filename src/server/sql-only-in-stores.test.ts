import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in each area's store (`accounts-store.ts`, `sessions-store.ts`, ...), where it can be
 * read, reused and measured on its own, in one idiom: `createXStore(db)` whose methods take an
 * optional transaction last. Every other server module says what happens and asks a store for the
 * rows. The database layer itself (`db/`: the connection, the schema, migrations, the PGlite
 * thread) is where the stores' tools come from, and test support (`test/`, `*.test.ts`) may set
 * up rows a running server never writes.
 */

const serverRoot = import.meta.dirname;

interface Rule {
  pattern: RegExp;
  reason: string;
}

/** The database handles modules pass around: whatever they are called, a call on one is SQL. */
const handle = String.raw`\b(?:db|tx|own|executor|database\.db|options\.db|deps\.db)`;

/** What a module outside the stores may not contain, each with the reason shown when it does. */
const forbidden: Rule[] = [
  { pattern: /from\s+['"]drizzle-orm(\/[^'"]*)?['"]/, reason: 'imports drizzle-orm' },
  { pattern: /from\s+['"][./]*db\/schema['"]/, reason: 'imports the schema' },
  { pattern: /\bimport\s*\{[^}]*\browsOf\b[^}]*\}/, reason: 'imports rowsOf' },
  { pattern: /\bsql\s*`/, reason: 'writes SQL' },
  {
    pattern: new RegExp(
      String.raw`${handle}\s*\.\s*(select|selectDistinct|insert|update|delete|execute|query)\b`,
    ),
    reason: 'calls the database directly',
  },
];

/**
 * A route file says what a request does and leaves even the transaction to its store
 * (`store.transaction`); a service spanning several stores may open one on the database and hand
 * it to each store's methods.
 */
const forbiddenInRoutes: Rule[] = [
  ...forbidden,
  {
    pattern: new RegExp(String.raw`${handle}\s*\.\s*transaction\b`),
    reason: 'opens a transaction',
  },
];

/** The reasons a module's source breaks the rule; empty when it keeps it. */
function sqlOutsideStores(source: string, rules: readonly Rule[] = forbidden): string[] {
  return rules.filter(({ pattern }) => pattern.test(source)).map(({ reason }) => reason);
}

const isStore = (name: string) => name.endsWith('-store.ts');
const isRoutes = (name: string) => name.endsWith('-routes.ts');

/** Where SQL belongs without being a store: the database layer, and test support. */
const exemptDirectories = new Set(['db', 'test']);

function modulesOutsideStores(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return dir === serverRoot && exemptDirectories.has(entry.name)
        ? []
        : modulesOutsideStores(full);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) return [];
    if (entry.name.endsWith('.test.ts') || isStore(entry.name)) return [];
    return [full];
  });
}

describe('SQL lives only in stores', () => {
  const files = modulesOutsideStores(serverRoot);
  const relative = (file: string) => path.relative(serverRoot, file);

  it('finds the modules outside the stores, and none of the stores', () => {
    const names = files.map(relative);
    expect(names).toEqual(
      expect.arrayContaining([
        'accounts/accounts-routes.ts',
        'accounts/sessions.ts',
        'application/application-routes.ts',
        'audit/audit-trail.ts',
        'documents/conversion-jobs.ts',
        'documents/document-routes.ts',
        'lookup/list-search.ts',
        'rate-limit/rate-limiter.ts',
        'retention/retention.ts',
        'service/service-routes.ts',
        'staff/staff-sessions.ts',
      ]),
    );
    expect(names.filter((name) => isStore(name) || name.startsWith('db/'))).toEqual([]);
  });

  it.each(files.map((file) => [relative(file), file]))(
    '%s asks a store, not the database',
    (name, file) => {
      const rules = isRoutes(name) ? forbiddenInRoutes : forbidden;
      expect(sqlOutsideStores(readFileSync(file, 'utf8'), rules)).toEqual([]);
    },
  );

  it.each([
    ["import { and, eq } from 'drizzle-orm';", 'imports drizzle-orm'],
    ["import { sql } from 'drizzle-orm/sql';", 'imports drizzle-orm'],
    ["import type { SQL } from 'drizzle-orm';", 'imports drizzle-orm'],
    ["import { accounts } from '../db/schema';", 'imports the schema'],
    ["import { rowsOf } from '../db/database';", 'imports rowsOf'],
    ['const rows = await run(sql`select 1`);', 'writes SQL'],
    ['const [row] = await db.select().from(accounts);', 'calls the database directly'],
    ['await db\n  .insert(logins)\n  .values({ accountId });', 'calls the database directly'],
    ['await tx.update(accounts).set({ passwordHash });', 'calls the database directly'],
    ['await database.db.execute(statement);', 'calls the database directly'],
    ['await options.db.delete(outbox);', 'calls the database directly'],
    ['await executor.update(sessions).set({ revokedAt });', 'calls the database directly'],
    ['await own.execute(statement);', 'calls the database directly'],
  ])('catches %j', (source, reason) => {
    expect(sqlOutsideStores(source)).toContain(reason);
  });

  it.each([
    ['await db.transaction(async (tx) => {});', 'opens a transaction'],
    ['await database.db.transaction(work);', 'opens a transaction'],
  ])('catches %j in a route file', (source, reason) => {
    expect(sqlOutsideStores(source, forbiddenInRoutes)).toContain(reason);
    expect(sqlOutsideStores(source)).toEqual([]);
  });

  it.each([
    "import type { AppDatabase } from '../db/database';",
    "import type { Executor } from '../db/executor';",
    'const account = await store.findByUsername(email);',
    'await storage.delete(key);',
    'createHash("sha256").update(body).digest("hex");',
    'const body = await metrics.registry.metrics();',
    'await store.transaction(async (tx) => store.confirm(account.id, tx));',
  ])('lets %j through', (source) => {
    expect(sqlOutsideStores(source, forbiddenInRoutes)).toEqual([]);
  });
});
