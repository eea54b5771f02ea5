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

export interface CommandSpec {
  usage: string;
  /** `--help` is added to these. */
  options: Options;
  /** Checks the arguments before the database is opened, so a typo costs nothing. */
  prepare(
    values: CommandValues,
  ): Promise<(db: AppDatabase, context: CommandContext) => Promise<void>>;
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
  try {
    values = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
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
    const run = await spec.prepare(values);
    handle = context.database ?? (await openCommandDatabase(context.env));
    await run(handle.db, context);
    return 0;
  } catch (error) {
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
