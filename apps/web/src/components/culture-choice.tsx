import type { ReactNode } from 'react';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { CULTURES, type TCulture } from '@crm/contract/constants';

const NAME_KEY: Record<TCulture, string> = { el: 'lang.el', en: 'lang.en-UK', ru: 'lang.ru' };

/**
 * A labelled choice of a few values as one segmented control, its label above it and named as the
 * control's label (the mandate's kind, a document's language).
 */
export function LabelledChoice<V extends string>({
  id,
  label,
  value,
  onChange,
  data,
  testId,
  alignStart,
  children,
}: {
  id: string;
  label: ReactNode;
  value: V;
  onChange: (value: V) => void;
  data: { value: V; label: ReactNode }[];
  testId?: string;
  /** The control as wide as its choices, not the whole column. */
  alignStart?: boolean;
  /** What is said under the control (a hint on the value chosen). */
  children?: ReactNode;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={id} value={value} onChange={(v) => onChange(v as V)} data={data} style={alignStart ? { alignSelf: 'flex-start' } : undefined} data-testid={testId} />
      {children}
    </Stack>
  );
}

/** The language a document, a mail or a sheet is made in: each language by its own name, marked as such for screen readers. */
export function CultureChoice(props: { id: string; label: ReactNode; value: TCulture; onChange: (value: TCulture) => void; testId?: string }) {
  const { t } = useTranslation();
  return <LabelledChoice {...props} data={CULTURES.map((c) => ({ value: c, label: <span lang={c}>{t(NAME_KEY[c])}</span> }))} />;
}
