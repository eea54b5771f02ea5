import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from './config/project-root';
import { sampleTenantFile } from './test/test-app';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];

function startServer(env: Record<string, string>): Started {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'src/server/main.ts')],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function listeningUrl(server: Started): Promise<string> {
  for (;;) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output());
    if (match?.[1]) return match[1];
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    await new Promise((resolve) => server.child.stdout?.once('data', resolve));
  }
}

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('starting the server', () => {
  it('refuses a second server on the same embedded data directory, and shuts down cleanly', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-data-'));
    const first = startServer({ DATA_DIR: dataDir });
    const url = await listeningUrl(first);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite' });

    const second = startServer({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another running server');
    expect(second.output()).toContain(`pid ${first.child.pid}`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  });

  it('stops with a message naming the field when the tenant file lacks one', async () => {
    const tenant = JSON.parse(await readFile(sampleTenantFile, 'utf8'));
    delete tenant.help_email;
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'portal-tenant-')), 'tenant.json');
    await writeFile(file, JSON.stringify(tenant));
    const server = startServer({ TENANT_CONFIG: file, DATA_DIR: path.dirname(file) });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('help_email: is required');
  });
});
