import { formatDeadline } from '../../shared/decisions/letter';

/**
 * A moment as the applicant reads it: `October 20, 2026 at 8:00 AM EDT`, in their own time zone,
 * named, the one way every time on the status page is said.
 */
export function formatMoment(iso: string): string {
  return formatDeadline(iso) || iso;
}

/** A `<time>` the server marked in the letter's HTML; its words are the office's reading. */
const MARKED_MOMENT = /<time datetime="([^"<>]+)">[^<]*<\/time>/g;

/**
 * The letter's HTML with each moment the server marked (the reply deadline) said as
 * {@link formatMoment} says it, so the letter and the page beside it agree in the applicant's zone.
 */
export function letterInReadersZone(html: string): string {
  return html.replace(MARKED_MOMENT, (marked, iso: string) => {
    const said = formatDeadline(iso);
    return said ? `<time datetime="${iso}">${said}</time>` : marked;
  });
}
