import {
  API_CLIENT_MAX_RATE_LIMIT,
  type ApiClientView,
} from '../../shared/integration/api-clients-api';
import {
  API_SCOPE_NAMES,
  type ApiScope,
  parseScopeList,
} from '../../shared/integration/api-scopes';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { CommandError, type CommandIo, linkBase } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import type { Env } from '../config/env';
import { ApiClientError, createApiClients } from './api-clients';
import { createApiClientsStore } from './api-clients-store';

export const API_CLIENT_USAGE = `Usage:
  npm run api-client -- create --name NAME --scopes SCOPES [--rate-limit N]
      a new client for an integrator; prints its client id and secret once
  npm run api-client -- list                      every client, its scopes and state (no secrets)
  npm run api-client -- rotate --name NAME        a new secret; the old one and its tokens stop
  npm run api-client -- revoke --name NAME        end a client for good; its tokens stop
SCOPES is comma or space separated: ${API_SCOPE_NAMES.join(', ')}.
--rate-limit is calls a minute (default 600). Every change is in the audit trail.`;

const SUBCOMMANDS = ['create', 'list', 'rotate', 'revoke'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function nameOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw new UsageError('--name is required: the name of the client, in quotes.');
  return name;
}

function scopesOf(value: unknown): ApiScope[] {
  if (typeof value !== 'string' || !value.trim())
    throw new UsageError(`--scopes is required: one or more of ${API_SCOPE_NAMES.join(', ')}.`);
  const { scopes, unknown } = parseScopeList(value);
  if (unknown.length > 0)
    throw new UsageError(
      `Unknown scope${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}. The scopes are ${API_SCOPE_NAMES.join(', ')}.`,
    );
  return scopes;
}

function rateLimitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const limit = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= API_CLIENT_MAX_RATE_LIMIT))
    throw new UsageError(
      `--rate-limit is a whole number of calls a minute, 1 to ${API_CLIENT_MAX_RATE_LIMIT}.`,
    );
  return limit;
}

/** The secret on standard output, where it can be captured; how to use it on standard error. */
function printSecret(
  io: CommandIo,
  env: Pick<Env, 'PUBLIC_URL' | 'PORT'>,
  client: ApiClientView,
  secret: string,
): void {
  io.out(`client_id=${client.client_id}`);
  io.out(`client_secret=${secret}`);
  io.err(
    'The secret will not be shown again: store it now in the integration’s secret store. Only its hash is kept.',
  );
  io.err('Get an access token (valid for an hour) with:');
  io.err(
    `  curl -s -u '${client.client_id}:CLIENT_SECRET' -d grant_type=client_credentials ${linkBase(env)}/api/v1/oauth/token`,
  );
}

/**
 * `npm run api-client`: integrators' API clients from the server's command line, for the first
 * client and for scripts. The same clients as the console's Integrations page.
 */
export const apiClientCommand: CommandSpec = {
  usage: API_CLIENT_USAGE,
  positionals: true,
  options: {
    name: { type: 'string' },
    scopes: { type: 'string' },
    'rate-limit': { type: 'string' },
  },
  async prepare(values, positionals, { env }) {
    const [word, ...extra] = positionals;
    if (!word || !(SUBCOMMANDS as readonly string[]).includes(word) || extra.length > 0)
      throw new UsageError(`Say what to do: ${SUBCOMMANDS.join(', ')}.`);
    const subcommand = word as Subcommand;
    if (
      subcommand !== 'create' &&
      (values.scopes !== undefined || values['rate-limit'] !== undefined)
    )
      throw new UsageError('--scopes and --rate-limit are for create only.');
    if (subcommand === 'list' && values.name !== undefined)
      throw new UsageError('list takes no --name.');
    const name = subcommand === 'list' ? '' : nameOf(values.name);
    const scopes = subcommand === 'create' ? scopesOf(values.scopes) : [];
    const rateLimit = subcommand === 'create' ? rateLimitOf(values['rate-limit']) : undefined;

    return async (db, { io }) => {
      const clients = createApiClients(createApiClientsStore(db));
      const audit = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      try {
        if (subcommand === 'list') {
          const list = await clients.list();
          if (list.length === 0)
            io.err(
              'No API clients yet. Make one with: npm run api-client -- create --name NAME --scopes applications:read',
            );
          for (const client of list)
            io.out(
              [
                client.name,
                client.client_id,
                client.scopes.join(' '),
                `created ${client.created_at} by ${client.created_by}`,
                client.revoked_at ? `revoked ${client.revoked_at}` : 'active',
              ].join('\t'),
            );
          return;
        }
        if (subcommand === 'create') {
          const made = await clients.create({
            name,
            scopes,
            createdBy: COMMAND_LINE_ACTOR.label ?? 'command line',
            ...(rateLimit ? { rateLimitPerMinute: rateLimit } : {}),
          });
          await audit.record({
            actor: COMMAND_LINE_ACTOR,
            action: 'api_client.created',
            detail: {
              client_id: made.client.client_id,
              name: made.client.name,
              scopes: made.client.scopes,
              rate_limit_per_minute: made.client.rate_limit_per_minute,
            },
          });
          io.err(
            `Made the API client “${made.client.name}” with ${made.client.scopes.join(', ')}, ${made.client.rate_limit_per_minute} calls a minute.`,
          );
          printSecret(io, env, made.client, made.secret);
          return;
        }
        if (subcommand === 'rotate') {
          const rotated = await clients.rotate(name);
          await audit.record({
            actor: COMMAND_LINE_ACTOR,
            action: 'api_client.secret_rotated',
            detail: { client_id: rotated.client.client_id, name: rotated.client.name },
          });
          io.err(
            `A new secret for “${rotated.client.name}”: the old one and every token it got have stopped working.`,
          );
          printSecret(io, env, rotated.client, rotated.secret);
          return;
        }
        const row = await clients.find(name);
        if (!row) throw new CommandError(`No API client is named ${name}.`);
        if (row.revokedAt) {
          io.err(`“${row.name}” was already revoked on ${row.revokedAt.toISOString()}.`);
          return;
        }
        const revoked = await clients.revoke(row.id);
        await audit.record({
          actor: COMMAND_LINE_ACTOR,
          action: 'api_client.revoked',
          detail: { client_id: revoked.client_id, name: revoked.name },
        });
        io.err(`Revoked “${revoked.name}”: its tokens stopped working, and it gets no new ones.`);
      } catch (error) {
        if (error instanceof ApiClientError) throw new CommandError(error.message);
        throw error;
      }
    };
  },
};
