import { CommandError } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import { createAuditStore } from './audit-store';
import { createAuditTrail } from './audit-trail';

export const AUDIT_USAGE = `Usage:
  npm run audit -- verify   check the hash chain of the whole audit trail
Prints "Audit trail intact: N entries." and the newest entry's number and hash (exit 0), or the
first entry that breaks the chain (exit 1). Keep the newest hash outside the database (a log or a
SIEM): an entry removed from the end of the trail leaves no break, but no longer matches it.`;

/**
 * `npm run audit -- verify`: walks the audit trail from its first entry and reports the first
 * one whose hash or link to the previous entry does not match: a changed, inserted or removed row.
 */
export const auditCommand: CommandSpec = {
  usage: AUDIT_USAGE,
  options: {},
  positionals: true,
  async prepare(_values, positionals) {
    if (positionals.length !== 1 || positionals[0] !== 'verify') {
      throw new UsageError(
        positionals.length === 0
          ? 'Say what to do: verify.'
          : `Unknown command "${positionals.join(' ')}": the only one is verify.`,
      );
    }
    return async (db, { io }) => {
      // Read first: the chain walked next includes this entry, so its hash is a verified one.
      const newest = await createAuditStore(db).newest();
      const result = await createAuditTrail(db).verify();
      if (!result.ok) {
        throw new CommandError(`Audit trail broken at entry ${result.brokenAt}: ${result.reason}.`);
      }
      io.out(
        `Audit trail intact: ${result.entries} ${result.entries === 1 ? 'entry' : 'entries'}.`,
      );
      if (newest) io.out(`Newest entry: ${newest.seq}, hash ${newest.hash}.`);
    };
  },
};
