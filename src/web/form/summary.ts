import type { FormModel } from '../../shared/form/model';
import { resolveModel } from '../../shared/form/resolve';
import type { ValidationErrors } from '../../shared/form/validate';

export interface SummaryLink {
  key: string;
  message: string;
  /** '/{page}#{key}' (spec 001 section 1). */
  href: string;
}

export interface SummaryPage {
  route: string;
  title: string;
  links: SummaryLink[];
}

export interface Summary {
  pages: SummaryPage[];
  /** Errors whose key belongs to no page: shown as plain text. */
  unplaced: Array<{ key: string; message: string }>;
  count: number;
}

export interface KeyPlace {
  route: string;
  title: string;
  /** The key's position in the model, so the summary lists errors in the order of the form. */
  order: number;
}

const EVERYTHING = { answers: {}, addAnother: {}, tabs: {}, isLoggedIn: true };

/** Every answer key of the model with the page that holds it (keys are unique across pages). */
export function keyPlaces(model: FormModel): Map<string, KeyPlace> {
  const places = new Map<string, KeyPlace>();
  for (const place of resolveModel(model, EVERYTHING)) {
    if (!places.has(place.key))
      places.set(place.key, {
        route: place.page.route,
        title: place.page.title,
        order: places.size,
      });
  }
  return places;
}

/** The error summary's content: errors grouped by page in model order, the rest as plain text. */
export function buildSummary(
  errors: ValidationErrors,
  places: ReadonlyMap<string, KeyPlace>,
  pageOrder: readonly string[],
): Summary {
  const byRoute = new Map<string, SummaryPage>();
  const unplaced: Summary['unplaced'] = [];
  let count = 0;
  const keys = Object.keys(errors).sort(
    (a, b) =>
      (places.get(a)?.order ?? Number.MAX_SAFE_INTEGER) -
      (places.get(b)?.order ?? Number.MAX_SAFE_INTEGER),
  );
  for (const key of keys) {
    const messages = [...new Set(errors[key] ?? [])];
    const place = places.get(key);
    for (const message of messages) {
      count += 1;
      if (!place) {
        unplaced.push({ key, message });
        continue;
      }
      let page = byRoute.get(place.route);
      if (!page) {
        page = { route: place.route, title: place.title, links: [] };
        byRoute.set(place.route, page);
      }
      page.links.push({ key, message, href: `${place.route}#${key}` });
    }
  }
  const pages = [...byRoute.values()].sort(
    (a, b) => pageOrder.indexOf(a.route) - pageOrder.indexOf(b.route),
  );
  return { pages, unplaced, count };
}

export interface SummaryForPage {
  /** The errors of the page the applicant is on, if it has any. */
  current: SummaryPage | null;
  /** The other pages with errors, in the order of the form. */
  others: SummaryPage[];
}

/** The summary as one page shows it: its own errors first, the other pages after them. */
export function summaryForPage(summary: Summary, currentRoute: string): SummaryForPage {
  return {
    current: summary.pages.find((page) => page.route === currentRoute) ?? null,
    others: summary.pages.filter((page) => page.route !== currentRoute),
  };
}
