import { Badge, Card, Grid, Group, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFieldDescription, TObjectGroup } from '@crm/contract/object-fields';
import { formatDate } from '../../../lib/format.ts';
import { IconCheck, IconX } from '../icons.ts';
import { OBJECT_VIEW_CARDS, OBJECT_VIEW_FEATURE_GROUPS, fieldLabel, formatObjectValue, groupTitle, isSet, viewFieldsOf } from '../object-display.ts';
import { headingTitleField, headingTitleLang } from '../object-title.ts';
import { ContactsCard } from './object-contacts.tsx';
import { ObjectKeysCard } from './object-keys-card.tsx';
import { MandatesCard } from './mandates-card.tsx';
import { OwnerReportCard } from './owner-report-card.tsx';
import { DocumentButton } from '../../../components/document-button.tsx';
import { ObjectMapCard } from './object-map-slot.tsx';
import { PhotoCarousel } from './photo-carousel.tsx';
import { F, ObjectField, type Props } from './object-field.tsx';
import { RecordLinks, Service, Texts } from './object-view-cards.tsx';


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
function GroupCard({ groups, title, testId, ...p }: Props & { groups: readonly TObjectGroup[]; title: string; testId: string }) {
  const { t } = useTranslation();
  const fields = viewFieldsOf(groups, p.fields).filter((d) => isSet(d, p.data[d.name]));
  if (!fields.length) return null;
  const facts = fields.filter((d) => d.type !== 'boolNullable' && d.type !== 'boolean');
  const flags = fields.filter((d) => d.type === 'boolean');
  const features = fields.filter((d) => d.type === 'boolNullable');
  return (
    <SectionCard title={title} testId={testId}>
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
    </SectionCard>
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
  const groups = OBJECT_VIEW_FEATURE_GROUPS.map((g) => [g, viewFieldsOf([g], p.fields).filter((d) => isSet(d, p.data[d.name]))] as const)
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
            <MandatesCard data={data} />
            <OwnerReportCard objectId={data.id} />
            <ObjectKeysCard objectId={data.id} />
            <Card withBorder padding="sm" data-testid="object-documents">
              <Group justify="space-between" gap="xs">
                <Title order={3} size="h5">
                  {t('doctemplates.ui.document')}
                </Title>
                <DocumentButton source="handover" id={data.id} label={t('doctemplates.ui.handoverButton')} title={t('doctemplates.ui.kind.handover')} testId="object-handover" />
              </Group>
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <Stack gap="sm">
            <PhotoCarousel photos={data.images ?? []} title={title} />
            <Texts {...p} />
            <ObjectMapCard object={data} />
            <GroupCard {...p} groups={OBJECT_VIEW_CARDS.address} title={groupTitle(t, 'address')} testId="group-address" />
            <GroupCard {...p} groups={OBJECT_VIEW_CARDS.facts} title={groupTitle(t, 'facts')} testId="group-facts" />
            <FeaturesCard {...p} />
            <GroupCard {...p} groups={OBJECT_VIEW_CARDS.offer} title={groupTitle(t, 'offer')} testId="group-offer" />
            <Service {...p} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
