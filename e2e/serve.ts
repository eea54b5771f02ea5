// Starts the compiled server for the end-to-end run on a database of its own: a fresh embedded
// data directory, or with DATABASE_URL a PostgreSQL database created now and dropped at the end.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startTestOidcProvider } from '../src/server/test/oidc-test-provider';
import { E2E_OIDC } from './helpers/staff';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
const databaseName = `portal_e2e_${randomBytes(6).toString('hex')}`;

async function admin(statement: string): Promise<void> {
  if (!adminUrl) return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

// One feed for the console's Feeds page (e2e/staff-feeds.spec.ts): no schedule, so it runs only
// when asked, into a folder of this run's own.
const feedsDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-feeds-'));
mkdirSync(path.join(feedsDir, 'out'));
writeFileSync(
  path.join(feedsDir, 'e2e-nightly.json'),
  JSON.stringify({
    name: 'e2e-nightly',
    description: 'Submitted applications for the student information system',
    select: 'all',
    file: { name: 'e2e-nightly-{run}.csv' },
    destination: { type: 'folder', path: path.join(feedsDir, 'out') },
    columns: [
      { header: 'ID', source: 'application_id' },
      { header: 'TERM', source: 'answer:entry_term', map: { NEVER: 'X' }, unmapped: 'keep' },
    ],
  }),
);

let runDatabaseUrl = '';
if (adminUrl) {
  await admin(`create database "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  runDatabaseUrl = url.toString();
}
// The university's identity provider for the console's single sign-on, in this process. It starts
// first: the server's environment names its address (a free port, known only once it listens).
const port = process.env.E2E_PORT ?? '3100';
const oidc = await startTestOidcProvider({
  clients: [
    {
      client_id: E2E_OIDC.clientId,
      client_secret: E2E_OIDC.clientSecret,
      redirect_uris: [`http://127.0.0.1:${port}/staff/sso/callback`],
    },
  ],
  accounts: E2E_OIDC.accounts,
});

// The compiled server, as production runs it (`npm run test:e2e` builds it first). Before it is
// ready it imports the default school lists into the run's fresh database.
const server = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: port,
    DATA_DIR: dataDir,
    DATABASE_URL: runDatabaseUrl,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    FEEDS_DIR: feedsDir,
    // Accounts made through the API say they come from addresses of their own (helpers/accounts.ts),
    // so the per-address sign-up limit counts each one apart and the suite is not throttled by its
    // own size; the browser's requests carry no such header and still count as this machine.
    TRUST_PROXY: '127.0.0.1',
    // No PUBLIC_URL: the server's links, the provider's redirect URI among them, start where the
    // browser reached it, http://127.0.0.1:<port>, the address the client above is registered with.
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: E2E_OIDC.clientId,
    OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
    OIDC_ROLE_CLAIM: 'groups',
    OIDC_ADMIN_VALUES: E2E_OIDC.adminGroup,
    OIDC_READER_VALUES: E2E_OIDC.readerGroup,
    OIDC_LABEL: E2E_OIDC.label,
  },
});

async function cleanUp(code: number): Promise<never> {
  await oidc.close().catch((error: unknown) => {
    console.error('could not stop the identity provider', error);
  });
  await admin(`drop database if exists "${databaseName}" with (force)`).catch((error: unknown) => {
    console.error('could not drop the end-to-end database', error);
  });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(feedsDir, { recursive: true, force: true });
  process.exit(code);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  });
}
server.once('exit', (code) => {
  void cleanUp(code ?? 0);
});
