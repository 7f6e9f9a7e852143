import { Button, Checkbox, Grid, Group, Select } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { IconSearch } from '../../../components/icons.ts';
import type { TObjectSearchFilter } from '../api/object-search.ts';
import { LocationPicker } from './location-picker.tsx';

const SERVICES = ['forSale', 'forRent', 'forShortRent'] as const;
/** The bedrooms filter's choices: at least 1 to 5. */
const BEDROOMS = [1, 2, 3, 4, 5] as const;

/** The search form: services, place, creator, price and area ranges (a range upside down says so), bedrooms. */
export function ObjectSearchForm({ draft, set, onSubmit, priceOrder, areaOrder }: { draft: TObjectSearchFilter; set: (patch: Partial<TObjectSearchFilter>) => void; onSubmit: (e: FormEvent) => void; priceOrder: boolean; areaOrder: boolean }) {
  const { t } = useTranslation();
  const money = { scale: 0, unit: '€' } as const;
  const area = { scale: 0, unit: t('common.areaUnit') };
  const num = (v: number | '') => (v === '' ? null : v);

  return (
    <form onSubmit={onSubmit} aria-label={t('objectsearch.form.title')} data-testid="object-search-form">
      <Grid gap="sm" align="flex-start">
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <Checkbox.Group
            label={t('objectsearch.form.services')}
            value={SERVICES.filter((k) => draft[k])}
            onChange={(v) => set({ forSale: v.includes('forSale'), forRent: v.includes('forRent'), forShortRent: v.includes('forShortRent') })}
          >
            <Group gap="md" mt={8}>
              {SERVICES.map((k) => (
                <Checkbox key={k} value={k} label={t(`objectsearch.form.${k}`)} data-testid={`object-search-${k}`} />
              ))}
            </Group>
          </Checkbox.Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <LocationPicker
            label={t('objectsearch.form.location')}
            value={draft.locationId != null ? { id: draft.locationId, text: draft.locationText } : null}
            onChange={(v) => set({ locationId: v?.id ?? null, locationText: v?.text ?? '' })}
            testId="object-search-location"
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <AccountPicker
            key={draft.createdBy ?? 'none'}
            label={t('objectsearch.form.createdBy')}
            filter={1}
            value={draft.createdBy != null ? { id: draft.createdBy, text: draft.createdByText } : null}
            onChange={(v) => set({ createdBy: v?.id ?? null, createdByText: v?.text ?? '' })}
            testId="object-search-createdby"
          />
        </Grid.Col>
        {(
          [
            ['priceMin', 'priceMax', money, priceOrder],
            ['areaMin', 'areaMax', area, areaOrder],
          ] as const
        ).flatMap(([min, max, unit, reversed]) =>
          [min, max].map((k) => (
            <Grid.Col key={k} span={{ base: 6, md: 3, lg: 2 }}>
              <DecimalField label={t(`objectsearch.form.${k}`)} value={draft[k] ?? ''} onChange={(v) => set({ [k]: num(v) })} error={k === max && reversed ? t('objectsearch.form.rangeOrder') : undefined} {...unit} data-testid={`object-search-${k}`} />
            </Grid.Col>
          )),
        )}
        <Grid.Col span={{ base: 6, md: 3, lg: 2 }}>
          <Select
            label={t('objectsearch.form.bedrooms')}
            data={[{ value: '', label: t('objectsearch.form.bedroomsAny') }, ...BEDROOMS.map((n) => ({ value: String(n), label: `${n}+` }))]}
            value={draft.bedroomsMin == null ? '' : String(draft.bedroomsMin)}
            onChange={(v) => set({ bedroomsMin: v ? Number(v) : null })}
            allowDeselect={false}
            data-testid="object-search-bedrooms"
          />
        </Grid.Col>
      </Grid>
      <Group justify="flex-end" mt="md" gap="sm">
        <Button type="submit" leftSection={<IconSearch size={16} />} disabled={priceOrder || areaOrder} data-testid="object-search-submit">
          {t('objectsearch.form.search')}
        </Button>
      </Group>
    </form>
  );
}
