import { SimpleGrid, Text, type SimpleGridProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import type { TSelectOption } from '@crm/contract';
import type { TFieldDescriptionOf } from '@crm/contract/field-description';
import { boundsOf, FieldInput, type FieldInputProps } from '../components/fields/field-input.tsx';
import { DateField } from '../components/fields/date-field.tsx';
import { ReplacedNote } from '../components/fields/replaced-note.tsx';
import type { Draft } from '../components/fields/field-values.ts';

/** A field laid across the whole row of its group (a long text, a checklist). */
export const ACROSS: CSSProperties = { gridColumn: '1 / -1' };

/** A record form's or view's group of fields: one column on a phone, two on a tablet, three wide. */
export function FieldGrid({ children, ...rest }: { children: ReactNode } & Omit<SimpleGridProps, 'cols'>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs" {...rest}>
      {children}
    </SimpleGrid>
  );
}

/** A value as read on a record: its label small and dimmed above it. */
export function ShownValue({ label, children, testId, style }: { label: string; children: ReactNode; testId?: string; style?: CSSProperties }) {
  return (
    <div style={style}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** What a described form gives each of its fields: the drafts, their change, the errors, and what someone else's save replaced. */
export type DescribedForm = {
  drafts: Record<string, Draft>;
  set: (name: string, v: Draft) => void;
  errors: Record<string, string | undefined>;
  /** Per field, while the other person's value stands in place of this user's: what this user had. */
  yoursReplaced?: (name: string) => Draft | undefined;
};

type Extra = Partial<Omit<FieldInputProps, 'type' | 'label' | 'value' | 'onChange' | 'error' | 'options'>>;

/**
 * One described field's input on a record form: its label, value, error and limits from the
 * description, the note under a value another person's save replaced (with "put mine back"), and a
 * date with the calendar typed as the interface's language writes it.
 */
export function DescribedInput({ d, f, label, options, testId, ...extra }: { d: TFieldDescriptionOf; f: DescribedForm; label: string; options: TSelectOption[]; testId: string } & Extra) {
  const yours = f.yoursReplaced?.(d.name);
  const replaced = yours === undefined ? extra.description : <ReplacedNote type={d.type} yours={yours} onPutBack={() => f.set(d.name, yours)} testId={testId} />;
  const error = f.errors[d.name];
  if (d.type === 'date')
    return <DateField label={label} value={(f.drafts[d.name] as string) || null} onChange={(v) => f.set(d.name, v ?? '')} error={error} description={replaced} required={extra.required} data-testid={testId} />;
  return <FieldInput type={d.type} label={label} value={f.drafts[d.name] ?? null} onChange={(v) => f.set(d.name, v)} error={error} options={options} {...boundsOf(d)} minRows={3} autoFocus={false} testId={testId} {...extra} description={replaced} />;
}
