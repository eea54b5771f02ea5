import type { TenantConfig } from '../../shared/tenant/tenant-config';
import type { MailMessage } from './mailer';

/**
 * A message in the university's colours: lines as paragraphs, an optional button, and a
 * signature that names the university and how to reach it. Plain text and HTML say the same.
 */
export function brandedMail(tenant: TenantConfig) {
  const signature = [
    '',
    `${tenant.partner_name} ${tenant.admissions_address.name}`,
    `Questions? Email ${tenant.help_email} or call ${tenant.phones.help}.`,
  ];

  function build(
    to: string,
    subject: string,
    lines: string[],
    action?: { label: string; url: string },
  ): MailMessage {
    const text = [
      ...lines,
      ...(action ? ['', `${action.label}: ${action.url}`] : []),
      ...signature,
    ].join('\n');
    const paragraphs = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
    const button = action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;background:${tenant.theme.primary.main};color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>\n<p style="font-size:13px">Or copy this address into your browser: ${escapeHtml(action.url)}</p>`
      : '';
    const footer = signature
      .filter(Boolean)
      .map((line) => `<p style="font-size:13px;color:#5c6270">${escapeHtml(line)}</p>`)
      .join('\n');
    const html = `<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2329;max-width:560px">\n<h1 style="font-size:20px;color:${tenant.theme.primary.dark}">${escapeHtml(tenant.partner_name)}</h1>\n${paragraphs}\n${button}\n<hr>\n${footer}\n</body></html>`;
    return { to, subject, text, html };
  }
  return build;
}

/** Mail the accounts capability sends. */
export function accountMessages(tenant: TenantConfig) {
  const build = brandedMail(tenant);
  return {
    confirmationCode(to: string, code: string, minutesValid: number): MailMessage {
      return build(to, `Your ${tenant.partner_name} confirmation code`, [
        `Your confirmation code is ${code}.`,
        `Enter it on the confirmation page to finish creating your account. The code works once and expires in ${minutesValid} minutes.`,
        'If you did not create an account, you can ignore this email.',
      ]);
    },
    alreadyRegistered(to: string, loginUrl: string, forgotUrl: string): MailMessage {
      return build(to, `Your ${tenant.partner_name} application account`, [
        'Someone (probably you) tried to create an account with this email address, but an account already exists.',
        `Log in at ${loginUrl}. If you forgot your password, reset it at ${forgotUrl}.`,
        'If this was not you, you can ignore this email: nothing has changed.',
      ]);
    },
    passwordReset(to: string, resetUrl: string, minutesValid: number): MailMessage {
      return build(
        to,
        `Reset your ${tenant.partner_name} application password`,
        [
          'We received a request to reset the password of your application account.',
          `The link below works once and expires in ${minutesValid} minutes. Resetting your password signs you out everywhere.`,
          'If you did not ask for this, you can ignore this email: your password has not changed.',
        ],
        { label: 'Choose a new password', url: resetUrl },
      );
    },
  };
}

export type AccountMessages = ReturnType<typeof accountMessages>;

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
