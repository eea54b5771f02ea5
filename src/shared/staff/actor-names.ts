import type { AuditEventView } from './staff-api';

/*
 * Who did something, as the console names them to a reader. The trail keeps short technical
 * labels for the portal's own work ("decision release"), which read like a person's name next to
 * staff members' addresses; the reader needs to know it was the portal, and why.
 */

/** The portal's own actors by the label the trail keeps, in words a reader understands. */
const SYSTEM_ACTORS: Record<string, string> = {
  'decision release': 'The portal (automatic release)',
  'command line': 'The portal (server command)',
  'identity provider': 'The portal (university sign-in)',
};

const TYPE_NAMES: Record<AuditEventView['actor_type'], string> = {
  staff: 'Staff',
  service_link: 'Read-only link',
  applicant: 'The applicant',
  anonymous: 'Not signed in',
  system: 'The portal',
  api_client: 'API client',
};

/** A staff member by their name or address; anyone else by what they are. */
export function actorName(
  type: AuditEventView['actor_type'] | string,
  label: string | null | undefined,
): string {
  const text = label?.trim() ? label.trim() : null;
  if (type === 'system') {
    if (!text) return TYPE_NAMES.system;
    return SYSTEM_ACTORS[text] ?? `${TYPE_NAMES.system} (${text})`;
  }
  if (type === 'staff') return text ?? TYPE_NAMES.staff;
  const kind = TYPE_NAMES[type as AuditEventView['actor_type']] ?? type;
  return text ? `${text} (${kind})` : kind;
}
