import { Autocomplete } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { cultureOf } from '@crm/contract/constants';
import { countryFilter, countryNames } from '../../../lib/countries.ts';
import { nationalityNames } from '../../../lib/nationalities.ts';

/** At most this many names are offered at once (typing narrows them). */
const SHOWN = 50;

/**
 * A country or a nationality as free text, offered as one types in the reader's language: the
 * countries' names (lib/countries.ts), or the nationalities («Ρωσική», "British"; lib/nationalities.ts).
 * The office writes one country one way, and what is typed that is in no list (an older value,
 * "Κρήτη") stays as typed. The list is made when the field is first focused, not while the form renders.
 */
export function CountryField(p: {
  label: string;
  kind: 'country' | 'nationality';
  value: string | null;
  onChange: (v: string | null) => void;
  error?: ReactNode;
  description?: ReactNode;
  testId: string;
  maxLength?: number;
}) {
  const { i18n } = useTranslation();
  const culture = cultureOf(i18n.language);
  const [wanted, setWanted] = useState(false);
  const data = useMemo(() => (wanted ? (p.kind === 'nationality' ? nationalityNames(culture) : countryNames(culture)) : []), [wanted, culture, p.kind]);
  return (
    <Autocomplete
      label={p.label}
      value={p.value ?? ''}
      onChange={(v) => p.onChange(v.trim() ? v : null)}
      onFocus={() => setWanted(true)}
      data={data}
      filter={countryFilter}
      limit={SHOWN}
      maxLength={p.maxLength}
      error={p.error}
      description={p.description}
      autoComplete="off"
      data-testid={p.testId}
    />
  );
}
