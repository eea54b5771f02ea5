import type { FastifyBaseLogger } from 'fastify';
import { normaliseUsername } from '../../shared/accounts/account-forms';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../shared/staff/permissions';
import { auditKeysFromEnv } from '../audit/audit-keys';
import { COMMAND_LINE_ACTOR, createAuditTrail } from '../audit/audit-trail';
import { CommandError, type CommandIo, linkBase } from '../cli/command-support';
import { type CommandSpec, UsageError } from '../cli/run-command';
import { loadTenantConfig } from '../config/tenant';
import type { AppDatabase } from '../db/database';
import { type Mailer, outboxMailer, smtpMailer } from '../mail/mailer';
import { inviteStaff } from './invitations';
import { INVITATION_TTL_HOURS } from './staff-policy';
import { createStaffSessions } from './staff-sessions';
import { createStaffStore, memberSummary } from './staff-store';

export const STAFF_USAGE = `Usage:
  npm run staff -- invite --email ADDRESS --role admin|evaluator|reader [--name "Full Name"]
      invite a staff member (or invite again); prints the one-time link and mails it
  npm run staff -- list                                    every staff member and their state
  npm run staff -- role --email ADDRESS --role admin|evaluator|reader change a member's role
  npm run staff -- disable --email ADDRESS                 stop a member signing in
  npm run staff -- enable --email ADDRESS                  let a disabled member sign in again
Invitation links expire after ${INVITATION_TTL_HOURS} hours. Every change is in the audit trail.`;

const SUBCOMMANDS = ['invite', 'list', 'role', 'disable', 'enable'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** The command's own messages go to the terminal; a failed delivery is worth saying there. */
function commandLogger(io: CommandIo): FastifyBaseLogger {
  const quiet = () => {};
  const logger: FastifyBaseLogger = {
    level: 'error',
    fatal: quiet,
    error: (object: unknown) =>
      io.err(`Mail could not be sent: ${String((object as { err?: unknown })?.err ?? object)}`),
    warn: quiet,
    info: quiet,
    debug: quiet,
    trace: quiet,
    silent: quiet,
    child: () => logger,
  };
  return logger;
}

function roleOf(value: unknown): StaffRole {
  if (typeof value !== 'string' || !(STAFF_ROLES as readonly string[]).includes(value)) {
    throw new UsageError(`--role must be one of: ${STAFF_ROLES.join(', ')}.`);
  }
  return value as StaffRole;
}

function emailOf(value: unknown): string {
  const email = typeof value === 'string' ? normaliseUsername(value) : '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new UsageError(
      '--email must be an email address, for example --email reader@university.edu.',
    );
  }
  return email;
}

/**
 * `npm run staff`: staff accounts from the server's command line, for the first administrator and
 * for scripts. The invitation link goes to standard output alone; notes go to standard error.
 */
export const staffCommand: CommandSpec = {
  usage: STAFF_USAGE,
  positionals: true,
  options: {
    email: { type: 'string' },
    role: { type: 'string' },
    name: { type: 'string' },
  },
  async prepare(values, positionals, { env }) {
    const [name, ...extra] = positionals;
    if (!name || !(SUBCOMMANDS as readonly string[]).includes(name) || extra.length > 0) {
      throw new UsageError(`Say what to do: ${SUBCOMMANDS.join(', ')}.`);
    }
    const subcommand = name as Subcommand;
    const email = subcommand === 'list' ? '' : emailOf(values.email);
    const role = subcommand === 'invite' || subcommand === 'role' ? roleOf(values.role) : null;
    const displayName = typeof values.name === 'string' ? values.name.trim() : undefined;
    const tenant = await loadTenantConfig(env.TENANT_CONFIG);
    const actor = COMMAND_LINE_ACTOR;

    return async (db: AppDatabase, { io }) => {
      const store = createStaffStore(db);
      const audit = createAuditTrail(db, await auditKeysFromEnv(env, io.err));
      if (subcommand === 'list') {
        const members = (await store.list()).map(memberSummary);
        if (members.length === 0)
          io.err(
            'No staff members yet. Invite the first administrator with: npm run staff -- invite --email ADDRESS --role admin',
          );
        for (const member of members) {
          io.out(
            [
              member.email,
              member.role,
              member.status,
              member.last_sign_in_at ?? 'never signed in',
            ].join('\t'),
          );
        }
        return;
      }
      if (subcommand === 'invite' && role) {
        const log = commandLogger(io);
        const mailer: Mailer = env.SMTP_URL
          ? smtpMailer(env.SMTP_URL, env.MAIL_FROM, log)
          : outboxMailer(db, log);
        const invitation = await inviteStaff(
          { store, audit, mailer, tenant },
          { email, role, displayName, base: linkBase(env), actor },
        );
        await mailer.drain();
        io.out(invitation.link);
        const kept = invitation.member.role !== role;
        io.err(
          `Invited ${invitation.member.email} as ${ROLE_LABELS[invitation.member.role].toLowerCase()}; the link works once, until ${invitation.expiresAt.toISOString()}.`,
        );
        if (kept) {
          io.err(
            `They have signed in before, so they keep their role; change it with: npm run staff -- role --email ${invitation.member.email} --role ${role}`,
          );
        }
        io.err(
          env.SMTP_URL
            ? 'The link was mailed to them as well.'
            : 'SMTP_URL is not set: the mail was kept in the outbox, so send them the link yourself.',
        );
        return;
      }
      const member = await store.findByEmail(email);
      if (!member) throw new CommandError(`No staff member uses the address ${email}.`);
      const sessions = createStaffSessions(db, { idleMs: 0, absoluteMs: 0, secureCookies: false });
      const change =
        subcommand === 'role'
          ? { role: role as StaffRole }
          : { disabledAt: subcommand === 'disable' ? new Date() : null };
      await store.transaction(async (tx) => {
        await store.lockMembers(tx);
        const adminsBefore = await store.activeAdminCount(tx);
        await store.update(member.id, change, tx);
        if (adminsBefore > 0 && (await store.activeAdminCount(tx)) === 0) {
          throw new CommandError('At least one active administrator must remain.');
        }
        await sessions.revokeAllOf(member.id, tx);
        await audit.record(
          {
            actor,
            action:
              subcommand === 'role'
                ? 'staff.role_changed'
                : subcommand === 'disable'
                  ? 'staff.disabled'
                  : 'staff.enabled',
            detail: {
              staff_id: member.id,
              email: member.email,
              ...(subcommand === 'role' ? { from: member.role, to: role } : {}),
            },
          },
          tx,
        );
      });
      io.err(
        subcommand === 'role'
          ? `${member.email} is now ${ROLE_LABELS[role as StaffRole].toLowerCase()}; their sessions were ended.`
          : subcommand === 'disable'
            ? `${member.email} is disabled and signed out everywhere.`
            : `${member.email} can sign in again.`,
      );
    };
  },
};
