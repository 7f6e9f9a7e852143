import { Alert, Anchor, Box, Button, Group, Input, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { href, OBJECT } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { keyOut } from '../api/object-keys.ts';
import { keyStateLine } from '../key-state.ts';
import { headingTitleField } from '../object-title.ts';
import { IconEraser } from './search-icons.ts';

/** What the key form holds (the property's number and the holder's name shown beside their ids). */
export type TKeyForm = {
  objectId: number | null;
  objectReferenceNumber: string;
  accountId: number | null;
  account: string;
  received: string | null;
  givenAway: string | null;
  description: string;
};


/**
 * Where the key is, as the form stands, with the one-click next step: Key returned while it is
 * out, Lend again while the office holds it. After Lend again, what to do next.
 */
type KeyStateProps = { form: TKeyForm; lastHolder: string | null; newLoan: boolean; busy: boolean; onReturned: () => void; onLendAgain: () => void };
export function KeyState({ form, lastHolder, newLoan, busy, onReturned, onLendAgain }: KeyStateProps) {
  const { t } = useTranslation();
  if (newLoan)
    return (
      <Alert color="blue" data-testid="key-state" role="status">
        {t('objectkeys.lendNote')}
      </Alert>
    );
  const out = keyOut(form);
  const text = keyStateLine(t, { ...form, account: form.account || null, lastLoan: lastHolder ? { account: lastHolder } : null });
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" data-testid="key-state">
      <Text size="sm" fw={500} data-testid="key-state-text" style={{ flex: '1 1 14rem' }}>
        {text}
      </Text>
      {out ? (
        <Button variant="light" onClick={onReturned} loading={busy} data-testid="key-returned">
          {t('objectkeys.returned')}
        </Button>
      ) : (
        <Button variant="light" onClick={onLendAgain} disabled={busy} data-testid="key-lend">
          {t(lastHolder || form.account ? 'objectkeys.lendAgain' : 'objectkeys.lendOut')}
        </Button>
      )}
    </Group>
  );
}

/** An input with its Reset button beside it (the spec's account and date resets). */
export function WithReset({ children, label, onReset, disabled, testId }: { children: ReactNode; label: string; onReset: () => void; disabled: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      {/* On a phone the button is its icon (named for screen readers), leaving the field its width. */}
      <Button variant="default" px="sm" onClick={onReset} disabled={disabled} aria-label={t('objectkeys.resetField', { field: label })} data-testid={testId}>
        <IconEraser size={16} aria-hidden="true" />
        <Box component="span" ml={6} visibleFrom="xs">
          {t('objectkeys.reset')}
        </Box>
      </Button>
    </Group>
  );
}

/**
 * The key's property as a link, by its number and title as the deal form names it ("#0155 Flat in
 * Kalamaria"); a new key's property is looked up once.
 */
export function ObjectOfKey({ objectId, reference, title }: { objectId: number; reference: string; title: string | null }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['objectKeys', 'objectRef', objectId],
    queryFn: async ({ signal }) => {
      const o = await call(OBJECT.calls.view, { params: { idOrRef: String(objectId) } }, { signal, background: true });
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      return { referenceNumber: String(o.referenceNumber ?? ''), title: text(o.title), titleEn: text(o.titleEn), titleRu: text(o.titleRu) };
    },
    enabled: !reference,
    meta: { handlesErrors: true },
  });
  const number = reference || q.data?.referenceNumber;
  const name = reference ? title : q.data ? q.data[headingTitleField(q.data, i18n.language)]?.trim() : null;
  const shown = number && `#${number}${name ? ` ${name}` : ''}`;
  return (
    <Input.Wrapper label={t('objectkeys.object')}>
      <div>
        {q.isError ? (
          <Text c="red" size="sm" data-testid="key-object-missing">
            {t('objectkeys.objectRequired')}
          </Text>
        ) : (
          <Anchor component={Link} to={href(OBJECT.screens.view, { id: objectId })} fw={600} data-testid="key-object">
            {shown || '…'}
          </Anchor>
        )}
      </div>
    </Input.Wrapper>
  );
}
