import { Anchor, Badge, Button, Card, Grid, Group, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TFieldDescription, TObjectGroup } from '@crm/contract/object-fields';
import { OBJECT_FEATURE_GROUPS } from '@crm/contract/object-fields';
import { EditableField } from '../../../components/field-editor.tsx';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { hasBranch, useSession } from '../../../lib/session.ts';
import { type TObjectView } from '../api/objects.ts';
import { loadLocationOptions } from '../api/locations.ts';
import { shownPublished } from '../api/publish-state.ts';
import { IconCheck, IconVideo, IconX } from '../icons.ts';
import { IconPlus } from '../../../components/icons.ts';
import { isCancelledStay, newReservationLink } from '../new-reservation.ts';
import { describe, fieldLabel, fieldsOf, formatObjectValue, groupTitle, isSet, optionsFor } from '../object-display.ts';
import { headingTitleField, headingTitleLang, readerTitleField } from '../object-title.ts';
import { ContactsCard } from './object-contacts.tsx';
import { ObjectKeysCard } from './object-keys-card.tsx';
import { ObjectMapCard } from './object-map-slot.tsx';
import { PhotoCarousel } from './photo-carousel.tsx';
import { PublishStatus } from './publish-status.tsx';
import { DEAL, LEAD, RESERVATION, VIEWING, href } from '@crm/contract/resources';

type Props = { data: TObjectView; onSaved: (dto: Record<string, unknown>) => void };

/** Fields the summary card shows in its own layout; every other field is shown by its group. */
const SUMMARY = new Set([
  'title', 'subTypeObjectTypeId', 'objectSubTypeId', 'forSale', 'forRent', 'forShortRent', 'active',
  'bedrooms', 'bathrooms', 'area', 'locationId',
  'salePrice', 'salePriceWithDiscount', 'dateOfSalePriceDiscount', 'rentPrice', 'rentPriceWithDiscount', 'dateOfRentPriceDiscount', 'shortRentPrice',
]);
/** Shown in their own cards (texts), by the map, or in the service information. */
const OWN_CARD = new Set(['description', 'titleRu', 'descriptionRu', 'videoURL', 'internalNotes', 'publishRequested']);

/** A described field with its label and formatted value; a click opens the single-field editor. */
function ObjectField({ d, data, onSaved, display, hideLabel }: Props & { d: TFieldDescription; display?: ReactNode; hideLabel?: boolean }) {
  const { t } = useTranslation();
  const value = data[d.name];
  const options = d.list ? optionsFor(d, data.objectSelectLists, d.list === 'objectSubTypes' ? data.subTypeObjectTypeId : undefined) : undefined;
  return (
    <EditableField
      entity="object"
      id={data.id}
      version={data.version}
      field={d.name}
      type={d.type}
      label={fieldLabel(t, d.name)}
      value={value}
      options={options}
      valueText={d.type === 'location' ? data.location || undefined : d.name === 'objectSubTypeId' ? data.type || undefined : undefined}
      loadOptions={d.type === 'location' ? loadLocationOptions : undefined}
      maxLength={d.max}
      min={d.min}
      max={d.max}
      step={d.step}
      integer={d.integer}
      editable={!d.readOnly}
      display={display ?? (isSet(d, value) && d.type === 'number' ? <Text size="sm">{formatObjectValue(t, d, value, data.objectSelectLists)}</Text> : undefined)}
      hideLabel={hideLabel}
      onSaved={onSaved}
    />
  );
}

const F = (name: string) => describe(name)!;

/** The prices line: sale, rent and short rent, each with its discounted price and the discount's date. */
function Prices(p: Props) {
  const { t } = useTranslation();
  const { data } = p;
  const rows: { flag: string; price: string; discount?: string; date?: string }[] = [
    { flag: 'forSale', price: 'salePrice', discount: 'salePriceWithDiscount', date: 'dateOfSalePriceDiscount' },
    { flag: 'forRent', price: 'rentPrice', discount: 'rentPriceWithDiscount', date: 'dateOfRentPriceDiscount' },
    { flag: 'forShortRent', price: 'shortRentPrice' },
  ];
  const shown = rows.filter((r) => data[r.flag] === true || data[r.price] != null);
  if (!shown.length)
    return (
      <Text size="sm" c="dimmed" data-testid="prices-none">
        {t('objects.view.noPrice')}
      </Text>
    );
  return (
    <Group gap="xl" align="flex-start" data-testid="prices">
      {shown.map((r) => {
        const discounted = r.discount && data[r.discount] != null;
        const price = formatObjectValue(t, F(r.price), data[r.price]);
        return (
          <Group key={r.price} gap="md" align="flex-start" wrap="wrap" data-testid={`price-${r.price}`}>
            <ObjectField
              {...p}
              d={F(r.price)}
              display={
                price ? (
                  <Text fw={700} size={discounted ? 'md' : 'xl'} td={discounted ? 'line-through' : undefined} c={discounted ? 'dimmed' : undefined}>
                    {price}
                  </Text>
                ) : undefined
              }
            />
            {discounted && (
              <ObjectField
                {...p}
                d={F(r.discount!)}
                display={
                  <Stack gap={0}>
                    <Text fw={700} size="xl" c="red.8">
                      {formatObjectValue(t, F(r.discount!), data[r.discount!])}
                    </Text>
                    {r.date && data[r.date] ? (
                      <Text size="xs" c="dimmed">
                        {t('objects.view.discountSince', { date: formatDate(String(data[r.date])) })}
                      </Text>
                    ) : null}
                  </Stack>
                }
              />
            )}
          </Group>
        );
      })}
    </Group>
  );
}

/** Prices, type, bedrooms, bathrooms, area and location: what an agent reads first. */
function Summary(p: Props) {
  const { t, i18n } = useTranslation();
  const { data } = p;
  // The reader's title heads the card (and is what a click edits), else the other one (marked as
  // Russian for screen readers on another screen); the one not heading is then in the texts card.
  const heading = headingTitleField(data, i18n.language);
  // A closed sale (or a let running) ends that offer: the card says so instead of offering it still.
  const closed = { forSale: data.sold === true, forRent: data.rented === true, forShortRent: false };
  const offers = (['forSale', 'forRent', 'forShortRent'] as const).filter((k) => data[k] && !closed[k]);
  return (
    <Card withBorder padding="md" data-testid="object-summary">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          {/* The title keeps room for a few words; on a phone the offer badges go below it rather than over it. */}
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <ObjectField
              {...p}
              d={F(heading)}
              hideLabel
              display={data[heading] ? <Title order={3} size="h4" lang={headingTitleLang(heading, i18n.language)} style={{ overflowWrap: 'anywhere' }} data-testid="object-title">{String(data[heading])}</Title> : undefined}
            />
          </Stack>
          <Group gap={6}>
            {offers.map((k) => (
              <Badge key={k} variant="light" color={k === 'forSale' ? 'blue' : k === 'forRent' ? 'teal' : 'grape'} tt="none" data-testid={`offer-${k}`}>
                {fieldLabel(t, k)}
              </Badge>
            ))}
            {(['sold', 'rented'] as const)
              .filter((k) => data[k] === true)
              .map((k) => (
                <Badge key={k} color="dark" tt="none" data-testid={`closed-${k}`}>
                  {fieldLabel(t, k)}
                </Badge>
              ))}
            {data.active === false && (
              <Badge variant="outline" color="gray" tt="none" data-testid="inactive">
                {t('objects.view.inactive')}
              </Badge>
            )}
            {data.reserved === true && (
              <Badge color="orange" tt="none">
                {fieldLabel(t, 'reserved')}
              </Badge>
            )}
          </Group>
        </Group>
        <Prices {...p} />
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" verticalSpacing="xs" data-testid="summary-facts">
          <ObjectField {...p} d={F('objectSubTypeId')} display={data.type ? <Text size="sm" fw={600}>{data.type}</Text> : undefined} />
          <ObjectField {...p} d={F('bedrooms')} />
          <ObjectField {...p} d={F('bathrooms')} />
          <ObjectField {...p} d={F('area')} />
          <ObjectField {...p} d={F('locationId')} />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

/** A group's set values (never the empty ones), each editable on click; yes/no features as marks. */
function GroupCard({ groups, title, testId, extra, ...p }: Props & { groups: TObjectGroup[]; title: string; testId: string; extra?: string[] }) {
  const { t } = useTranslation();
  const fields = [...groups.flatMap((g) => fieldsOf(g)), ...(extra ?? []).map(F)].filter((d) => !SUMMARY.has(d.name) && !OWN_CARD.has(d.name) && isSet(d, p.data[d.name]));
  if (!fields.length) return null;
  const facts = fields.filter((d) => d.type !== 'boolNullable' && d.type !== 'boolean');
  const flags = fields.filter((d) => d.type === 'boolean');
  const features = fields.filter((d) => d.type === 'boolNullable');
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap="sm">
        {facts.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="xs">
            {facts.map((d) => (
              <ObjectField key={d.name} {...p} d={d} />
            ))}
          </SimpleGrid>
        )}
        {flags.length > 0 && (
          <Group gap={6}>
            {flags.map((d) => (
              <Badge key={d.name} variant="light" color="blue" tt="none" data-testid={`flag-${d.name}`}>
                {fieldLabel(t, d.name)}
              </Badge>
            ))}
          </Group>
        )}
        {features.length > 0 && <Features {...p} fields={features} />}
      </Stack>
    </Card>
  );
}

function Features({ fields, ...p }: Props & { fields: TFieldDescription[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing={4} verticalSpacing={4}>
      {fields.map((d) => {
        const yes = p.data[d.name] === true;
        return (
          <ObjectField
            key={d.name}
            {...p}
            d={d}
            hideLabel
            display={
              <Group gap={6} wrap="nowrap" component="span" data-testid={`feature-${d.name}`} data-value={yes ? 'yes' : 'no'}>
                {yes ? <IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden /> : <IconX size={16} color="var(--mantine-color-gray-6)" aria-hidden />}
                <Text size="sm" component="span" c={yes ? undefined : 'dimmed'} td={yes ? undefined : 'line-through'}>
                  {fieldLabel(t, d.name)}
                  <VisuallyHidden component="span">: {yes ? t('common.yes') : t('common.no')}</VisuallyHidden>
                </Text>
              </Group>
            }
          />
        );
      })}
    </SimpleGrid>
  );
}

/** The yes/no features that are set, in one card, by group (building, comfort, outdoor). */
function FeaturesCard(p: Props) {
  const { t } = useTranslation();
  const groups = (Object.keys(OBJECT_FEATURE_GROUPS) as TObjectGroup[])
    .filter((g) => g !== 'offer')
    .map((g) => [g, fieldsOf(g).filter((d) => isSet(d, p.data[d.name]))] as const)
    .filter(([, fields]) => fields.length > 0);
  if (!groups.length) return null;
  return (
    <Card withBorder padding="sm" data-testid="group-features">
      <Stack gap="sm">
        {groups.map(([g, fields]) => (
          <Stack key={g} gap={4} data-testid={`group-${g}`}>
            <Title order={3} size="h5">
              {groupTitle(t, g)}
            </Title>
            <Features {...p} fields={fields} />
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * A viewing of the object in one line, its number first (two on one day differ), the day and time
 * as every other date on the screen, the client, and what the client made of this object there:
 * "#51 · 26/11/2026, 18:30 · Papadopoulou Despoina · Liked it".
 */
const viewingLine = (v: TObjectView['viewings'][number]) => [`#${v.id}`, formatDateTime(v.dateOfViewing), v.client, v.result].filter(Boolean).join(' · ');

/** Leads (interests), viewings, deals and reservations of the object; empty until those exist. */
function RecordLinks({ data }: { data: TObjectView }) {
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

/** Description (and its Russian version when there is one) and the video link. */
function Texts(p: Props) {
  const { t, i18n } = useTranslation();
  const { data } = p;
  // The title the summary card does not head with: the Russian one, or on a Russian screen that heads with it, the main one.
  const heading = headingTitleField(data, i18n.language);
  const other = heading === 'titleRu' ? 'title' : 'titleRu';
  // The card heads with the other language's title because the reader's own is empty: that one is here, to be filled in.
  const ownMissing = heading !== readerTitleField(i18n.language);
  const video = typeof data.videoURL === 'string' && /^https?:\/\//i.test(data.videoURL) ? data.videoURL : null;
  return (
    <Card withBorder padding="sm" data-testid="object-texts">
      <Stack gap="sm">
        <ObjectField {...p} d={F('description')} />
        {(data.titleRu != null || data.descriptionRu != null) && (
          <>
            {data[other] != null || ownMissing ? <ObjectField {...p} d={F(other)} /> : null}
            {data.descriptionRu != null ? <ObjectField {...p} d={F('descriptionRu')} /> : null}
          </>
        )}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <IconVideo size={18} color="var(--mantine-color-gray-6)" aria-hidden />
          <ObjectField {...p} d={F('videoURL')} />
          {video && (
            <Anchor href={video} target="_blank" rel="noopener noreferrer" size="sm" data-testid="video-link">
              {t('objects.view.watchVideo')}
            </Anchor>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/** Publishing state, the system's flags and the stamps. */
function Service({ data, onSaved }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const marks = (['published', 'rented', 'sold', 'hasKey'] as const).filter((k) => (k === 'published' ? shownPublished(data) : data[k] === true));
  return (
    <Card withBorder padding="sm" data-testid="service-info">
      <Title order={3} size="h5" mb="xs">
        {groupTitle(t, 'service')}
      </Title>
      <Stack gap="xs">
        <ObjectField d={F('publishRequested')} data={data} onSaved={onSaved} />
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
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <div>
            <Text size="xs" c="dimmed">
              {t('objects.col.modifiedOn')}
            </Text>
            <Text size="sm" data-testid="modified-stamp">
              {formatDateTime(data.modifiedOn)} · {data.modifiedBy ?? '—'}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('objects.col.createdOn')}
            </Text>
            <Text size="sm" data-testid="created-stamp">
              {formatDateTime(data.createdOn)} · {data.createdBy ?? '—'}
            </Text>
          </div>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

/**
 * The object's view (mode 0), in the spec's order: summary; internal notes, contacts, past tenants
 * by year, leads/viewings/deals/reservations; photos, description, video, map, address, facts,
 * features, offer details, service information. On a wide screen the people and records go in a
 * side column; on a phone everything is one column in that order.
 */
export function ObjectView(p: Props) {
  const { t, i18n } = useTranslation();
  const { data } = p;
  const shown = data[headingTitleField(data, i18n.language)];
  const title = shown ? String(shown) : data.type || `#${data.referenceNumber}`;
  return (
    <Stack gap="sm" data-testid="object-view">
      <Summary {...p} />
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
          <Stack gap="sm">
            <Card withBorder padding="sm" data-testid="internal-notes" bg="yellow.0">
              <Title order={3} size="h5" mb={4}>
                {fieldLabel(t, 'internalNotes')}
              </Title>
              <ObjectField {...p} d={F('internalNotes')} hideLabel />
            </Card>
            <ContactsCard links={data.contacts ?? []} relations={data.objectAccountRelationSelectList ?? []} />
            <RecordLinks data={data} />
            <ObjectKeysCard objectId={data.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <Stack gap="sm">
            <PhotoCarousel photos={data.images ?? []} title={title} />
            <Texts {...p} />
            <ObjectMapCard object={data} />
            <GroupCard {...p} groups={['location', 'address']} title={groupTitle(t, 'address')} testId="group-address" />
            <GroupCard {...p} groups={['main', 'facts']} title={groupTitle(t, 'facts')} testId="group-facts" />
            <FeaturesCard {...p} />
            <GroupCard {...p} groups={['offer', 'prices']} title={groupTitle(t, 'offer')} testId="group-offer" />
            <Service {...p} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
