import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TActionLogSearch, TCulture, TMailKind, TSiteSettingsUpdate } from '@crm/contract';
import { ACTION_LOG_PAGE_SIZE } from '@crm/contract/office-constants';
import { SETTINGS, SHELL, urlOf, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';
import { currentCulture, forgetStoredTexts, i18n } from '../../../lib/i18n.ts';
import { listSource } from '../../../kit/list-source.ts';

/** Saves an export under its file name (the name the server's Content-Disposition gives it too). */
const saveAs = async (file: Promise<Blob>, fileName: string) => saveBlob(await file, fileName);

export const exportLocalization = () => saveAs(call(SETTINGS.calls.localizationExport, {}, { blob: true }), 'Localization.xlsx');
export const exportEmails = (except: boolean) =>
  saveAs(call(SETTINGS.calls.dataExport, { query: { language: 'russian', except: except ? 'true' : 'false' } }, { blob: true }), except ? 'Emails-Other.xlsx' : 'Emails-Russian.xlsx');

export function importLocalization(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return call(SETTINGS.calls.localizationImport, {}, { form });
}

/** Filters of the action log (cookie "ActionLog.filter"), with the picked employee's name and the name or e-mail typed. */
export type TActionLogFilter = Omit<TActionLogSearch, 'perPage' | 'currentPage' | 'entity' | 'actionByText'> & { entity: 0 | 1 | 2; actionByName: string; actionByText: string };
export const NO_ACTION_LOG_FILTER: TActionLogFilter = { actionBy: null, actionByName: '', actionByText: '', entity: 0, entityId: null, startDate: null, endDate: null };
const actionLogQuery = (f: TActionLogFilter, page: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: ['actionLog', f, page],
    queryFn: ({ signal }) => {
      const { actionByName: _n, ...filter } = f;
      return call(SETTINGS.calls.actionLog, { body: { ...filter, actionByText: f.actionBy ? null : f.actionByText.trim() || null, ...page } }, { signal, background: true });
    },
    placeholderData: keepPreviousData,
  });
/** The action log: its page (20 a page, newest first), its filter (a text kept before as null is none) and its call, for its screen. */
export const ACTION_LOG = listSource({
  list: SETTINGS.lists.actionLog,
  saved: {
    list: { list: 'ActionLog', defaults: { perPage: ACTION_LOG_PAGE_SIZE, sortBy: 'date', sortDir: 'desc' } },
    filter: { cookie: 'ActionLog.filter', initial: NO_ACTION_LOG_FILTER, read: (kept) => ({ ...kept, actionByText: typeof kept.actionByText === 'string' ? kept.actionByText : '' }) },
  },
  debounced: ['actionByText'],
  pageSizes: [ACTION_LOG_PAGE_SIZE, 100],
  query: actionLogQuery,
});

/**
 * After an import: the reader's texts again from the server (its ETag changed), shown at once; the
 * other languages' stored copies are dropped so that a switch loads them fresh.
 */
export async function reloadTexts() {
  const culture = currentCulture();
  const res = await fetch(urlOf(SHELL.calls.localization, { query: { culture } }), { cache: 'no-cache' });
  if (!res.ok) return;
  const rows = (await res.json()) as AnswerOf<typeof SHELL.calls.localization>;
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
    queryFn: ({ signal }) => call(SETTINGS.calls.siteSettings, {}, { signal }),
    meta: { handlesErrors: true },
  });

/** Saves them, based on the version loaded (a 409 answers the current ones). */
export const saveSiteSettings = (body: TSiteSettingsUpdate) => call(SETTINGS.calls.updateSiteSettings, { body });

/** A kind of mail in a language, as the server writes it, with made-up details (settings' preview). */
export const mailPreviewQuery = (kind: TMailKind, language: TCulture) =>
  queryOptions({
    queryKey: ['mailPreview', kind, language],
    queryFn: ({ signal }) => call(SETTINGS.calls.mailPreview, { query: { kind, language } }, { signal }),
    placeholderData: keepPreviousData,
  });
/** Uploads the agency's logo (a picture), based on the version loaded. */
export function uploadSiteLogo(file: File, version: number) {
  const form = new FormData();
  form.append('version', String(version));
  form.append('file', file, file.name);
  return call(SETTINGS.calls.uploadSiteLogo, {}, { form });
}
/** Removes the logo, based on the version loaded. */
export const deleteSiteLogo = (version: number) => call(SETTINGS.calls.deleteSiteLogo, { query: { version } });
/** The logo's address (a new one for each version, so a changed logo is not read from the cache). */
export const siteLogoUrl = (version: number) => `${urlOf(SETTINGS.calls.siteLogo, {})}?v=${version}`;
