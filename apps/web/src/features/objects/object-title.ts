import { cultureOf } from '@crm/contract/constants';
import { OBJECT_TITLE_ORDER } from '@crm/contract/object-fields';

/**
 * Which of the object's two titles heads its page for this reader: the first one set in the
 * reader's order (OBJECT_TITLE_ORDER: on a Russian screen the Russian title, then the main one;
 * elsewhere the main one, then the Russian), else the reader's own (empty, to be filled in). The same
 * rule as the server's `objectTitle` (every list, picker and record that names a property); the page
 * keeps both editable.
 */
export function headingTitleField(data: Partial<Record<'title' | 'titleRu', unknown>> | Readonly<Record<string, unknown>>, language: string): 'title' | 'titleRu' {
  const order = OBJECT_TITLE_ORDER[cultureOf(language)];
  return order.find((f) => {
    const v = data[f];
    return typeof v === 'string' && v.trim() !== '';
  }) ?? order[0]!;
}

/** The title written in the reader's language: the Russian one on a Russian screen, else the main one. */
export const readerTitleField = (language: string): 'title' | 'titleRu' => OBJECT_TITLE_ORDER[cultureOf(language)][0]!;

/** The language of the heading's title when it is not the reader's: the Russian title on another screen. */
export const headingTitleLang = (field: 'title' | 'titleRu', language: string): 'ru' | undefined =>
  field === 'titleRu' && cultureOf(language) !== 'ru' ? 'ru' : undefined;
