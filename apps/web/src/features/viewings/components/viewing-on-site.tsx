import { ActionIcon, Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TViewingClient, TViewingObjectKey } from '@crm/contract';
import { ACCOUNT, VIEWING, href } from '@crm/contract/resources';
import { phoneLinks } from '../../../lib/contact-links.ts';
import { MessageMenu } from '../../../components/message-menu.tsx';
import { keyStateLine } from '../../../lib/key-state.ts';
import { useMedia } from '../../../lib/first-paint.ts';
import { IconMessage, IconPhone, IconPrinter } from '../icons.ts';

/** A phone's sms: address from its tel: one (the phone's messaging app: SMS, Viber or WhatsApp as it offers). */
const smsOf = (tel: string) => `sms:${tel.slice('tel:'.length)}`;

/**
 * The client the viewing is for, a tap from a call or a message: their name (a link to their card)
 * and each phone of theirs with Call (tel:), Message (sms:) and, from a saved viewing, Viber,
 * WhatsApp or SMS with the viewing's confirmation written in the client's language.
 */
export function ViewingClient({ client, viewingId }: { client: TViewingClient; viewingId?: number }) {
  const { t } = useTranslation();
  const phones = client.phones.flatMap((p) => phoneLinks(p));
  return (
    <div data-testid="viewing-client">
      <Text size="xs" c="dimmed">
        {t('viewings.ui.client')}
      </Text>
      <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: client.accountId })} size="sm" data-testid="viewing-client-name">
        {client.name}
      </Anchor>
      {phones.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="viewing-client-no-phone">
          {t('viewings.ui.noPhone')}
        </Text>
      ) : (
        <Stack gap={4} mt={4}>
          {phones.map((p) =>
            p.href ? (
              <Group key={p.text} gap="xs" wrap="wrap">
                <Button component="a" href={p.href} size="compact-md" variant="light" leftSection={<IconPhone size={16} />} aria-label={t('viewings.ui.callTo', { phone: p.text })} data-testid="viewing-client-call">
                  {p.text}
                </Button>
                <Tooltip label={t('viewings.ui.messageTo', { phone: p.text })}>
                  <ActionIcon component="a" href={smsOf(p.href)} variant="default" size={30} aria-label={t('viewings.ui.messageTo', { phone: p.text })} data-testid="viewing-client-message">
                    <IconMessage size={16} />
                  </ActionIcon>
                </Tooltip>
                <MessageMenu accountId={client.accountId} phone={p.text} viewingId={viewingId} testId="viewing-client-template" />
              </Group>
            ) : (
              <Text key={p.text} size="sm">
                {p.text}
              </Text>
            ),
          )}
        </Stack>
      )}
    </div>
  );
}

/** Under a property of the viewing: its street address and area, and where each of its keys is now. */
export function ObjectPlace({ address, location, keys }: { address: string | null; location: string | null; keys: TViewingObjectKey[] }) {
  const { t } = useTranslation();
  const where = [address, location].filter(Boolean).join(' · ');
  return (
    <Stack gap={2} mt={4}>
      <Text size="sm" data-testid="viewing-object-address" c={where ? undefined : 'dimmed'}>
        {where || t('viewings.ui.noAddress')}
      </Text>
      {keys.length === 0 ? (
        <Text size="xs" c="dimmed" data-testid="viewing-object-key">
          {t('objectkeys.noneForProperty')}
        </Text>
      ) : (
        keys.map((k) => (
          <Text key={k.id} size="xs" c="dimmed" data-testid="viewing-object-key">
            {[k.description || t('objectkeys.key'), keyStateLine(t, k)].filter(Boolean).join(': ')}
          </Text>
        ))
      )}
    </Stack>
  );
}

/**
 * The viewing sheet's link: a button with its name; on a phone its printer icon alone (named, with a
 * tooltip), so that Back and Edit keep their line.
 */
export function PrintSheetLink({ id }: { id: number }) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 35.99em)', false);
  const label = t('viewings.ui.printSheet');
  return phone ? (
    <Tooltip label={label}>
      <ActionIcon component={Link} to={href(VIEWING.screens.sheet, { id })} variant="default" size={36} aria-label={label} data-testid="viewing-print-sheet">
        <IconPrinter size={18} />
      </ActionIcon>
    </Tooltip>
  ) : (
    <Button component={Link} to={href(VIEWING.screens.sheet, { id })} variant="default" leftSection={<IconPrinter size={16} />} data-testid="viewing-print-sheet">
      {label}
    </Button>
  );
}
