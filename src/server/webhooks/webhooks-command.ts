import {
  isWebhookEventType,
  parseScopeList,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../../shared/integration/api-scopes';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { CommandError } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import { HttpError } from '../http/http-error';
import { PrivateNetworks } from './ssrf-guard';
import { createWebhookDelivery } from './webhook-delivery';
import { createWebhookSender } from './webhook-sender';
import { createWebhooksService, scopesFor } from './webhooks-service';
import { createWebhooksStore } from './webhooks-store';

export const WEBHOOKS_USAGE = `Usage:
  npm run webhooks -- add --url URL --events LIST [--scopes LIST] [--description TEXT]
                                     subscribe; prints its id, then its signing secret (once)
  npm run webhooks -- list           every subscription: id, state, events, url
  npm run webhooks -- remove ID      unsubscribe (its delivery log goes too)
  npm run webhooks -- enable ID      enable a disabled subscription; it resumes where it stopped
  npm run webhooks -- deliveries ID  its latest deliveries, newest first
  npm run webhooks -- replay DELIVERY_ID
                                     send a delivery again now, same id and body
Events (comma separated): ${WEBHOOK_EVENT_TYPES.join(', ')}.
--scopes defaults to the scopes the events need.`;

const SUBCOMMANDS = ['add', 'list', 'remove', 'enable', 'deliveries', 'replay'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
const WITH_ID: readonly Subcommand[] = ['remove', 'enable', 'deliveries', 'replay'];

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * `npm run webhooks`: subscriptions from the server's command line, each change audited as the
 * command line. The secret goes to standard output alone, so it can be captured.
 */
export const webhooksCommand: CommandSpec = {
  usage: WEBHOOKS_USAGE,
  positionals: true,
  options: {
    url: { type: 'string' },
    events: { type: 'string' },
    scopes: { type: 'string' },
    description: { type: 'string' },
  },
  async prepare(values, positionals, { env }) {
    const [name, ...rest] = positionals;
    if (!name || !(SUBCOMMANDS as readonly string[]).includes(name))
      throw new UsageError(`Say what to do: ${SUBCOMMANDS.join(', ')}.`);
    const subcommand = name as Subcommand;
    const id = rest[0];
    if (WITH_ID.includes(subcommand) && (rest.length !== 1 || !id))
      throw new UsageError(
        `${subcommand} takes one ${subcommand === 'replay' ? 'delivery id' : 'subscription id'}.`,
      );
    if (!WITH_ID.includes(subcommand) && rest.length > 0)
      throw new UsageError(`${subcommand} takes no further arguments.`);
    const addOnly = ['url', 'events', 'scopes', 'description'].filter(
      (flag) => values[flag] !== undefined,
    );
    if (subcommand !== 'add' && addOnly.length > 0)
      throw new UsageError(`--${addOnly.join(', --')} go with add only.`);

    let events: WebhookEventType[] = [];
    let scopes: string[] = [];
    const url = text(values.url) ?? '';
    if (subcommand === 'add') {
      if (!url) throw new UsageError('add needs --url.');
      const listed = (text(values.events) ?? '').split(/[\s,]+/).filter(Boolean);
      if (listed.length === 0) throw new UsageError('add needs --events.');
      const unknown = listed.filter((event) => !isWebhookEventType(event));
      if (unknown.length > 0)
        throw new UsageError(
          `Unknown event: ${unknown.join(', ')}. Events: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
        );
      events = listed.filter(isWebhookEventType);
      if (values.scopes === undefined) scopes = scopesFor(events);
      else {
        const parsed = parseScopeList(text(values.scopes) ?? '');
        if (parsed.unknown.length > 0)
          throw new UsageError(`Unknown scope: ${parsed.unknown.join(', ')}.`);
        scopes = parsed.scopes;
      }
    }

    return async (db, { io }) => {
      const audit = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      const store = createWebhooksStore(db);
      const production = env.NODE_ENV === 'production';
      const privateNetworks = new PrivateNetworks(env.WEBHOOK_PRIVATE_NETWORKS);
      const service = createWebhooksService({
        store,
        audit,
        production,
        privateNetworks,
        delivery: createWebhookDelivery({
          store,
          send: createWebhookSender({ publicOnly: production, privateNetworks }),
          audit,
          userAgent: 'admissions portal webhooks',
          // A replay never disables a subscription: only scheduled attempts run out.
          notifyDisabled: async () => undefined,
        }),
      });
      const actor = { actor: COMMAND_LINE_ACTOR };
      try {
        switch (subcommand) {
          case 'add': {
            const made = await service.create(
              {
                url,
                events,
                scopes,
                description: text(values.description),
                apiClientId: null,
                createdBy: 'command line',
              },
              actor,
            );
            io.err(`Subscribed ${made.url} to ${made.events.join(', ')} (id ${made.id}).`);
            io.out(made.id);
            io.out(made.secret);
            io.err(
              'The second line is the signing secret: it is not shown again. Give it to the receiver to verify webhook-signature.',
            );
            return;
          }
          case 'list': {
            const all = await service.list('any');
            if (all.length === 0) io.err('No webhook subscriptions yet.');
            for (const sub of all)
              io.out(
                [
                  sub.id,
                  sub.state === 'active' ? 'active' : `disabled: ${sub.disabled_reason ?? ''}`,
                  sub.events.join(','),
                  sub.url,
                ].join('\t'),
              );
            return;
          }
          case 'remove':
            await service.remove(id as string, 'any', actor);
            io.err(`Removed subscription ${id}.`);
            return;
          case 'enable': {
            const enabled = await service.enable(id as string, 'any', actor);
            io.err(`Subscription ${enabled.id} is active; it resumes where it stopped.`);
            return;
          }
          case 'deliveries': {
            const log = await service.deliveries(id as string, 'any', 100);
            if (log.length === 0) io.err('No deliveries yet.');
            for (const entry of log)
              io.out(
                [
                  entry.id,
                  entry.event_type,
                  entry.application_id,
                  entry.status,
                  `attempts ${entry.attempts}`,
                  entry.last_status_code ?? entry.last_error ?? '',
                  entry.created_at,
                ].join('\t'),
              );
            return;
          }
          case 'replay': {
            const replayed = await service.replay(null, id as string, 'any', actor);
            const last = replayed.attempt_log.at(-1);
            io.err(
              `Sent ${replayed.id} again: ${last?.status_code ? `HTTP ${last.status_code}` : (last?.error ?? 'no answer')}.`,
            );
            return;
          }
        }
      } catch (error) {
        if (error instanceof HttpError) throw new CommandError(error.message);
        throw error;
      }
    };
  },
};
