import { readFile } from 'node:fs/promises';
import { TEMPORARY_ANSWERS_PARAM } from '../../shared/api/temporary-answers';
import { applicationModel } from '../../shared/application/application-model';
import type { FormModel } from '../../shared/form/model';
import { DEFAULT_ROUTE } from '../../shared/routes';
import { CommandError, formatDuration, linkBase, parseDuration } from '../cli/command-support';
import type { CommandSpec } from '../cli/run-command';
import {
  mintTemporaryAnswerSet,
  prepareAnswerSet,
  TEMPORARY_ANSWERS_DEFAULT_TTL,
  TEMPORARY_ANSWERS_MAX_TTL_MS,
} from './temporary-answer-sets';

const LABEL_MAX_LENGTH = 200;

export const TEMPORARY_ANSWERS_USAGE = `Usage:
  npm run tmp-answers -- --file ANSWERS.json [--ttl ${TEMPORARY_ANSWERS_DEFAULT_TTL}] [--label "Draft for Maria"]
ANSWERS.json is one JSON object of answer keys and values, as PUT /api/answer takes them.
--ttl is how long the link works: 30m, 24h, 7d ... (default ${TEMPORARY_ANSWERS_DEFAULT_TTL}, at most ${formatDuration(TEMPORARY_ANSWERS_MAX_TTL_MS)}).`;

export function prefillLink(base: string, token: string): string {
  return `${base}${DEFAULT_ROUTE}?${new URLSearchParams({ [TEMPORARY_ANSWERS_PARAM]: token })}`;
}

async function readAnswersFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new CommandError(`Cannot read ${file}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CommandError(`${file} is not valid JSON.`);
  }
}

/**
 * `npm run tmp-answers`: stores a prefilled answer set (a counselor's draft) and prints the link
 * that loads it. Nothing is stored unless every answer passes the checks of a save.
 */
export function temporaryAnswersCommand(model: FormModel = applicationModel): CommandSpec {
  return {
    usage: TEMPORARY_ANSWERS_USAGE,
    options: {
      file: { type: 'string' },
      ttl: { type: 'string' },
      label: { type: 'string' },
    },
    async prepare(values) {
      const file = typeof values.file === 'string' ? values.file : '';
      if (!file) throw new CommandError(`--file is required.\n${TEMPORARY_ANSWERS_USAGE}`);
      const label = typeof values.label === 'string' ? values.label.trim() : '';
      if ([...label].length > LABEL_MAX_LENGTH)
        throw new CommandError(`--label must be at most ${LABEL_MAX_LENGTH} characters.`);
      const ttlMs = parseDuration(
        typeof values.ttl === 'string' ? values.ttl : TEMPORARY_ANSWERS_DEFAULT_TTL,
        TEMPORARY_ANSWERS_MAX_TTL_MS,
      );
      const prepared = prepareAnswerSet(model, await readAnswersFile(file));
      if (!prepared.ok) {
        const lines = Object.entries(prepared.errors).map(([key, messages]) =>
          key === '_' ? `  ${messages.join(' ')}` : `  ${key}: ${messages.join(' ')}`,
        );
        throw new CommandError(`${file} cannot be used; nothing was stored:\n${lines.join('\n')}`);
      }
      const { answers } = prepared;

      return async (db, { env, io }) => {
        const { token, expiresAt } = await mintTemporaryAnswerSet(db, {
          answers,
          label: label || null,
          ttlMs,
        });
        io.out(prefillLink(linkBase(env), token));
        io.err(
          `${Object.keys(answers).length} answers stored, loadable until ${expiresAt.toISOString()} (${formatDuration(ttlMs)}).`,
        );
        io.err(
          'Whoever opens the link gets these answers in their own browser: send it only to the student it is for.',
        );
      };
    },
  };
}
