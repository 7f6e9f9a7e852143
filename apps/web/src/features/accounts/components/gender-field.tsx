import { Input, SegmentedControl } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccountFields } from '@crm/contract';

type TGender = TAccountFields['gender'];

/**
 * A person's gender as the account states it: not stated, male or female. Letters greet by it
 * (a Greek one "Αγαπητή Mary") before they guess from the name.
 */
export function GenderField({ value, onChange, error }: { value: TGender; onChange: (v: TGender) => void; error?: string }) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('accounts.ui.field.gender')} error={error} mt="sm">
      <div>
        <SegmentedControl
          size="xs"
          value={value ?? 'unset'}
          onChange={(v) => onChange(v === 'male' || v === 'female' ? v : null)}
          data={(['unset', 'male', 'female'] as const).map((g) => ({ value: g, label: t(`accounts.ui.gender.${g}`) }))}
          data-testid="field-gender"
        />
      </div>
    </Input.Wrapper>
  );
}
