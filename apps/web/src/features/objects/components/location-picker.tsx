import { Select } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { LOCATION_SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { searchLocations } from '../api/locations.ts';
import { usePickSearch } from '../../../components/search-picker.tsx';

/** A chosen place: its id and its path as text ("Kalamaria, Thessaloniki"). */
export type TPickedLocation = { id: number; text: string } | null;

/**
 * Picks a place by typing part of its name in any language (GET /api/location/search, 500 ms
 * after the last keystroke, at most 20 places, each with its path). Emptying the text clears the
 * suggestions; the clear button clears the value.
 */
export function LocationPicker({
  label,
  value,
  onChange,
  testId,
  error,
  required,
  description,
}: {
  label: string;
  value: TPickedLocation;
  onChange: (v: TPickedLocation) => void;
  testId?: string;
  error?: string;
  required?: boolean;
  description?: string;
}) {
  const { t } = useTranslation();
  const pick = usePickSearch({ value, onChange, queryKey: ['locationSearch'], search: searchLocations, debounceMs: LOCATION_SEARCH_DEBOUNCE_MS, staleTime: 60000 });
  return (
    <Select
      label={label}
      description={description}
      error={error}
      required={required}
      {...pick.props}
      nothingFoundMessage={pick.nothingFound ? t('objectsearch.location.noMatches') : undefined}
      placeholder={t('objectsearch.location.placeholder')}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
