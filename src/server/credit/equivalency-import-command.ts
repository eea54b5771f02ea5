import path from 'node:path';
import { EQUIVALENCY_COLUMNS } from '../../shared/credit/equivalency';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { CommandError } from '../cli/command-support';
import { type CommandSpec, readOneFile } from '../cli/run-command';
import {
  EquivalencyImportError,
  type EquivalencyStoreSummary,
  readEquivalencyCsv,
  storeEquivalencies,
  summaryOf,
} from './equivalency-import';

export const EQUIVALENCY_IMPORT_USAGE = `Usage: npm run equivalencies:import -- FILE.csv

Replaces the equivalency table of each sending college named in FILE.csv, all at once or not
at all; colleges the file does not name keep their tables.
  --check     read and check the file, store nothing
The file has a header row with the columns ${EQUIVALENCY_COLUMNS.join(',')}
(satisfies may be left out). The database is the server's own: DATABASE_URL, or the embedded
database under DATA_DIR (stop the server first).`;

/** Who imported, on the tables' list, when the file came through the command. */
export const COMMAND_LINE_LABEL = 'command line';

function described(summary: EquivalencyStoreSummary): string {
  const colleges = summary.colleges.map((college) => `${college.ceeb} (${college.rows})`);
  return `${summary.rows} rows for ${summary.colleges.length} college${summary.colleges.length === 1 ? '' : 's'}: ${colleges.join(', ')}`;
}

/**
 * `npm run equivalencies:import`: the whole file is read and checked before the database is
 * opened, every problem listed with its line, and stored in one transaction.
 */
export const equivalencyImportCommand: CommandSpec = {
  usage: EQUIVALENCY_IMPORT_USAGE,
  options: { check: { type: 'boolean' } },
  positionals: true,
  async prepare(values, files, { io }) {
    const { file, text } = await readOneFile(files, 'CSV');
    let list: ReturnType<typeof readEquivalencyCsv>;
    try {
      list = readEquivalencyCsv(text);
    } catch (error) {
      throw error instanceof EquivalencyImportError ? new CommandError(error.message) : error;
    }
    const name = path.basename(file);
    if (values.check === true) {
      io.out(`${name}: ${described(summaryOf(list))}, ready to import.`);
      return null;
    }
    return async (db, { env }) => {
      const audit = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      const summary = await storeEquivalencies(db, list, {
        fileName: name,
        importedBy: COMMAND_LINE_LABEL,
        onStored: (stored, tx) =>
          audit.record(
            {
              actor: COMMAND_LINE_ACTOR,
              action: 'equivalencies.imported',
              detail: { colleges: stored.colleges, rows: stored.rows, file_name: name },
            },
            tx,
          ),
      });
      io.out(`Imported ${described(summary)} from ${name}.`);
    };
  },
};
