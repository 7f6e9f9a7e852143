import { createStore } from './store.ts';

export type BannerType = 'success' | 'warning' | 'danger';
export type Banner = { type: BannerType; message: string; details?: string; html?: boolean } | null;

/** The page banner above the content: success, warning or danger; cleared on route change. */
export const bannerStore = createStore<Banner>(null);
export const showBanner = (type: BannerType, message: string, opts: { details?: string; html?: boolean } = {}) =>
  bannerStore.set({ type, message, ...opts });
export const clearBanner = () => bannerStore.set(null);

/** A message for the screen the user is about to be taken to (e.g. "Account deleted", then back). */
let next: Banner = null;
export const showBannerAfterNavigation = (type: BannerType, message: string) => {
  next = { type, message };
};
/** A route change: the old screen's banner goes, a message left for the new screen appears. */
export const changeRouteBanner = () => {
  bannerStore.set(next);
  next = null;
};
export const useBanner = () => bannerStore.use();
