import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TActionLogAnswer, TActionLogSearch, TLocalizationImportAnswer, TSiteSettings, TSiteSettingsAnswer, TSiteSettingsUpdate } from '@crm/contract';
import { api } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';
import { currentCulture, forgetStoredTexts, i18n } from '../../../lib/i18n.ts';

/** Saves an export under its file name (the name the server's Content-Disposition gives it too). */
export async function download(path: string, fileName: string, query?: Record<string, string>) {
  saveBlob(await api<Blob>(path, { blob: true, query }), fileName);
}

export const exportLocalization = () => download('/api/LocalizationExport', 'Localization.xlsx');
export const exportEmails = (except: boolean) =>
  download('/api/DataExport', except ? 'Emails-Other.xlsx' : 'Emails-Russian.xlsx', { language: 'russian', except: String(except) });

export function importLocalization(file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  return api<TLocalizationImportAnswer>('/api/LocalizationExport', { body });
}

/** Filters of the action log (cookie "ActionLog.filter"), with the picked employee's name. */
export type TActionLogFilter = Omit<TActionLogSearch, 'perPage' | 'currentPage' | 'entity'> & { entity: 0 | 1 | 2; actionByName: string };
export const NO_ACTION_LOG_FILTER: TActionLogFilter = { actionBy: null, actionByName: '', actionByText: null, entity: 0, entityId: null, startDate: null, endDate: null };

export const actionLogQuery = (f: TActionLogFilter, page: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: ['actionLog', f, page],
    queryFn: ({ signal }) => {
      const { actionByName: _n, ...filter } = f;
      return api<TActionLogAnswer>('/api/actionLog', { body: { ...filter, actionByText: f.actionBy ? null : f.actionByText || null, ...page }, signal, background: true });
    },
    placeholderData: keepPreviousData,
  });

/**
 * After an import: the reader's texts again from the server (its ETag changed), shown at once; the
 * other languages' stored copies are dropped so that a switch loads them fresh.
 */
export async function reloadTexts() {
  const culture = currentCulture();
  const res = await fetch(`/api/Localization?culture=${culture}`, { cache: 'no-cache' });
  if (!res.ok) return;
  const rows = (await res.json()) as { key: string; text: string }[];
  const texts: Record<string, string> = {};
  for (const r of rows) texts[r.key] = r.text;
  try {
    for (const c of ['en', 'el', 'ru'] as const) forgetStoredTexts(c);
  } catch {
    // Storage disabled: nothing stored to drop.
  }
  i18n.addResourceBundle(culture, 'translation', texts, true, true);
}

/** The agency's details on the public site (GET /api/SiteSettings). */
export const siteSettingsQuery = () =>
  queryOptions({
    queryKey: ['siteSettings'],
    queryFn: ({ signal }) => api<TSiteSettingsAnswer>('/api/SiteSettings', { signal }),
    meta: { handlesErrors: true },
  });

/** Saves them, based on the version loaded (a 409 answers the current ones). */
export const saveSiteSettings = (body: TSiteSettingsUpdate) => api<TSiteSettings>('/api/SiteSettings', { body });
