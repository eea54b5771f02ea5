import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding package.json, found upwards from this module, so paths neither depend on
 * the directory the server was started from nor on whether it runs from src/ or from the build.
 */
function findProjectRoot(start: string): string {
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) {
      throw new Error(`no package.json above ${start}: cannot tell where the project is`);
    }
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
