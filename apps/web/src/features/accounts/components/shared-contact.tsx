import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { SHELL, ACCOUNT, href } from '@crm/contract/resources';
import { IconAlertTriangle } from '../../../components/icons.ts';
import { call } from '../../../lib/api.ts';
import { completeContact, sameContact } from '../../../lib/contact-match.ts';

/** How many other accounts a shared phone or e-mail names at most. */
const SHOWN = 3;
/**
 * Under a phone or e-mail of an account: the other accounts that have the same one, linked (in a
 * new tab, so nothing typed here is left), with a way to merge them when they are one person. A
 * couple's landline or an office's e-mail can be shared on purpose: this says so, it never blocks.
 */
export function SharedContact({ kind, value, selfId, testId }: { kind: 'phone' | 'email'; value: string; selfId: number; testId: string }) {
  const { t } = useTranslation();
  const [typed] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const ready = completeContact(kind, typed);
  const q = useQuery({
    queryKey: ['accounts', 'sharedContact', kind, typed],
    // The global search: its account hits show the phone or e-mail they were found by.
    queryFn: ({ signal }) => call(SHELL.calls.search, { query: { searchStr: typed } }, { signal, background: true }),
    enabled: ready,
    staleTime: 30_000,
  });
  const others = ready ? (q.data?.items ?? []).filter((h) => h.entity !== 'Object' && h.entity !== 'Lead' && h.id !== selfId && sameContact(kind, typed, h.description)) : [];
  if (others.length === 0) return null;
  return (
    <Text size="xs" data-testid={testId} role="status">
      <IconAlertTriangle size={14} color="var(--mantine-color-orange-7)" aria-hidden style={{ verticalAlign: '-2px', marginRight: 4 }} />
      {t(kind === 'phone' ? 'accounts.ui.edit.sharedPhone' : 'accounts.ui.edit.sharedEmail')}{' '}
      {others.slice(0, SHOWN).map((h, i) => (
        // Links within the sentence (inline, as text links are): "…also on: Παπαδοπούλου Μαρία (merge), …".
        <Fragment key={h.id}>
          {i > 0 && ', '}
          <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: h.id })} target="_blank" rel="noopener" size="xs" data-testid={`${testId}-link`}>
            {h.description.replace(/\s*\([^()]*\)\s*$/, '')}
          </Anchor>
          {/* An account not yet made (the Add form) has nothing to merge yet. */}
          {selfId > 0 && (
            <>
              {' '}
              (
              <Anchor component={Link} to={href(ACCOUNT.screens.mergePair, { a1: selfId, a2: h.id })} size="xs" data-testid={`${testId}-merge`}>
                {t('accounts.ui.edit.mergeWith')}
              </Anchor>
              )
            </>
          )}
        </Fragment>
      ))}
      {others.length > SHOWN && ` ${t('accounts.ui.edit.sharedMore', { count: others.length - SHOWN })}`}
    </Text>
  );
}
