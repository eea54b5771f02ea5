import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const loggerOptions = pathToFileURL(new URL('./logger-options.ts', import.meta.url).pathname).href;

/** `body` in a Node process of its own with a logger made from the server's options. */
function scriptWith(body: string): string {
  return `
    import Fastify from 'fastify';
    import { appLoggerOptions } from ${JSON.stringify(loggerOptions)};
    const app = Fastify({ logger: appLoggerOptions('info') });
    ${body}`;
}

function runLogging(body: string): string[] {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', scriptWith(body)],
    { encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).msg);
}

describe("the server's log on standard output", () => {
  it('writes every buffered line before the process exits', () => {
    expect(
      runLogging(`
        for (let i = 0; i < 3; i++) app.log.info('line ' + i);
        process.exit(0);`),
    ).toEqual(['line 0', 'line 1', 'line 2']);
  });

  it('writes a line on a quiet server without waiting for a full block or the exit', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        scriptWith(`
        app.log.info('ready');
        setInterval(() => {}, 1000);`),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const firstLine = await new Promise<string>((resolve) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes('\n')) resolve(output.split('\n')[0] ?? '');
        });
      });
      expect(JSON.parse(firstLine).msg).toBe('ready');
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });
});
