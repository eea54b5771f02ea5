import type { TenantConfig } from '../../shared/tenant/tenant-config';

/** The rows of the list with their decision's label as the tenant names the code. */
export function withDecisionLabels<Row extends { decision: string | null }>(
  tenant: TenantConfig,
  rows: Row[],
): Row[] {
  const labels = new Map(tenant.decisions.codes.map((code) => [code.code, code.label]));
  return rows.map((row) => ({
    ...row,
    decision_label: row.decision === null ? null : (labels.get(row.decision) ?? row.decision),
  }));
}
