import type { ListViewer } from '../../shared/staff/application-list-api';
import { roleAllows, type StaffRole } from '../../shared/staff/permissions';

/** The member a list, an export or a batch is for, as its per-member columns and filters read. */
export function listViewerOf(staff: { id: string; role: StaffRole }): ListViewer {
  return { id: staff.id, committee: roleAllows(staff.role, 'reviews.committee') };
}
