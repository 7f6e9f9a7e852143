import { createStore } from './store.ts';

export type BannerType = 'success' | 'warning' | 'danger';
export type Banner = { type: BannerType; message: string; details?: string; html?: boolean } | null;

/** The page banner above the content: success, warning or danger; cleared on route change. */
export const bannerStore = createStore<Banner>(null);
export const showBanner = (type: BannerType, message: string, opts: { details?: string; html?: boolean } = {}) =>
  bannerStore.set({ type, message, ...opts });
export const clearBanner = () => bannerStore.set(null);
export const useBanner = () => bannerStore.use();
