import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Lints a would-be file with the project's own Biome configuration, so the test proves the real rule. */
function lint(fileName: string, source: string) {
  const sandbox = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  copyFileSync(path.join(root, 'biome.json'), path.join(sandbox, 'biome.json'));
  mkdirSync(path.dirname(path.join(sandbox, fileName)), { recursive: true });
  writeFileSync(path.join(sandbox, fileName), source);
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/@biomejs/biome/bin/biome'),
      'lint',
      '--vcs-enabled=false',
      fileName,
    ],
    { cwd: sandbox, encoding: 'utf8' },
  );
  return { failed: result.status !== 0, output: `${result.stdout}${result.stderr}` };
}

describe('imports flow web -> shared <- server', () => {
  it.each([
    [
      'src/shared/x.ts',
      "import { buildApp } from '../server/app';\nexport const x = buildApp;\n",
      'src/shared is pure',
    ],
    [
      'src/shared/x.ts',
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      'no I/O',
    ],
    [
      'src/shared/x.ts',
      "import { Outlet } from '../web/router';\nexport const x = Outlet;\n",
      'src/shared is pure',
    ],
    [
      'src/web/x.ts',
      "import { buildApp } from '../server/app';\nexport const x = buildApp;\n",
      'src/web must not import from src/server',
    ],
    [
      'src/server/x.ts',
      "import { router } from '../web/router';\nexport const x = router;\n",
      'src/server must not import from src/web',
    ],
  ])('rejects %s importing across the boundary', (file, source, message) => {
    const result = lint(file, source);
    expect(result.failed).toBe(true);
    expect(result.output).toContain(message);
  });

  it.each([
    [
      'src/web/x.ts',
      "import { FORM_ROUTES } from '../shared/routes';\nexport const x = FORM_ROUTES;\n",
    ],
    [
      'src/server/x.ts',
      "import { FORM_ROUTES } from '../shared/routes';\nexport const x = FORM_ROUTES;\n",
    ],
  ])('allows %s to import from src/shared', (file, source) => {
    expect(lint(file, source).failed).toBe(false);
  });
});
