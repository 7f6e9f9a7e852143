// The property view's cards of records, texts and service information.
import { SectionCard } from '../../../components/titled-card.tsx';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { modals } from '@mantine/modals';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { hasBranch, useSession } from '../../../lib/session.ts';
import { type TObjectView } from '../api/objects.ts';
import { shownPublished } from '../api/publish-state.ts';
import { IconVideo } from '../icons.ts';
import { IconPlus } from '../../../components/icons.ts';
import { isCancelledStay, newReservationLink } from '../new-reservation.ts';
import { fieldLabel, groupTitle, isSet, viewTextFieldsOf } from '../object-display.ts';
import { headingTitleField, headingTitleLang, readerTitleField, type TObjectTitleField } from '../object-title.ts';
import { PublishStatus } from './publish-status.tsx';
import { PortalStatus } from './portal-status.tsx';
import { StampsGrid } from '../../../components/record-stamps.tsx';
import { MandateInForce } from './mandates-card.tsx';
import { mandatesQuery } from '../api/mandates.ts';
import { DEAL, LEAD, RESERVATION, VIEWING, href } from '@crm/contract/resources';
import { F, ObjectField, type Props } from './object-field.tsx';

/**
 * A viewing of the object in one line, its number first (two on one day differ), the day and time
 * as every other date on the screen, the client, and what the client made of this object there:
 * "#51 · 26/11/2026, 18:30 · Papadopoulou Despoina · Liked it".
 */
const viewingLine = (v: TObjectView['viewings'][number]) => [`#${v.id}`, formatDateTime(v.dateOfViewing), v.client, v.result].filter(Boolean).join(' · ');

/** Leads (interests), viewings, deals and reservations of the object; empty until those exist. */
export function RecordLinks({ data }: { data: TObjectView }) {
  const { t } = useTranslation();
  // Branch users have no short lets (the server lists none for them): no block that would say "none".
  const session = useSession();
  const branch = hasBranch(session);
  const addReservation = newReservationLink(data, session);
  const ref = (r: { id: number; descr: string }) => ({ id: r.id, text: r.descr || `#${r.id}` });
  // A booking's stage beside it, a cancelled one struck through as in the list: two stays on the same
  // nights, one of them cancelled, are no double booking.
  const booking = (r: TObjectView['reservations'][number]) => ({ ...ref(r), stage: r.stage, cancelled: isCancelledStay(r) });
  type Item = { id: number; text: string; comment?: string | null; stage?: string; cancelled?: boolean };
  const lists: { key: 'leads' | 'viewings' | 'deals' | 'reservations'; path: (id: number) => string; items: Item[] }[] = [
    { key: 'leads', path: (id) => href(LEAD.screens.view, { id }), items: (data.leads ?? []).map(ref) },
    { key: 'viewings', path: (id) => href(VIEWING.screens.view, { id }), items: (data.viewings ?? []).map((v) => ({ id: v.id, text: viewingLine(v), comment: v.comment })) },
    { key: 'deals', path: (id) => href(DEAL.screens.view, { id }), items: (data.deals ?? []).map(ref) },
    ...(branch ? [] : [{ key: 'reservations' as const, path: (id: number) => href(RESERVATION.screens.view, { id }), items: (data.reservations ?? []).map(booking) }]),
  ];
  return (
    <Card withBorder padding="sm" data-testid="object-records">
      {/* Two lists a row where each has room (a line such as "#38 · 07/12/2026, 16:30 · client · result"
          needs some 220 px), else one: on a phone, and in the desktop's narrow column, two made every
          viewing take four lines. */}
      <SimpleGrid minColWidth={220} autoFlow="auto-fit" spacing="sm" verticalSpacing="sm">
        {lists.map(({ key, path, items }) => (
          <Stack key={key} gap={2} data-testid={`records-${key}`}>
            <Group gap={6}>
              <Text size="sm" fw={600}>
                {t(`objects.records.${key}`)}
              </Text>
              <Badge size="sm" variant="light" color={items.length ? 'blue' : 'gray'}>
                {items.length}
              </Badge>
              {key === 'reservations' && addReservation && (
                <Button component={Link} to={addReservation} size="compact-xs" variant="light" leftSection={<IconPlus size={12} />} ml="auto" data-testid="records-reservations-add">
                  {t('reservations.ui.new')}
                </Button>
              )}
            </Group>
            {items.length === 0 ? (
              <Text size="xs" c="dimmed">
                {t('objects.records.none')}
              </Text>
            ) : (
              items.map((i) => (
                <Fragment key={i.id}>
                  <Anchor
                    component={Link}
                    to={path(i.id)}
                    size="sm"
                    mih={24}
                    c={i.cancelled ? 'gray.7' : undefined}
                    td={i.cancelled ? 'line-through' : undefined}
                    style={{ display: 'inline-flex', alignItems: 'center' }}
                    data-testid={`records-${key}-item`}
                    data-cancelled={i.cancelled ? 'true' : undefined}
                  >
                    {i.text}
                  </Anchor>
                  {i.stage && (
                    <Text size="xs" c={i.cancelled ? 'gray.7' : 'dimmed'} mt={-4} data-testid={`records-${key}-stage`}>
                      {i.stage}
                    </Text>
                  )}
                  {/* What the client said of this property at that viewing. */}
                  {i.comment && (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={`records-${key}-comment`}>
                      “{i.comment}”
                    </Text>
                  )}
                </Fragment>
              ))
            )}
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/** The other languages' texts: each title field with its description. */
const OTHER_TEXTS = [
  ['titleEn', 'descriptionEn'],
  ['titleRu', 'descriptionRu'],
] as const;

/** Description (and its English and Russian versions when there are any), the titles not heading the page, the video link, and any other text set. */
export function Texts(p: Props) {
  const { t, i18n } = useTranslation();
  const { data } = p;
  // The summary card heads with one title (the reader's own, else the next set one): the others are here.
  const heading = headingTitleField(data, i18n.language);
  // The card heads with another language's title because the reader's own is empty: that one is here, to be filled in.
  const own = readerTitleField(i18n.language);
  const ownMissing = heading !== own;
  const shows = (f: TObjectTitleField) => f !== heading && (data[f] != null || (ownMissing && f === own));
  // A text in a language not the reader's is marked with it (screen readers, the language checks).
  const lang = (f: TObjectTitleField) => headingTitleLang(f, i18n.language);
  const video = typeof data.videoURL === 'string' && /^https?:\/\//i.test(data.videoURL) ? data.videoURL : null;
  return (
    <Card withBorder padding="sm" data-testid="object-texts">
      <Stack gap="sm">
        {shows('title') ? <ObjectField {...p} d={F('title')} /> : null}
        <ObjectField {...p} d={F('description')} />
        {OTHER_TEXTS.filter(([title, description]) => data[title] != null || data[description] != null).map(([title, description]) => (
          <Fragment key={title}>
            {shows(title) ? <ObjectField {...p} d={F(title)} lang={lang(title)} /> : null}
            {data[description] != null ? <ObjectField {...p} d={F(description)} lang={lang(title)} /> : null}
          </Fragment>
        ))}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <IconVideo size={18} color="var(--mantine-color-gray-6)" aria-hidden />
          <ObjectField {...p} d={F('videoURL')} />
          {video && (
            <Anchor href={video} target="_blank" rel="noopener noreferrer" size="sm" data-testid="video-link">
              {t('objects.view.watchVideo')}
            </Anchor>
          )}
        </Group>
        {viewTextFieldsOf(p.fields)
          .filter((d) => isSet(d, data[d.name]))
          .map((d) => (
            <ObjectField key={d.name} {...p} d={d} />
          ))}
      </Stack>
    </Card>
  );
}

/** Publishing state, the system's flags and the stamps. */
export function Service({ data, onSaved }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const marks = (['published', 'rented', 'sold', 'hasKey'] as const).filter((k) => (k === 'published' ? shownPublished(data) : data[k] === true));
  const mandates = useQuery(mandatesQuery(data.id));
  // Publishing without a mandate in force is asked about first (the law wants the owner's written mandate, decision 079).
  const confirmPublish = (next: unknown) =>
    next !== true || mandates.data?.inForce
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) =>
          modals.openConfirmModal({
            title: t('mandates.publishConfirm.title'),
            children: <Text size="sm">{t('mandates.publishConfirm.body')}</Text>,
            labels: { confirm: t('mandates.publishConfirm.confirm'), cancel: t('common.cancel') },
            confirmProps: { 'data-testid': 'publish-without-mandate' } as Record<string, unknown>,
            onConfirm: () => resolve(true),
            onCancel: () => resolve(false),
            onClose: () => resolve(false),
          }),
        );
  return (
    <SectionCard title={groupTitle(t, 'service')} testId="service-info">
      <Stack gap="xs">
        <Group gap="lg" align="flex-end" wrap="wrap" data-testid="publish-and-mandate">
          <ObjectField d={F('publishRequested')} data={data} onSaved={onSaved} confirmChange={confirmPublish} />
          <MandateInForce objectId={data.id} />
        </Group>
        <PublishStatus
          id={data.id}
          referenceNumber={data.referenceNumber}
          publishRequested={data.publishRequested === true}
          published={data.published}
          publishError={data.publishError}
          onSettled={() => void client.invalidateQueries({ queryKey: ['object', 'view'] })}
        />
        {!data.publishRequested && !data.published && (
          <Text size="sm" c="dimmed">
            {t('objects.publish.notRequested')}
          </Text>
        )}
        {marks.length > 0 && (
          <Group gap={6}>
            {marks.map((k) => (
              <Badge key={k} variant="light" color={k === 'published' ? 'green' : 'gray'} tt="none" data-testid={`mark-${k}`}>
                {fieldLabel(t, k)}
              </Badge>
            ))}
          </Group>
        )}
        <PortalStatus objectId={data.id} onSite={data.published === true && data.publishRequested === true} lastUpdate={data.modifiedOn} />
        <StampsGrid record={data} labels={{ modifiedOn: t('objects.col.modifiedOn'), createdOn: t('objects.col.createdOn') }} />
      </Stack>
    </SectionCard>
  );
}

