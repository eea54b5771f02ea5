/**
 * What each staff role may do. The server checks one of these on every staff route, and the
 * console shows only what the signed-in member's role allows; docs/security.md prints this table.
 */
export const STAFF_ROLES = ['admin', 'evaluator', 'reader'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERMISSIONS = {
  'applications.read': 'Find and read applications, their documents and PDFs',
  'checklist.mark': 'Mark checklist items',
  'service_links.manage': 'Create, list and revoke read-only links to an application',
  'decisions.manage': 'Record, change and release decisions',
  'credit.evaluate': 'Verify and correct transferred courses, release credit estimates',
  'credit.tables': 'Import equivalency tables',
  'exports.run': 'Export applications (CSV, PDF ZIP); with audit.read, the audit log',
  'staff.manage': 'Invite staff, change roles, disable members',
  'audit.read': 'Read the audit trail',
  'settings.manage': 'Change the portal settings',
  'integrations.manage': 'Manage API clients, webhook subscriptions and scheduled feeds',
  'reviews.read': 'Read and score the applications assigned to you',
  'reviews.read_unassigned': 'Start a read of an application not assigned to you',
  'reviews.assign': 'Assign reads, set assignment rules and conflicts of interest',
  'reviews.committee': 'See every read and score of an application before reading it (committee)',
} as const;
export type Permission = keyof typeof PERMISSIONS;

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  admin: Object.keys(PERMISSIONS) as Permission[],
  evaluator: [
    'applications.read',
    'checklist.mark',
    'service_links.manage',
    'exports.run',
    'credit.evaluate',
    'reviews.read',
  ],
  reader: [
    'applications.read',
    'checklist.mark',
    'service_links.manage',
    'exports.run',
    'reviews.read',
  ],
};

/** Permissions that need a fresh second factor (within STEP_UP_MINUTES), not only a session. */
export const STEP_UP_PERMISSIONS: ReadonlySet<Permission> = new Set([
  'decisions.manage',
  'exports.run',
  'staff.manage',
  'integrations.manage',
]);
export const STEP_UP_MINUTES = 10;

export function roleAllows(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export const ROLE_LABELS: Record<StaffRole, string> = {
  admin: 'Administrator',
  evaluator: 'Evaluator',
  reader: 'Reader',
};
