const MOMENT_FORMAT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

/**
 * A moment as the applicant reads it: `October 20, 2026 at 8:00 AM EDT`, in their own time zone,
 * named, so it is never mistaken for the office's time beside it (a reply deadline).
 */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', MOMENT_FORMAT);
}
