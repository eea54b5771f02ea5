// npm run openapi: writes docs/openapi-v1.json from the routes' own schemas; review the diff.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../config/project-root';
import { generateOpenApiDocument, PUBLISHED_OPENAPI_FILE } from './published-openapi';

const document = await generateOpenApiDocument();
await writeFile(PUBLISHED_OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
// Laid out as the repository's formatter lays out JSON, so `biome check` passes on it.
const formatted = spawnSync('npx', ['biome', 'format', '--write', PUBLISHED_OPENAPI_FILE], {
  cwd: projectRoot,
  stdio: 'inherit',
});
if (formatted.status !== 0) process.exitCode = 1;
process.stdout.write(
  `Wrote ${path.relative(projectRoot, PUBLISHED_OPENAPI_FILE)} (${Object.keys(document.paths).length} paths). Review the change before committing it.\n`,
);
