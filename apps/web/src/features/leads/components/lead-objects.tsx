import { ActionIcon, Alert, Anchor, Autocomplete, Badge, Group, Stack, Text } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useDebouncedValue } from '@mantine/hooks';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { IconTrash } from '../../../components/icons.ts';
import { OBJECT, href } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { ANSWER_COLOR } from '../../../lib/shortlist-colors.ts';
import { addLeadObject, leadKeys, removeLeadObject, type TLeadAnswer } from '../api/leads.ts';
import { leadShortlistsQuery } from '../api/shortlists.ts';

/**
 * The objects offered to a lead: each links to the object; added by reference number or title
 * (searched 400 ms after typing stops), the same object twice refused with 'Object already in the
 * list!', removed after a confirmation.
 */
export function LeadObjects({ lead, editable }: { lead: TLeadAnswer; editable: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const picked = useRef<string | null>(null);
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const hits = useQuery({
    queryKey: ['object', 'refSearch', debounced],
    queryFn: ({ signal }) => call(OBJECT.calls.searchByRefNumOrTitle, { query: { searchStr: debounced, options: 'no' } }, { signal }),
    enabled: editable && debounced.length > 0,
  });
  const items = hits.data?.items ?? [];
  // The client's latest answer on each object sent (the newest shortlist that has one).
  const sent = useQuery(leadShortlistsQuery(lead.id));
  const answers = new Map<number, 'interested' | 'notForMe'>();
  for (const s of sent.data?.items ?? []) for (const i of s.items) if (i.answer && !answers.has(i.objectId)) answers.set(i.objectId, i.answer);

  const refresh = (objects: TLeadAnswer['objects'], version: number) => {
    client.setQueryData<TLeadAnswer>(leadKeys.one(lead.id), (old) => (old ? { ...old, objects, version } : old));
    void client.invalidateQueries({ queryKey: leadKeys.one(lead.id) });
  };

  const add = async (value: string) => {
    const hit = items.find((h) => h.description === value);
    if (!hit) return;
    // The box empties for the next one (the Autocomplete writes the picked option into it after this).
    picked.current = value;
    setText('');
    if (lead.objects.some((o) => o.objectId === hit.id)) {
      setError(t('leads.objectAlreadyInList'));
      return;
    }
    try {
      const r = await addLeadObject(lead.id, hit.id);
      setError(null);
      refresh(r.objects, r.version);
    } catch (e) {
      setError(describeError(e).message);
    }
  };

  const remove = (objectId: number, ref: string) =>
    confirmAction(t, { title: t('leads.ui.objects.removeTitle'), text: t('leads.ui.objects.removeConfirm', { ref }), testId: 'confirm-remove-object', onConfirm: async () => {
        try {
          const r = await removeLeadObject(lead.id, objectId);
          setError(null);
          refresh(r.objects, r.version);
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  return (
    <SectionCard title={t('leads.ui.objects.title')} testId="lead-objects">
      <Stack gap="xs">
        {lead.objects.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('leads.ui.objects.none')}
          </Text>
        )}
        {lead.objects.map((o) => (
          <Group key={o.objectId} justify="space-between" wrap="nowrap" data-testid="lead-object">
            <Anchor component={Link} to={href(OBJECT.screens.view, { id: o.objectId })}>
              #{o.objectReferenceNumber}
              {o.title ? ` · ${o.title}` : ''}
            </Anchor>
            {answers.has(o.objectId) && (
              <Badge variant="light" color={ANSWER_COLOR[answers.get(o.objectId)!]} tt="none" data-testid="lead-object-answer">
                {t('shortlist.ui.clientAnswer', { answer: t(`shortlist.page.${answers.get(o.objectId)}`) })}
              </Badge>
            )}
            {editable && (
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={() => remove(o.objectId, o.objectReferenceNumber)}
                aria-label={t('leads.ui.objects.remove', { ref: o.objectReferenceNumber })}
                data-testid="lead-object-remove"
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
        {editable && (
          <Autocomplete
            label={t('leads.ui.objects.add')}
            placeholder={t('leads.ui.objects.addPlaceholder')}
            value={text}
            onChange={(v) => {
              if (v === picked.current) {
                picked.current = null;
                return;
              }
              setText(v);
              setError(null);
            }}
            onOptionSubmit={(v) => void add(v)}
            // The description starts with the reference number ("#0017 · Flat in Kalamaria · owner").
            data={items.map((h) => h.description)}
            filter={({ options }) => options}
            comboboxProps={{ withinPortal: true }}
            data-testid="lead-object-search"
          />
        )}
        {error && (
          <Alert color="red" py="xs" data-testid="lead-objects-error">
            {error}
          </Alert>
        )}
      </Stack>
    </SectionCard>
  );
}
