import { LinkKind } from '@crm/contract';
import { ACCOUNT, DEAL, LEAD, OBJECT, VIEWING, href } from '@crm/contract/resources';

/** The records an activity may be made on that have a screen of their own, and that screen. */
const RECORD_SCREENS = {
  [LinkKind.Object]: (id: number) => href(OBJECT.screens.view, { id }),
  [LinkKind.Demand]: (id: number) => href(LEAD.screens.view, { id }),
  [LinkKind.Viewing]: (id: number) => href(VIEWING.screens.view, { id }),
  [LinkKind.Account]: (id: number) => href(ACCOUNT.screens.view, { id }),
  [LinkKind.Deal]: (id: number) => href(DEAL.screens.view, { id }),
} as Record<number, ((id: number) => string) | undefined>;

/**
 * The screen path of the record an activity was made on (its first link: kind and id), or null
 * when it has none or its kind has no screen.
 */
export function recordScreenPath(link: readonly number[] | null): string | null {
  if (!link) return null;
  const [entity, id] = link;
  return RECORD_SCREENS[entity]?.(id) ?? null;
}
