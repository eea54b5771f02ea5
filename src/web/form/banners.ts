import type { ClientSnapshot } from '../app-state/client-snapshot';

export type BannerKind = 'thanks' | 'welcome' | 'welcomeBack' | 'firstTime' | 'returning';

export interface BannerContent {
  kind: BannerKind;
  title: string;
}

/** Spec 001 section 1: the exact titles. */
export const BANNER_TITLES = {
  thanks: (name: string) => (name ? `Thanks, ${name}!` : 'Thanks!'),
  welcome: 'Welcome to your application!',
  welcomeBack: 'Welcome Back',
  firstTime: 'First time here?',
  returning: 'Returning to your application?',
} as const;

/**
 * Spec 001 section 1: banners always show for submitted and for logged-out visitors; a signed-in
 * student sees the welcome only until the first page change (has_changed_page).
 */
export function bannersFor(
  snapshot: Pick<ClientSnapshot, 'isLoggedIn' | 'webStatus' | 'numLogins' | 'hasChangedPage'>,
  firstName: string,
): BannerContent[] {
  if (snapshot.isLoggedIn && snapshot.webStatus === 'submitted') {
    return [{ kind: 'thanks', title: BANNER_TITLES.thanks(firstName.trim()) }];
  }
  if (!snapshot.isLoggedIn) {
    return [
      { kind: 'firstTime', title: BANNER_TITLES.firstTime },
      { kind: 'returning', title: BANNER_TITLES.returning },
    ];
  }
  if (snapshot.hasChangedPage) return [];
  return snapshot.numLogins > 1
    ? [{ kind: 'welcomeBack', title: BANNER_TITLES.welcomeBack }]
    : [{ kind: 'welcome', title: BANNER_TITLES.welcome }];
}
