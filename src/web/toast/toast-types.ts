/** Spec 000 section 3: toasts are either success or error. */
export type ToastSeverity = 'success' | 'error';

export interface ToastMessage {
  severity: ToastSeverity;
  title: string;
  description?: string;
}

export function isToastMessage(value: unknown): value is ToastMessage {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { severity, title, description } = value as Record<string, unknown>;
  return (
    (severity === 'success' || severity === 'error') &&
    typeof title === 'string' &&
    (description === undefined || typeof description === 'string')
  );
}
