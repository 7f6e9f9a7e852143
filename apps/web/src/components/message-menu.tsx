import { ActionIcon, Menu, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { LinkKind } from '@crm/contract/constants';
import { CLIENT_MESSAGE } from '@crm/contract/resources';
import { call } from '../lib/api.ts';
import { agencyDateTime } from '../lib/agency-clock.ts';
import { useChangeKeys } from '../lib/change-key.ts';
import { showBanner } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { MESSAGE_APPS, internationalPhone, messageLink, type TMessageApp } from '../lib/message-links.ts';
import { activityKeys, addActivity } from './activities/api.ts';
import { IconMessageDots } from './icons.ts';

const APP_NAME: Record<TMessageApp, string> = { viber: 'icalfeed.message.via.viber', whatsapp: 'icalfeed.message.via.whatsapp', sms: 'icalfeed.message.via.sms' };
const LANGUAGE_NAME = { en: 'lang.en-UK', el: 'lang.el', ru: 'lang.ru' } as const;

/**
 * One tap on a client's phone: Viber, WhatsApp or SMS, opened at the client's chat with a ready
 * text in the client's language (the server writes it: from a viewing, its confirmation; else a
 * greeting). Choosing one logs "Message sent via …" with the text as a done activity on the
 * account (and the viewing), through the activity call, so it is in the action log too.
 */
export function MessageMenu({ accountId, phone, viewingId, testId = 'message-menu' }: { accountId: number; phone: string; viewingId?: number; testId?: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [opened, setOpened] = useState(false);
  const keys = useChangeKeys();
  const number = internationalPhone(phone);
  const message = useQuery({
    queryKey: ['clientMessage', accountId, viewingId ?? null],
    queryFn: ({ signal }) => call(CLIENT_MESSAGE.calls.text, { params: { id: accountId }, query: viewingId ? { viewingId } : {} }, { signal }),
    enabled: opened && number !== null,
    staleTime: 60_000,
  });
  if (!number) return null;
  const text = message.data?.text ?? '';
  const log = (app: TMessageApp) => {
    if (app === 'viber') void navigator.clipboard?.writeText(text).catch(() => undefined);
    const links = [{ entity: LinkKind.Account, id: accountId }, ...(viewingId ? [{ entity: LinkKind.Viewing, id: viewingId }] : [])];
    const now = agencyDateTime();
    const body = { entityType: LinkKind.Account, id: accountId, description: `${t('icalfeed.message.logged', { via: t(APP_NAME[app]) })}\n\n${text}`, done: true, date: now, doneDate: now, links };
    // A double tap within the same second is one message (the same Idempotency-Key).
    addActivity(body, keys.keyFor(body))
      .then(() => {
        keys.renew();
        return qc.invalidateQueries({ queryKey: activityKeys.all });
      })
      .catch((e: unknown) => {
        const d = describeError(e);
        showBanner(d.type, d.message, { details: d.details });
      });
  };
  const label = t('icalfeed.message.open', { phone });
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-start" withinPortal>
      <Menu.Target>
        <Tooltip label={label}>
          <ActionIcon variant="default" size={30} aria-label={label} data-testid={testId}>
            <IconMessageDots size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown maw={340} data-testid={`${testId}-dropdown`}>
        {message.isPending ? (
          <Menu.Label>{t('icalfeed.message.loading')}</Menu.Label>
        ) : message.isError ? (
          <Menu.Label c="red">{describeError(message.error).message}</Menu.Label>
        ) : (
          <>
            <Menu.Label>{t('icalfeed.message.preview', { language: t(LANGUAGE_NAME[message.data.culture]) })}</Menu.Label>
            <Text size="xs" px="sm" pb="xs" style={{ whiteSpace: 'pre-wrap' }} data-testid={`${testId}-text`}>
              {text}
            </Text>
            {MESSAGE_APPS.map((app) => (
              <Menu.Item
                key={app}
                component="a"
                href={messageLink(app, number, text)}
                {...(app === 'whatsapp' ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                onClick={() => log(app)}
                data-testid={`${testId}-${app}`}
              >
                {t(APP_NAME[app])}
                {app === 'viber' && (
                  <Text size="xs" c="dimmed">
                    {t('icalfeed.message.viberNote')}
                  </Text>
                )}
              </Menu.Item>
            ))}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
