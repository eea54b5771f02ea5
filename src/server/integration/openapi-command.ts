// npm run openapi: writes docs/openapi-v1.json from the routes' own schemas; review the diff.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  generateOpenApiDocument,
  PUBLISHED_OPENAPI_FILE,
  publishedText,
} from './published-openapi';

const document = await generateOpenApiDocument();
await writeFile(PUBLISHED_OPENAPI_FILE, publishedText(document));
process.stdout.write(
  `Wrote ${path.relative(process.cwd(), PUBLISHED_OPENAPI_FILE)} (${Object.keys(document.paths).length} paths). Review the change before committing it.\n`,
);
