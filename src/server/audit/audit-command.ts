import path from 'node:path';
import { CommandError } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import { checkpointDir, createCheckpointWriter, readCheckpoints } from './audit-checkpoints';
import { auditKeysFromEnv } from './audit-keys';
import { createAuditTrail } from './audit-trail';

export const AUDIT_USAGE = `Usage:
  npm run audit -- verify [--checkpoints DIR]...
      check the whole audit trail: each entry's hash, its MAC (made with AUDIT_CHAIN_KEY), and
      every checkpoint in AUDIT_CHECKPOINT_DIR (or in each DIR given instead). Prints "Audit trail
      intact: N entries." (exit 0), or the first entry that was changed, inserted or removed,
      a checkpoint that was changed, or that no checkpoint was found (exit 1).
  npm run audit -- checkpoint
      append the trail's newest entry number, hash and MAC, signed with the key, to this machine's
      file in AUDIT_CHECKPOINT_DIR, and print that line. Servers that run jobs write one every
      AUDIT_CHECKPOINT_MINUTES.`;

/**
 * `npm run audit -- verify`: walks the audit trail from its first entry, recomputing hashes and
 * MACs, and compares it with the checkpoints kept outside the database. `checkpoint` writes one.
 */
export const auditCommand: CommandSpec = {
  usage: AUDIT_USAGE,
  options: { checkpoints: { type: 'string', multiple: true } },
  positionals: true,
  async prepare(values, positionals, { env }) {
    const [what, ...rest] = positionals;
    if (positionals.length === 0) throw new UsageError('Say what to do: verify or checkpoint.');
    if (rest.length > 0 || (what !== 'verify' && what !== 'checkpoint')) {
      throw new UsageError(
        `Unknown command "${positionals.join(' ')}": the commands are verify and checkpoint.`,
      );
    }
    const given = (values.checkpoints ?? []) as string[];
    if (what === 'checkpoint' && given.length > 0) {
      throw new UsageError(
        '--checkpoints is for verify; checkpoint writes to AUDIT_CHECKPOINT_DIR.',
      );
    }
    const dirs = given.length > 0 ? given.map((dir) => path.resolve(dir)) : [checkpointDir(env)];

    return async (db, { io }) => {
      const trail = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      if (what === 'checkpoint') {
        const dir = checkpointDir(env);
        const { checkpoint, file } = await createCheckpointWriter({
          trail,
          keys: trail.keys,
          dir,
        }).write();
        io.out(JSON.stringify(checkpoint));
        io.err(`Checkpoint of entry ${checkpoint.seq} appended to ${file}.`);
        return;
      }
      // Read first: every checkpoint read names an entry the walk that follows will reach.
      const reading = await readCheckpoints(dirs, trail.keys);
      if (!reading.ok) throw new CommandError(`Audit checkpoint refused: ${reading.problem}`);
      // Before the walk, so the hash and MAC printed are ones it checked.
      const head = await trail.head();
      const result = await trail.verify(reading.marks);
      if (!result.ok) {
        throw new CommandError(`Audit trail broken at entry ${result.brokenAt}: ${result.reason}.`);
      }
      const where = dirs.join(', ');
      if (result.entries > 0 && result.checkpoints === 0) {
        throw new CommandError(
          `No checkpoint of the audit trail was found in ${where}: entries removed from the end ` +
            'would not show. Servers that run jobs write one at start and every ' +
            'AUDIT_CHECKPOINT_MINUTES; write one now with: npm run audit -- checkpoint',
        );
      }
      io.out(
        `Audit trail intact: ${result.entries} ${result.entries === 1 ? 'entry' : 'entries'}.`,
      );
      if (result.unsigned > 0) {
        io.out(
          `Entries 1 to ${result.unsigned} were written before the chain had a key; the ` +
            'first signed entry seals them.',
        );
      }
      if (head.seq > 0) {
        io.out(`Newest entry: ${head.seq}, hash ${head.hash}, MAC ${head.mac ?? 'none'}.`);
        const newest = Math.max(...reading.marks.map((mark) => mark.seq));
        io.out(
          `Matches ${result.checkpoints} ${result.checkpoints === 1 ? 'checkpoint' : 'checkpoints'} ` +
            `in ${where}; the newest names entry ${newest}.`,
        );
      }
    };
  },
};
