import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TMailMessage } from '@crm/contract';
import { ACCOUNT, href } from '@crm/contract/resources';
import { ApiError, call } from '../lib/api.ts';
import { describeError } from '../lib/errors.ts';
import { useGuardedMutation } from '../lib/use-guarded-mutation.ts';
import { activityKeys } from './activities/api.ts';

type Contact = NonNullable<TMailMessage['newContact']>;

/** The display name split as a form asks: the first word the first name, the rest the surname. */
const split = (name: string | null) => {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return words.length > 1 ? { firstName: words[0]!, lastName: words.slice(1).join(' ') } : { firstName: '', lastName: words[0] ?? '' };
};

/**
 * "New contact?" under a message from an address no account has (decision 089): the name and phone
 * the signature gave, in a short form to check; adding it makes a client account with that address,
 * and the message (with any other from the address) is on it at once.
 */
export function MailNewContact({ mailId, contact }: { mailId: number; contact: Contact }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [f, setF] = useState({ ...split(contact.name), phone: contact.phone ?? '', email: contact.address });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [added, setAdded] = useState<number | null>(null);
  const add = useGuardedMutation({
    mutationFn: () => call(ACCOUNT.calls.add, { body: { firstName: f.firstName, lastName: f.lastName, isClient: true, email: f.email, ...(f.phone.trim() ? { phone: f.phone } : {}) } }),
    meta: { handlesErrors: true },
    onSuccess: (r) => {
      setAdded(r.id);
      void qc.invalidateQueries({ queryKey: ['mail', mailId] });
      void qc.invalidateQueries({ queryKey: ['mail', 'list'] });
      // The record's timeline (its activities and mail together) reads the mail again too.
      void qc.invalidateQueries({ queryKey: activityKeys.all });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) setErrors(e.fieldErrors);
      setFailure(describeError(e).message);
    },
  });
  const field = (k: keyof typeof f, label: string) => (
    <TextInput label={label} value={f[k]} onChange={(e) => setF((x) => ({ ...x, [k]: e.currentTarget.value }))} error={errors[k]} data-testid={`new-contact-${k}`} />
  );
  if (added !== null) {
    return (
      <Alert color="green" data-testid="new-contact-added">
        <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: added })} size="sm">
          {t('mailbox.newContact.added', { name: `${f.firstName} ${f.lastName}`.trim() })}
        </Anchor>
      </Alert>
    );
  }
  return (
    <Alert color="blue" title={t('mailbox.newContact.title')} data-testid="new-contact">
      <Stack gap="xs">
        <Text size="sm">{[contact.name, contact.phone, contact.address].filter(Boolean).join(' · ')}</Text>
        {!open ? (
          <Button size="compact-sm" variant="light" style={{ alignSelf: 'flex-start' }} onClick={() => setOpen(true)} data-testid="new-contact-open">
            {t('mailbox.newContact.add')}
          </Button>
        ) : (
          <Stack gap="xs" data-testid="new-contact-form">
            {failure && (
              <Text size="sm" c="red">
                {failure}
              </Text>
            )}
            <Group grow gap="xs" wrap="wrap">
              {field('firstName', t('mailbox.newContact.firstName'))}
              {field('lastName', t('mailbox.newContact.lastName'))}
            </Group>
            <Group grow gap="xs" wrap="wrap">
              {field('phone', t('mailbox.newContact.phone'))}
              {field('email', t('mailbox.newContact.email'))}
            </Group>
            <Group gap="xs">
              <Button size="compact-sm" loading={add.isPending} disabled={!f.firstName.trim() || !f.lastName.trim()} onClick={() => add.mutate()} data-testid="new-contact-save">
                {t('mailbox.newContact.save')}
              </Button>
              <Button size="compact-sm" variant="default" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Alert>
  );
}
