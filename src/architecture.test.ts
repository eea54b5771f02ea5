import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Lints a would-be file with the project's own Biome configuration, so the test proves the real rule. */
function lint(fileName: string, source: string) {
  const sandbox = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  copyFileSync(path.join(root, 'biome.json'), path.join(sandbox, 'biome.json'));
  copyFileSync(path.join(root, 'package.json'), path.join(sandbox, 'package.json'));
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
      'src/shared/form/x.ts',
      "import { MAJOR } from '../application/option-lists';\nexport const x = MAJOR;\n",
      'must not import the application',
    ],
    [
      'src/shared/lookup/x.ts',
      "import { countryOptions } from '../application/option-lists';\nexport const x = countryOptions;\n",
      'must not import the application',
    ],
    [
      'src/shared/lookup/x.ts',
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      'no I/O',
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
    [
      'src/shared/application/x.ts',
      "import { DESC_SUFFIX } from '../form/model';\nexport const x = DESC_SUFFIX;\n",
    ],
  ])('allows %s to import from src/shared', (file, source) => {
    expect(lint(file, source).failed).toBe(false);
  });
});

describe('the staff console and the applicant screens share only neutral folders', () => {
  it.each([
    [
      'src/web/staff/team/x.tsx',
      "import { TextField } from '../../auth/text-field';\nexport const x = TextField;\n",
      "must not import the applicant's screens",
    ],
    [
      'src/web/staff/shell/x.tsx',
      "import { Header } from '../../layout/header';\nexport const x = Header;\n",
      "must not import the applicant's screens",
    ],
    [
      'src/web/staff/application/x.tsx',
      "import { FormPage } from '../../form/form-page';\nexport const x = FormPage;\n",
      "must not import the applicant's screens",
    ],
    [
      'src/web/staff/x.tsx',
      "import { CompletionPage } from '../pages/completion-page';\nexport const x = CompletionPage;\n",
      "must not import the applicant's screens",
    ],
    [
      'src/web/staff/audit/x.ts',
      "import { buildApp } from '../../../server/app';\nexport const x = buildApp;\n",
      'src/web must not import from src/server',
    ],
    [
      'src/web/auth/x.tsx',
      "import { StaffForm } from '../staff/shell/staff-form';\nexport const x = StaffForm;\n",
      'must not import the staff console',
    ],
    [
      'src/web/layout/x.tsx',
      "import { ConsoleLayout } from '../staff/shell/console-layout';\nexport const x = ConsoleLayout;\n",
      'must not import the staff console',
    ],
    [
      'src/web/x.tsx',
      "import { staffRouter } from './staff/staff-router';\nexport const x = staffRouter;\n",
      'must not import the staff console',
    ],
  ])('rejects %s importing the other side', (file, source, message) => {
    const result = lint(file, source);
    expect(result.failed).toBe(true);
    expect(result.output).toContain(message);
  });

  it.each([
    [
      'src/web/staff/team/x.tsx',
      "import { TextField } from '../../ui/text-field';\nexport const x = TextField;\n",
    ],
    [
      'src/web/staff/shell/x.tsx',
      "import { ShellFrame } from '../../frame/shell-frame';\nexport const x = ShellFrame;\n",
    ],
    [
      'src/web/staff/application/x.tsx',
      "import type { Field } from '../../../shared/form/model';\nexport type X = Field;\n",
    ],
    ['src/web/auth/x.tsx', "import { Button } from '../ui/button';\nexport const x = Button;\n"],
    [
      'src/web/layout/x.ts',
      "import { PERMISSIONS } from '../../shared/staff/permissions';\nexport const x = PERMISSIONS;\n",
    ],
  ])('allows %s its import from a neutral folder', (file, source) => {
    expect(lint(file, source).failed).toBe(false);
  });
});

describe('test support stays out of production code', () => {
  it.each([
    ['src/server/x.ts', "import { extractText } from 'unpdf';\nexport const x = extractText;\n"],
    ['src/shared/x.ts', "import { describe } from 'vitest';\nexport const x = describe;\n"],
    ['src/web/x.tsx', "import { test } from '@playwright/test';\nexport const x = test;\n"],
    ['scripts/x.ts', "import fc from 'fast-check';\nexport const x = fc;\n"],
  ])('rejects %s importing a devDependency', (file, source) => {
    const result = lint(file, source);
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noUndeclaredDependencies');
  });

  it.each([
    [
      'src/server/x.test.ts',
      "import { extractText } from 'unpdf';\nexport const x = extractText;\n",
    ],
    ['src/server/test/x.ts', "import jpeg from 'jpeg-js';\nexport const x = jpeg;\n"],
    ['src/web/x.test.tsx', "import { describe } from 'vitest';\nexport const x = describe;\n"],
    ['e2e/x.spec.ts', "import { test } from '@playwright/test';\nexport const x = test;\n"],
    ['src/web/x.tsx', "import { useState } from 'react';\nexport const x = useState;\n"],
  ])('allows %s its import', (file, source) => {
    expect(lint(file, source).failed).toBe(false);
  });

  /** The files the build may reach: everything in src and the commands' entries, but the tests. */
  function productionFiles(dir: string): string[] {
    return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' ? [] : productionFiles(file);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
    });
  }

  it('has no production file importing from a test/ folder', () => {
    const files = [...productionFiles('src'), ...productionFiles('scripts')];
    const offending = files.flatMap((file) => {
      const source = readFileSync(path.join(root, file), 'utf8');
      const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)];
      return specifiers
        .map(([, specifier]) => path.join(path.dirname(file), specifier ?? ''))
        .filter((target) => target.split(path.sep).includes('test'))
        .map((target) => `${file} -> ${target}`);
    });
    expect(files.length).toBeGreaterThan(100);
    expect(offending).toEqual([]);
  });
});
