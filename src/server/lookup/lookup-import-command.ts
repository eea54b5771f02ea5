import path from 'node:path';
import { isListCategory, LIST_CATEGORIES } from '../../shared/lookup/lookup-api';
import { CommandError } from '../cli/command-support';
import { type CommandSpec, readOneFile, UsageError } from '../cli/run-command';
import { LookupImportError, readLookupList, storeLookupList } from './lookup-import';

export const LOOKUP_IMPORT_USAGE = `Usage: npm run lookup:import -- --category CATEGORY FILE.csv

Replaces one lookup list with the schools in FILE.csv, all at once or not at all.
  --category  ${LIST_CATEGORIES.join(' or ')}
  --check     read and check the file, store nothing
The file has a header row with the columns name and ceeb, and optionally id, address_line_1,
city, state, zip and country (other columns are ignored). The database is the server's own:
DATABASE_URL, or the embedded database under DATA_DIR (stop the server first).`;

/** A refused list is the person's to fix: said as a command error, not a crash. */
function asCommandError(error: unknown): unknown {
  return error instanceof LookupImportError ? new CommandError(error.message) : error;
}

/**
 * `npm run lookup:import`: the whole file is read and checked before the database is opened, and
 * stored in one transaction.
 */
export const lookupImportCommand: CommandSpec = {
  usage: LOOKUP_IMPORT_USAGE,
  options: {
    category: { type: 'string' },
    check: { type: 'boolean' },
  },
  positionals: true,
  async prepare(values, files, { io }) {
    const category = typeof values.category === 'string' ? values.category : '';
    if (!isListCategory(category)) {
      const given = category ? `, not "${category}"` : '';
      throw new UsageError(
        `--category must be ${LIST_CATEGORIES.join(' or ')}${given} (addresses come from a provider, not a file).`,
      );
    }
    const { file, text } = await readOneFile(files, 'CSV');
    let list: ReturnType<typeof readLookupList>;
    try {
      list = readLookupList(text);
    } catch (error) {
      throw asCommandError(error);
    }
    for (const skipped of list.skipped)
      io.err(`line ${skipped.line}: left out, ${skipped.reason}.`);
    const ignored = list.ignoredColumns.length
      ? ` (columns not used: ${list.ignoredColumns.join(', ')})`
      : '';
    const name = path.basename(file);
    if (values.check === true) {
      io.out(`${name}: ${list.rows.length} ${category} records ready to import${ignored}.`);
      return null;
    }
    return async (db) => {
      try {
        const summary = await storeLookupList(db, category, list);
        io.out(`Imported ${summary.imported} ${category} records from ${name}${ignored}.`);
      } catch (error) {
        throw asCommandError(error);
      }
    };
  },
};
