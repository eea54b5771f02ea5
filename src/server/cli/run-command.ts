import { readFile } from 'node:fs/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError, type Env, loadEnv } from '../config/env';
import type { AppDatabase, DatabaseHandle } from '../db/database';
import { CommandError, type CommandIo, consoleIo, openCommandDatabase } from './command-support';

export interface CommandContext {
  env: Env;
  io: CommandIo;
  /** An open database to use (tests); otherwise the command opens the server's own and closes it. */
  database?: DatabaseHandle;
}

type Options = NonNullable<ParseArgsConfig['options']>;
export type CommandValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export type DatabaseStep = (db: AppDatabase, context: CommandContext) => Promise<void>;

export interface CommandSpec {
  usage: string;
  /** `--help` is added to these. */
  options: Options;
  /** Whether arguments without a flag (file names) are allowed. */
  positionals?: boolean;
  /**
   * Checks the arguments (and reads any file) before the database is opened, so a typo costs
   * nothing. Returns the step that needs the database, or null when the command is done.
   */
  prepare(
    values: CommandValues,
    positionals: readonly string[],
    context: CommandContext,
  ): Promise<DatabaseStep | null>;
}

/** Wrong arguments: said with the usage, exit code 2. */
export class UsageError extends CommandError {
  override name = 'UsageError';
}

/**
 * The one file a command was given (`npm run x -- FILE.csv`), read as UTF-8 text: a usage error for
 * none or several, a command error naming the file when it cannot be read.
 */
export async function readOneFile(
  files: readonly string[],
  kind: string,
): Promise<{ file: string; text: string }> {
  const [file] = files;
  if (files.length !== 1 || file === undefined)
    throw new UsageError(`Name exactly one ${kind} file to import (got ${files.length}).`);
  try {
    return { file, text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CommandError(`Cannot read ${file}: ${code}.`);
  }
}

/**
 * Runs a command's steps with one way of failing: every CommandError is printed as a sentence and
 * exits 1; a bad flag prints the usage too. Returns the exit code.
 */
export async function runCommand(
  spec: CommandSpec,
  argv: readonly string[],
  context: CommandContext,
): Promise<number> {
  let values: CommandValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: spec.positionals ?? false,
      strict: true,
    }));
  } catch (error) {
    context.io.err(error instanceof Error ? error.message : String(error));
    context.io.err(spec.usage);
    return 2;
  }
  if (values.help === true) {
    context.io.out(spec.usage);
    return 0;
  }
  let handle: DatabaseHandle | undefined;
  try {
    const step = await spec.prepare(values, positionals, context);
    if (!step) return 0;
    handle = context.database ?? (await openCommandDatabase(context.env));
    await step(handle.db, context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.io.err(error.message);
      context.io.err(spec.usage);
      return 2;
    }
    if (error instanceof CommandError) {
      context.io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    if (handle && handle !== context.database) await handle.close();
  }
}

/** The entry point of a script: environment from the process, output to the terminal. */
export async function runFromProcess(spec: CommandSpec): Promise<void> {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    consoleIo.err(error.message);
    process.exit(1);
  }
  const code = await runCommand(spec, process.argv.slice(2), { env, io: consoleIo });
  process.exit(code);
}
