import type { TenantConfig } from '../../shared/tenant/tenant-config';

/**
 * The rows of the list with their decision's label as the tenant names the code. The list names
 * them itself so it needs nothing of decisions, which build on the list.
 */
export function withDecisionLabels<
  Row extends { decision: string | null; review_recommendation?: string | null },
>(tenant: TenantConfig, rows: Row[]): Row[] {
  const labels = new Map(tenant.decisions.codes.map((code) => [code.code, code.label]));
  const labelOf = (code: string | null | undefined) =>
    code === null || code === undefined ? null : (labels.get(code) ?? code);
  return rows.map((row) => ({
    ...row,
    decision_label: labelOf(row.decision),
    ...('review_recommendation' in row
      ? { review_recommendation_label: labelOf(row.review_recommendation) }
      : {}),
  }));
}
