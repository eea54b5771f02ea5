import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MESSAGES } from '../../shared/form/answer-keys';
import { sha256 } from '../accounts/secrets';
import type { CommandIo } from '../cli/command-support';
import { runCommand } from '../cli/run-command';
import { loadEnv } from '../config/env';
import type { DatabaseHandle } from '../db/database';
import { temporaryAnswerSets } from '../db/schema';
import { createTestDatabase, databaseKinds } from '../test/test-database';
import { findTemporaryAnswerSet, PREFILL_MESSAGES } from './temporary-answer-sets';
import { temporaryAnswersCommand } from './temporary-answers-command';

const DAY_MS = 86_400_000;

function capture(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

describe.each(databaseKinds)('npm run tmp-answers on %s', (kind) => {
  let database: DatabaseHandle;
  let folder: string;
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    folder = await mkdtemp(path.join(tmpdir(), 'portal-prefill-'));
  });
  afterAll(async () => {
    await database.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function answersFile(content: string): Promise<string> {
    const file = path.join(folder, `set-${++counter}.json`);
    await writeFile(file, content);
    return file;
  }

  async function run(args: string[], extraEnv: Record<string, string> = {}) {
    const io = capture();
    const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...extraEnv });
    const code = await runCommand(temporaryAnswersCommand(), args, { env, io, database });
    return { code, ...io };
  }

  const storedCount = async () => (await database.db.select().from(temporaryAnswerSets)).length;

  it('stores a checked set under a hashed token and prints its link', async () => {
    const file = await answersFile(JSON.stringify({ first_name: 'Maria', gender: 'F' }));
    const before = Date.now();
    const result = await run(['--file', file, '--label', ' Draft for Maria ', '--ttl', '7d'], {
      PUBLIC_URL: 'https://apply.example.edu',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(1);
    const link = new URL(result.stdout[0] as string);
    expect(`${link.origin}${link.pathname}`).toBe('https://apply.example.edu/about');
    const token = link.searchParams.get('token') as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stderr.join('\n')).toContain('3 answers stored');

    const [row] = await database.db
      .select()
      .from(temporaryAnswerSets)
      .where(eq(temporaryAnswerSets.tokenHash, sha256(token)));
    expect(row?.answers).toEqual({ first_name: 'Maria', gender: 'F', gender_desc: 'Female' });
    expect(row?.label).toBe('Draft for Maria');
    expect(Math.abs((row?.expiresAt.getTime() ?? 0) - before - 7 * DAY_MS)).toBeLessThan(60_000);
    expect((await findTemporaryAnswerSet(database.db, token)).status).toBe('live');
  });

  it('defaults to 14 days and the local address', async () => {
    const file = await answersFile('{"first_name":"Ana"}');
    const before = Date.now();
    const result = await run(['--file', file]);
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toMatch(/^http:\/\/localhost:3000\/about\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(result.stdout[0] as string).searchParams.get('token') as string;
    const [row] = await database.db
      .select()
      .from(temporaryAnswerSets)
      .where(eq(temporaryAnswerSets.tokenHash, sha256(token)));
    expect(row?.label).toBeNull();
    expect(Math.abs((row?.expiresAt.getTime() ?? 0) - before - 14 * DAY_MS)).toBeLessThan(60_000);
  });

  it('stores nothing from a file that fails any check, and says why', async () => {
    const before = await storedCount();
    const cases: Array<[string[], string[]]> = [
      [
        ['--file', await answersFile('{"first_name":"Maria","nickname":"M","gender":"Q"}')],
        [
          'cannot be used; nothing was stored',
          `nickname: ${ANSWER_MESSAGES.unknownKey}`,
          `gender: ${ANSWER_MESSAGES.notAnOption}`,
        ],
      ],
      [['--file', await answersFile('{"first_name": ')], ['is not valid JSON.']],
      [['--file', await answersFile('["first_name"]')], [ANSWER_MESSAGES.notObject]],
      [['--file', await answersFile('{}')], [PREFILL_MESSAGES.empty]],
      [['--file', path.join(folder, 'missing.json')], ['Cannot read']],
      [[], ['--file is required.']],
      [['--file', await answersFile('{"first_name":"A"}'), '--ttl', '91d'], ['at most 90d']],
      [
        ['--file', await answersFile('{"first_name":"A"}'), '--label', 'x'.repeat(201)],
        ['at most 200 characters'],
      ],
    ];
    for (const [args, messages] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toEqual([]);
      for (const message of messages) expect(result.stderr.join('\n')).toContain(message);
    }
    expect(await storedCount()).toBe(before);
  });
});
