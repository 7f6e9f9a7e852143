// A property's described field as its view shows it, a click away from its editor.
import { boundsOf } from '../../../components/fields/field-input.tsx';
import { Text } from '@mantine/core';
import { type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFieldDescription } from '@crm/contract/object-fields';
import { EditableField } from '../../../components/field-editor.tsx';
import { type TObjectView } from '../api/objects.ts';
import { loadLocationOptions } from '../api/locations.ts';
import { describe, fieldLabel, formatObjectValue, isSet, optionsFor } from '../object-display.ts';

/** What the view's parts are given: the property as viewed, and what to do with a field saved. */
/** `fields`: the description the view is drawn from (the real one unless given: a test's with a field more). */
export type Props = { data: TObjectView; onSaved: (dto: Record<string, unknown>) => void; fields?: readonly TFieldDescription[] };

/**
 * A described field with its label and formatted value; a click opens the single-field editor.
 * `lang`: the language of a text written in one that is not the reader's (an English title on a Greek screen).
 */
export function ObjectField({ d, data, onSaved, display, hideLabel, lang, confirmChange }: Props & { d: TFieldDescription; display?: ReactNode; hideLabel?: boolean; lang?: string; confirmChange?: (next: unknown) => Promise<boolean> }) {
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
      {...boundsOf(d)}
      editable={!d.readOnly}
      display={display ?? (isSet(d, value) && d.type === 'number' ? <Text size="sm">{formatObjectValue(t, d, value, data.objectSelectLists)}</Text> : lang && isSet(d, value) ? <InLanguage lang={lang} text={String(value)} multiline={d.type === 'textarea'} /> : undefined)}
      hideLabel={hideLabel}
      onSaved={onSaved}
      confirmChange={confirmChange}
    />
  );
}

export const F = (name: string) => describe(name)!;

/** A text shown as written, marked with its language. */
function InLanguage({ lang, text, multiline }: { lang: string; text: string; multiline: boolean }) {
  return (
    <Text size="sm" component="span" lang={lang} style={{ whiteSpace: multiline ? 'pre-wrap' : undefined, overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}
