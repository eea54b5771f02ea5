import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, so that paths do not depend on the directory the server was started from. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
