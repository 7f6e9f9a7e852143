import { cultureOf } from '@crm/contract/constants';
import { OBJECT_TITLE_LANGUAGE, OBJECT_TITLE_ORDER, type TObjectTitleField } from '@crm/contract/object-fields';

export type { TObjectTitleField };

/**
 * Which of the object's titles heads its page for this reader: the first one set in the reader's
 * order (OBJECT_TITLE_ORDER: on an English screen the English title, then the main one; on a Greek
 * screen the main one; on a Russian screen the Russian one, then the main one), else the reader's
 * own (empty, to be filled in). The same rule as the server's `objectTitle` (every list, picker and
 * record that names a property); the page keeps every title editable.
 */
export function headingTitleField(data: Partial<Record<TObjectTitleField, unknown>> | Readonly<Record<string, unknown>>, language: string): TObjectTitleField {
  const order = OBJECT_TITLE_ORDER[cultureOf(language)];
  return order.find((f) => {
    const v = data[f];
    return typeof v === 'string' && v.trim() !== '';
  }) ?? order[0]!;
}

/** The title written in the reader's language: the English one on an English screen, the Russian one on a Russian screen, else the main one. */
export const readerTitleField = (language: string): TObjectTitleField => OBJECT_TITLE_ORDER[cultureOf(language)][0]!;

/**
 * The language of a title (or its description, `titleEn` naming both) when it is not the reader's:
 * the English or Russian one on another screen, so screen readers (and the language checks) read it as such.
 */
export const headingTitleLang = (field: TObjectTitleField, language: string): 'en' | 'ru' | undefined => {
  const lang = OBJECT_TITLE_LANGUAGE[field];
  return lang && lang !== cultureOf(language) ? (lang as 'en' | 'ru') : undefined;
};
