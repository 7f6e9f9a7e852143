import { ActionIcon, Button, Group, Input, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { SectionCard } from '../../../components/titled-card.tsx';
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { FieldGrid } from '../../../kit/field-group.tsx';
import type { TAccountFields } from '@crm/contract';
import { IconMinus, IconPlus } from '../../../components/icons.ts';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { ReplacedNote } from '../../../components/fields/replaced-note.tsx';
import { CountryField } from './country-field.tsx';

/** The form keeps e-mails and phones as lists; the API joins them with ';'. */
export type TAccountForm = Omit<TAccountFields, 'email' | 'phone'> & { emails: string[]; phones: string[] };

/** The account's form as its sections edit it: the values, their errors, and what the other person's save replaced. */
export type AccountFormApi = {
  form: TAccountForm;
  set: <K extends keyof TAccountForm>(key: K, value: TAccountForm[K]) => void;
  setForm: Dispatch<SetStateAction<TAccountForm>>;
  errors: Record<string, string>;
  yoursReplaced: (name: string) => unknown;
};

const orNull = (s: string) => (s.trim() === '' ? null : s);
export const selectOptions = (list: { text: string; value: string | number }[]) => list.map((o) => ({ value: String(o.value), label: o.text }));

/** While a field shows the other person's value that replaced this user's: a note with what this user typed. */
function replaced(f: AccountFormApi, key: keyof TAccountForm, type: 'text' | 'currency') {
  const yours = f.yoursReplaced(key);
  if (typeof yours !== 'string' && typeof yours !== 'number' && yours !== null) return undefined;
  return <ReplacedNote type={type} yours={yours} onPutBack={() => f.set(key, yours as never)} testId={`field-${key}`} />;
}

export function AccountText({ f, k, label, required }: { f: AccountFormApi; k: keyof TAccountForm; label: string; required?: boolean }) {
  return (
    <TextInput
      label={label}
      value={(f.form[k] as string | null) ?? ''}
      onChange={(e) => f.set(k, orNull(e.currentTarget.value) as never)}
      error={f.errors[k]}
      description={replaced(f, k, 'text')}
      data-testid={`field-${k}`}
      required={required}
    />
  );
}

/** A country, or a nationality: free text, the countries' names or the nationalities offered as one types. */
export function AccountCountry({ f, k, label }: { f: AccountFormApi; k: 'country' | 'nationality'; label: string }) {
  return <CountryField label={label} kind={k} value={f.form[k]} onChange={(v) => f.set(k, v)} error={f.errors[k]} description={replaced(f, k, 'text')} testId={`field-${k}`} maxLength={100} />;
}

export function AccountTriState({ f, k, label }: { f: AccountFormApi; k: 'isCompany' | 'isIndividual'; label: string }) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={label} error={f.errors[k]}>
      <div>
        <SegmentedControl
          size="xs"
          value={f.form[k] === null ? 'null' : String(f.form[k])}
          onChange={(v) => f.set(k, v === 'null' ? null : v === 'true')}
          data={[
            { value: 'null', label: t('accounts.ui.tri.unset') },
            { value: 'true', label: t('common.yes') },
            { value: 'false', label: t('common.no') },
          ]}
          data-testid={`field-${k}`}
        />
      </div>
    </Input.Wrapper>
  );
}

export function AccountMoney({ f, k, label }: { f: AccountFormApi; k: 'purchaseBudgetRangeMin' | 'purchaseBudgetRangeMax'; label: string }) {
  return (
    <DecimalField
      label={label}
      value={f.form[k] ?? ''}
      onChange={(v) => f.set(k, v === '' ? null : v)}
      scale={2}
      padDecimals
      unit="€"
      error={f.errors[k]}
      description={replaced(f, k, 'currency')}
      data-testid={`field-${k}`}
    />
  );
}

/** A choice from one of the account's lists (its source, its service), cleared back to none. */
export function AccountSelect({ f, k, label, options, searchable }: { f: AccountFormApi; k: 'sourceId' | 'service'; label: string; options: { text: string; value: string | number }[]; searchable?: boolean }) {
  return (
    <Select
      label={label}
      data={selectOptions(options)}
      value={f.form[k] == null ? null : String(f.form[k])}
      onChange={(v) => f.set(k, v == null ? null : Number(v))}
      clearable
      searchable={searchable}
      error={f.errors[k]}
      data-testid={`field-${k}`}
    />
  );
}

export function EditSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <SectionCard title={title} testId={testId}>
      <FieldGrid>{children}</FieldGrid>
    </SectionCard>
  );
}

/** Up to `max` e-mails or phones, one input each, with add and remove. Free text, no format check. */
export function ListInputs({
  label,
  values,
  max,
  name,
  type,
  error,
  disabled = false,
  hint,
  onChange,
  below,
}: {
  label: string;
  values: string[];
  max: number;
  name: 'email' | 'phone';
  type: 'email' | 'tel';
  error?: string;
  disabled?: boolean;
  hint?: string;
  onChange: (v: string[]) => void;
  /** Said under an entry (another account with the same phone or e-mail). */
  below?: (value: string, index: number) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={label} error={error} description={hint}>
      <Stack gap={6} mt={4}>
        {values.map((v, i) => (
          <Stack key={i} gap={2}>
            <Group gap={6} wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                type={type === 'email' ? 'text' : 'tel'}
                inputMode={type}
                value={v}
                disabled={disabled}
                onChange={(e) => onChange(values.map((x, j) => (j === i ? e.currentTarget.value : x)))}
                aria-label={`${label} ${i + 1}`}
                data-testid={`field-${name}-${i}`}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                disabled={disabled}
                onClick={() => onChange(values.length > 1 ? values.filter((_, j) => j !== i) : [''])}
                aria-label={t('accounts.ui.edit.remove')}
                data-testid={`remove-${name}-${i}`}
              >
                <IconMinus size={16} />
              </ActionIcon>
            </Group>
            {below?.(v, i)}
          </Stack>
        ))}
        {values.length < max && !disabled && (
          <Group>
            <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => onChange([...values, ''])} data-testid={`add-${name}`}>
              {t(name === 'email' ? 'accounts.ui.edit.addEmail' : 'accounts.ui.edit.addPhone')}
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
