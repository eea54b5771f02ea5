import { SERVICE_TOKEN_PARAM, servicePdfUrl } from '../../shared/api/service';
import { DEFAULT_ROUTE } from '../../shared/routes';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { CommandError, formatDuration, linkBase, parseDuration } from '../cli/command-support';
import type { CommandSpec } from '../cli/run-command';
import {
  findApplicant,
  mintServiceToken,
  revokeServiceTokens,
  SERVICE_TOKEN_DEFAULT_TTL,
  SERVICE_TOKEN_MAX_TTL_MS,
} from './service-tokens';

export const SERVICE_TOKEN_USAGE = `Usage:
  npm run service-token -- --email APPLICANT_EMAIL [--ttl 24h]   print a read-only staff link
  npm run service-token -- --email APPLICANT_EMAIL --revoke      end every link to that application
--ttl is how long the link works: 30m, 24h, 7d ... (default ${SERVICE_TOKEN_DEFAULT_TTL}, at most ${formatDuration(SERVICE_TOKEN_MAX_TTL_MS)}).`;

/** The staff link for a token: any form route shows the read-only view. */
export function serviceLink(base: string, token: string): string {
  return `${base}${DEFAULT_ROUTE}?${new URLSearchParams({ [SERVICE_TOKEN_PARAM]: token })}`;
}

/**
 * `npm run service-token`: admissions staff get a link that shows one application read-only. The
 * link goes to standard output alone, so it can be captured; notes go to standard error.
 */
export const serviceTokenCommand: CommandSpec = {
  usage: SERVICE_TOKEN_USAGE,
  options: {
    email: { type: 'string' },
    ttl: { type: 'string' },
    revoke: { type: 'boolean' },
  },
  async prepare(values) {
    const email = typeof values.email === 'string' ? values.email.trim() : '';
    if (!email) throw new CommandError(`--email is required.\n${SERVICE_TOKEN_USAGE}`);
    const revoke = values.revoke === true;
    if (revoke && values.ttl !== undefined)
      throw new CommandError('--ttl and --revoke cannot be used together.');
    const ttlMs = parseDuration(
      typeof values.ttl === 'string' ? values.ttl : SERVICE_TOKEN_DEFAULT_TTL,
      SERVICE_TOKEN_MAX_TTL_MS,
    );

    return async (db, { env, io }) => {
      const applicant = await findApplicant(db, email);
      if (!applicant) throw new CommandError(`No account uses the address ${email}.`);
      const audit = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      if (revoke) {
        const count = await revokeServiceTokens(db, applicant.accountId);
        await audit.record({
          actor: COMMAND_LINE_ACTOR,
          action: 'service_link.revoked',
          applicationId: applicant.accountId,
          detail: { links: count },
        });
        io.err(`Ended ${count} live staff link${count === 1 ? '' : 's'} to ${applicant.email}.`);
        return;
      }
      const { token, id, expiresAt } = await mintServiceToken(db, applicant.accountId, ttlMs);
      await audit.record({
        actor: COMMAND_LINE_ACTOR,
        action: 'service_link.created',
        applicationId: applicant.accountId,
        detail: { link_id: id, expires_at: expiresAt.toISOString() },
      });
      io.out(serviceLink(linkBase(env), token));
      io.err(
        `Read-only link to the application of ${applicant.email}, valid until ${expiresAt.toISOString()} (${formatDuration(ttlMs)}).`,
      );
      io.err(
        `The same token downloads the whole application as one PDF: ${linkBase(env)}${servicePdfUrl(token)}`,
      );
      io.err(
        'Anyone holding the link can read this application: send it to admissions staff only.',
      );
      if (!applicant.submittedAt) {
        io.err(
          'Note: this application has not been submitted; the link shows its answers as they stand when opened.',
        );
      }
    };
  },
};
