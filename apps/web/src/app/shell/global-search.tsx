import { Combobox, Kbd, Loader, TextInput, useCombobox, Text, Group, Badge } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '../../components/icons.ts';
import { useQuery } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { useLocation, useNavigate } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import type { TSearchHit } from '@crm/contract';
import { SHELL, ACCOUNT, LEAD, OBJECT, href } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { RECENT_KIND_TITLE, recentPath, useRecent } from '../../lib/recent.ts';

/** Where a search hit leads: leads to the lead, objects to the object, the rest to the account. */
export function hitPath(hit: TSearchHit): string {
  if (hit.entity === 'Object') return href(OBJECT.screens.view, { id: hit.id });
  if (hit.entity === 'Lead') return href(LEAD.screens.view, { id: hit.id });
  return href(ACCOUNT.screens.view, { id: hit.id });
}

/** Whether the keyboard's command key is ⌘ (Apple) rather than Ctrl. */
const APPLE = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** The shortcut that puts the focus in the global search, from anywhere (as `aria-keyshortcuts` spells it). */
export const SEARCH_SHORTCUT = APPLE ? 'Meta+K' : 'Control+K';

/**
 * The global search box. `shortcutHint` shows the key that reaches it from anywhere (Ctrl K, ⌘K on
 * Apple keyboards) while the box is empty: in the header, where a keyboard is likely.
 */
export function GlobalSearch({ autoFocus = false, inputRef, shortcutHint = false }: { autoFocus?: boolean; inputRef?: Ref<HTMLInputElement>; shortcutHint?: boolean } = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const combobox = useCombobox();
  // Not sent when the text is empty; the results are cleared instead.
  const q = useQuery({
    queryKey: ['search', debounced],
    queryFn: ({ signal }) => call(SHELL.calls.search, { query: { searchStr: debounced } }, { signal }),
    enabled: debounced.length > 0,
    staleTime: 5000,
  });
  const items = debounced ? (q.data?.items ?? []) : [];
  // While the box is empty it offers the records opened last (not the one on screen).
  const { pathname } = useLocation();
  const recent = useRecent().filter((e) => pathname !== recentPath(e) && !pathname.startsWith(`${recentPath(e)}/`));
  const showRecent = !text.trim() && recent.length > 0;
  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        combobox.closeDropdown();
        const opened = recent.find((e) => `recent:${e.kind}:${e.id}` === value);
        if (opened) {
          navigate(recentPath(opened));
          return;
        }
        const hit = items.find((h) => `${h.entity}:${h.id}` === value);
        if (hit) {
          setText('');
          navigate(hitPath(hit));
        }
      }}
      // Wide enough to tell alike properties apart ("#0017 · Διαμέρισμα, 50 τ.μ., 1 υπνοδωμάτιο, Καλαμαριά · owner"), never wider than the phone.
      width="min(520px, calc(100vw - 16px))"
      position="bottom-end"
    >
      <Combobox.Target>
        <TextInput
          size="xs"
          w={{ base: '100%', sm: 200, lg: 150, xl: 170 }}
          placeholder={t('nav.search')}
          aria-label={t('nav.searchLabel')}
          leftSection={<IconSearch size={14} />}
          rightSection={
            q.isFetching ? (
              <Loader size={12} />
            ) : shortcutHint && !text ? (
              <Kbd size="xs" aria-hidden data-testid="global-search-shortcut">
                {APPLE ? '⌘K' : 'Ctrl K'}
              </Kbd>
            ) : null
          }
          rightSectionWidth={shortcutHint && !text && !q.isFetching ? 52 : undefined}
          rightSectionPointerEvents="none"
          ref={inputRef}
          aria-keyshortcuts={SEARCH_SHORTCUT}
          value={text}
          // The menu's focus trap gives its first focus to the element marked so.
          data-autofocus={autoFocus || undefined}
          data-testid="global-search"
          onChange={(e) => {
            setText(e.currentTarget.value);
            combobox.openDropdown();
            combobox.resetSelectedOption();
          }}
          onFocus={() => combobox.openDropdown()}
          // Still focused after a choice (the list closed): a click opens it again.
          onClick={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!debounced && !showRecent}>
        {/* Twenty hits can be taller than the dropdown: the list scrolls, so it can take the focus
            too (arrow keys from the input still move through it; Tab leaves the search). */}
        <Combobox.Options mah={400} style={{ overflowY: 'auto' }} tabIndex={0} aria-label={t('nav.searchLabel')}>
          {showRecent ? (
            <Combobox.Group label={t('nav.recent')} data-testid="recent-list">
              {recent.map((e) => (
                <Combobox.Option key={`recent:${e.kind}:${e.id}`} value={`recent:${e.kind}:${e.id}`} data-testid="recent-hit">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm" lineClamp={2}>
                      {e.label}
                    </Text>
                    <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                      {t(RECENT_KIND_TITLE[e.kind])}
                    </Badge>
                  </Group>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          ) : items.length === 0 && !q.isFetching ? (
            <Combobox.Empty>{t('nav.searchNoResults')}</Combobox.Empty>
          ) : (
            items.map((hit) => (
              <Combobox.Option key={`${hit.entity}:${hit.id}`} value={`${hit.entity}:${hit.id}`} data-testid="search-hit">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" lineClamp={2}>
                    {hit.description}
                  </Text>
                  <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                    {t(`searchEntity.${hit.entity}`)}
                  </Badge>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
