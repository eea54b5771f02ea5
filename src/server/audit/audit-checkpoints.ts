import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Env } from '../config/env';
import type { JobLog } from '../jobs/job-runner';
import { type Periodic, startPeriodic } from '../jobs/periodic';
import type { AuditKey, AuditKeyring } from './audit-keys';
import type { AuditCheckpointMark, AuditHead, AuditTrail } from './audit-trail';

/**
 * One line of a checkpoint file: the chain's head at a time, signed with the chain's key, so
 * whoever can write the file or the log can remove checkpoints but not make one up.
 */
const checkpointSchema = z.strictObject({
  seq: z.number().int().min(0),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  mac: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  at: z.iso.datetime(),
  host: z.string().max(255),
  key_id: z.string().regex(/^[0-9a-f]{16}$/),
  sig: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AuditCheckpoint = z.infer<typeof checkpointSchema>;

export const CHECKPOINT_FILE_SUFFIX = '.jsonl';

/** AUDIT_CHECKPOINT_DIR, or DATA_DIR/audit-checkpoints. */
export function checkpointDir(env: Pick<Env, 'AUDIT_CHECKPOINT_DIR' | 'DATA_DIR'>): string {
  return path.resolve(env.AUDIT_CHECKPOINT_DIR ?? path.join(env.DATA_DIR, 'audit-checkpoints'));
}

function signature(key: AuditKey, checkpoint: Omit<AuditCheckpoint, 'sig' | 'key_id'>): string {
  const { seq, hash, mac, at, host } = checkpoint;
  return createHmac('sha256', key.secret)
    .update(`checkpoint\n${key.id}\n${JSON.stringify([seq, hash, mac, at, host])}`)
    .digest('hex');
}

export function signCheckpoint(
  key: AuditKey,
  head: AuditHead,
  at: Date,
  host: string,
): AuditCheckpoint {
  const body = { seq: head.seq, hash: head.hash, mac: head.mac, at: at.toISOString(), host };
  return { ...body, key_id: key.id, sig: signature(key, body) };
}

/** One file per machine, so servers sharing a directory never write into the same file. */
function fileOf(dir: string, host: string): string {
  return path.join(dir, `${host.replace(/[^A-Za-z0-9._-]/g, '_')}${CHECKPOINT_FILE_SUFFIX}`);
}

export interface CheckpointWriter {
  /** Appends the chain's head now, logs it, and returns it with the file it went to. */
  write(): Promise<{ checkpoint: AuditCheckpoint; file: string }>;
}

export function createCheckpointWriter(options: {
  trail: AuditTrail;
  keys: AuditKeyring;
  dir: string;
  log?: { info(object: object, message: string): void };
  host?: string;
  now?: () => Date;
}): CheckpointWriter {
  const host = options.host ?? hostname();
  const now = options.now ?? (() => new Date());
  return {
    async write() {
      const checkpoint = signCheckpoint(
        options.keys.current,
        await options.trail.head(),
        now(),
        host,
      );
      const file = fileOf(options.dir, host);
      await mkdir(options.dir, { recursive: true });
      // One write of one line with O_APPEND: a reader never sees half of it.
      await appendFile(file, `${JSON.stringify(checkpoint)}\n`, { mode: 0o640 });
      // The same line in the log, which usually goes to a store the database's owner cannot edit.
      options.log?.info({ auditCheckpoint: checkpoint }, 'audit trail checkpoint');
      return { checkpoint, file };
    },
  };
}

export type CheckpointReading =
  | { ok: true; marks: AuditCheckpointMark[]; files: number }
  | { ok: false; problem: string };

/**
 * Every checkpoint in the `.jsonl` files of `dirs`, each checked against its key. A line that is
 * not a checkpoint, or whose signature does not match, is a finding in itself: only someone
 * without the key changes a checkpoint.
 */
export async function readCheckpoints(
  dirs: readonly string[],
  keys: AuditKeyring,
): Promise<CheckpointReading> {
  const marks: AuditCheckpointMark[] = [];
  let files = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((name) => name.endsWith(CHECKPOINT_FILE_SUFFIX));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const name of names.sort()) {
      files += 1;
      const file = path.join(dir, name);
      const lines = (await readFile(file, 'utf8')).split('\n');
      for (const [index, line] of lines.entries()) {
        if (line.trim() === '') continue;
        const source = `${file} line ${index + 1}`;
        let parsed: AuditCheckpoint;
        try {
          parsed = checkpointSchema.parse(JSON.parse(line));
        } catch {
          return { ok: false, problem: `${source} is not a checkpoint.` };
        }
        const key = keys.byId.get(parsed.key_id);
        if (!key) {
          return {
            ok: false,
            problem:
              `${source} is signed with key id ${parsed.key_id}, which is neither ` +
              'AUDIT_CHAIN_KEY nor in AUDIT_CHAIN_OLD_KEYS.',
          };
        }
        const expected = Buffer.from(signature(key, parsed), 'hex');
        if (!timingSafeEqual(expected, Buffer.from(parsed.sig, 'hex'))) {
          return {
            ok: false,
            problem: `${source} does not match its signature: the checkpoint was changed or made up.`,
          };
        }
        marks.push({ seq: parsed.seq, hash: parsed.hash, mac: parsed.mac, at: parsed.at, source });
      }
    }
  }
  return { ok: true, marks, files };
}

/**
 * Writes a checkpoint now and then every `intervalMs` on a server that runs jobs, skipping a run
 * when the head has not moved since this server's last one. The first write is awaited, so a
 * directory that cannot be written stops the start instead of failing quietly every hour.
 */
export async function startAuditCheckpoints(options: {
  trail: AuditTrail;
  writer: CheckpointWriter;
  log: JobLog;
  intervalMs: number;
}): Promise<Periodic> {
  let last: AuditHead | undefined;
  const writeIfMoved = async () => {
    const head = await options.trail.head();
    if (last && last.seq === head.seq && last.mac === head.mac) return;
    last = (await options.writer.write()).checkpoint;
  };
  await writeIfMoved();
  return startPeriodic(
    options.log,
    'writing an audit trail checkpoint failed',
    options.intervalMs,
    writeIfMoved,
    false,
  );
}
