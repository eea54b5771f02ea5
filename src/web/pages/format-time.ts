/** A moment as the applicant reads it: `October 20, 2026 at 8:00 AM`, in their own time zone. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' });
}
