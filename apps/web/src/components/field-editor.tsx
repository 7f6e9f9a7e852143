import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Group, Loader, Modal, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TFieldPatchAnswer, TFieldType, TSelectOption } from '@crm/contract';
import { FIELD } from '@crm/contract/resources';
import { ApiError, call } from '../lib/api.ts';
import { describeError, reportError } from '../lib/errors.ts';
import { FieldInput } from './fields/field-input.tsx';
import { focusInvalidEntry } from './fields/invalid-entry.ts';
import { formatFieldValue, hasOptions, sameWire, toDraft, toWire, type Draft } from './fields/field-values.ts';
import { IconPencil } from './icons.ts';
import { FormButtons } from './form-buttons.tsx';
import { FailureAlert } from './failure-alert.tsx';

export type FieldEditorProps = {
  /** Route segment of the record kind, e.g. "account". */
  entity: string;
  id: number;
  /** The field name (the patch path without "/"). */
  field: string;
  type: TFieldType;
  label: string;
  value: unknown;
  /** Called with the server's updated fields after a save (also after a 409, with the current record). */
  onSaved: (dto: Record<string, unknown>) => void;
  opened: boolean;
  onClose: () => void;
  /** The record's version the value was read at; a stale one is refused by the server (409). */
  version?: number;
  /** Choices given by the page; otherwise select, enum and flag-enum ask editRequestSelectList. */
  options?: TSelectOption[];
  /** location: the matches of a search text (default: the agency's places). */
  loadOptions?: (search: string) => Promise<TSelectOption[]>;
  /** location/select: the text of the current value. */
  valueText?: string;
  required?: boolean;
  maxLength?: number;
  /** Numbers: bounds, step, whole numbers only. */
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
  /** Shown under the input's label. */
  description?: string;
  /** Asked before a change is sent (e.g. publishing without a mandate): false keeps the dialog open, nothing sent. */
  confirmChange?: (next: unknown) => Promise<boolean>;
};

export const editRequestKey = (entity: string, id: number, field: string) => ['editRequest', entity.toLowerCase(), id, field] as const;

/**
 * The single-field editor: a dialog with one input for one field of a record. The form's native
 * validity is checked first; an unchanged value just closes it; a change is sent as a one-op JSON
 * Patch. Field errors show under the input; a conflict (409) reloads the record's value.
 */
export function FieldEditor(props: FieldEditorProps) {
  const { entity, id, field, type, label, value, opened, onClose, onSaved, version } = props;
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<Draft>(() => toDraft(type, value));
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Each opening starts from the current value; a value someone else saved while this dialog was
  // open (a 409) replaces what is shown behind it, never what was typed in it.
  const keepDraft = useRef(false);
  useEffect(() => {
    if (keepDraft.current) {
      keepDraft.current = false;
      return;
    }
    if (opened) {
      setDraft(toDraft(type, value));
      setFieldError(undefined);
      setFormError(null);
    }
  }, [opened, type, value]);

  const needsList = opened && hasOptions(type) && !props.options;
  const list = useQuery({
    queryKey: editRequestKey(entity, id, field),
    queryFn: ({ signal }) => call(FIELD.calls.selectList, { params: { entity }, query: { id, fieldName: field } }, { signal }),
    enabled: needsList,
    staleTime: 60000,
    meta: { handlesErrors: true },
  });
  const options = props.options ?? list.data?.selectList ?? [];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    if (form.current && (focusInvalidEntry(form.current) || !form.current.reportValidity())) return;
    const next = toWire(type, draft, options);
    if (sameWire(type, next, toWire(type, toDraft(type, value), options))) {
      onClose();
      return;
    }
    if (props.confirmChange && !(await props.confirmChange(next))) return;
    setSaving(true);
    setFieldError(undefined);
    setFormError(null);
    const send = (ver: number | undefined) =>
      call(FIELD.calls.patch, { params: { entity, id }, body: [{ op: 'replace', path: `/${field}`, value: next }], query: { version: ver } });
    const started = toWire(type, toDraft(type, value), options);
    const theirsOf = (current: Record<string, unknown>) => toWire(type, toDraft(type, current[field]), options);
    const currentOf = (err: unknown) =>
      err instanceof ApiError && err.status === 409 && err.problem.current && typeof err.problem.current === 'object' ? (err.problem.current as Record<string, unknown>) : undefined;
    try {
      let res: TFieldPatchAnswer;
      try {
        res = await send(version);
      } catch (err) {
        // Someone saved the record meanwhile, but not this field: it is still what this user saw,
        // so the change is made on their version.
        const current = currentOf(err);
        if (!current || typeof current.version !== 'number' || !sameWire(type, theirsOf(current), started)) throw err;
        res = await send(current.version);
      }
      onSaved(res.dto);
      onClose();
    } catch (err) {
      const current = currentOf(err);
      if (err instanceof ApiError && err.status === 400 && err.fieldErrors[field]) {
        setFieldError(err.fieldErrors[field]);
      } else if (current) {
        // Someone changed this very field: their value is taken in behind the dialog, what was
        // typed stays in it, and saving again puts it in their place (Cancel keeps theirs).
        keepDraft.current = true;
        onSaved(current);
        const theirs = formatFieldValue(type, current[field], t, options);
        setFormError(t('fields.changedMeanwhile', { value: theirs || t('fields.notSet') }));
      } else if (err instanceof ApiError && err.status === 409) {
        reportError(err);
        onClose();
      } else if (err instanceof ApiError && err.status === 401) {
        onClose();
      } else {
        setFormError(describeError(err).message);
      }
    } finally {
      setSaving(false);
    }
  };

  // Escape or a click beside the dialog closes it only while nothing was changed: what was typed is
  // given up by Cancel, never by a key pressed to close a list inside it.
  const changed = opened && !sameWire(type, toWire(type, draft, options), toWire(type, toDraft(type, value), options));
  return (
    <Modal opened={opened} onClose={onClose} closeButtonProps={{ 'aria-label': t('common.close') }} closeOnEscape={!changed} closeOnClickOutside={!changed} title={t('fields.edit', { label })} size={type === 'textarea' || type === 'flag-enum' || type === 'multi-select' ? 'lg' : 'md'}>
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate={false} data-testid="field-editor">
        <Stack gap="sm">
          <FailureAlert failure={formError} testId="field-editor-error" />
          {needsList && list.isPending ? (
            <Group justify="center" py="md">
              <Loader size="sm" />
            </Group>
          ) : needsList && list.isError ? (
            <Alert color="red">{describeError(list.error).message}</Alert>
          ) : (
            <FieldInput
              type={type}
              label={label}
              value={draft}
              onChange={(v) => {
                setDraft(v);
                setFieldError(undefined);
              }}
              error={fieldError}
              options={options}
              required={props.required}
              maxLength={props.maxLength}
              loadOptions={props.loadOptions}
              valueText={props.valueText}
              min={props.min}
              max={props.max}
              step={props.step}
              integer={props.integer}
              description={props.description}
            />
          )}
          <FormButtons onCancel={onClose} loading={saving} disabled={needsList && !list.isSuccess} cancelDisabled={saving} testId="field-editor-save" gap="xs" />
        </Stack>
      </form>
    </Modal>
  );
}

export type EditableFieldProps = Omit<FieldEditorProps, 'opened' | 'onClose'> & {
  /** false: shows the value only. */
  editable?: boolean;
  /** Shown instead of the formatted value. */
  display?: ReactNode;
  /** Hide the label (when the page shows its own). */
  hideLabel?: boolean;
};

/** A field's label and formatted value; in edit mode a click opens the single-field editor. */
export function EditableField({ editable = true, display, hideLabel, ...editor }: EditableFieldProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // Choices' texts for showing the value, when the page gave none (same cache as the editor).
  const needsTexts = hasOptions(editor.type) && !editor.options && !editor.valueText && editor.value != null && editor.value !== '';
  const list = useQuery({
    queryKey: editRequestKey(editor.entity, editor.id, editor.field),
    queryFn: ({ signal }) =>
      call(FIELD.calls.selectList, { params: { entity: editor.entity }, query: { id: editor.id, fieldName: editor.field } }, { signal }),
    enabled: needsTexts,
    staleTime: 60000,
    meta: { handlesErrors: true },
  });
  const text = formatFieldValue(editor.type, editor.value, t, editor.options ?? list.data?.selectList, editor.valueText);
  const shown =
    display ??
    (text ? (
      <Text size="sm" component="span" style={{ whiteSpace: editor.type === 'textarea' ? 'pre-wrap' : undefined, overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    ) : (
      <Text size="sm" component="span" c="dimmed" fs="italic">
        {t('common.notSet')}
      </Text>
    ));
  return (
    <Stack gap={0} data-testid={`editable-${editor.field}`}>
      {!hideLabel && (
        <Text size="xs" c="dimmed">
          {editor.label}
        </Text>
      )}
      {editable ? (
        <>
          <UnstyledButton
            onClick={() => setOpened(true)}
            title={t('fields.clickToEdit')}
            data-testid={`editable-${editor.field}-edit`}
            style={{ display: 'inline-flex', alignItems: 'center', gap: 6, borderBottom: '1px dashed var(--mantine-color-gray-4)', alignSelf: 'flex-start' }}
          >
            {/* The name says what the button edits and still holds the value it shows (WCAG 2.5.3, label in name). */}
            <VisuallyHidden>{t('fields.edit', { label: editor.label })} </VisuallyHidden>
            {shown}
            <IconPencil size={13} color="var(--mantine-color-gray-6)" aria-hidden />
          </UnstyledButton>
          <FieldEditor {...editor} opened={opened} onClose={() => setOpened(false)} />
        </>
      ) : (
        shown
      )}
    </Stack>
  );
}
