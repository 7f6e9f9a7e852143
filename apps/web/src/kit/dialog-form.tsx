import { Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { ApiError } from '../lib/api.ts';
import { describeError } from '../lib/errors.ts';
import { FormButtons } from '../components/form-buttons.tsx';

/**
 * A dialog's sending: one call at a time (a second click while it runs does nothing), the server's
 * field errors under their fields (`errors.<field>`), any other failure as one message
 * (`errors.form`), and `onDone` with the answer. What was typed stays as typed on a failure.
 */
function useDialogSubmit<A>(send: () => Promise<A>, onDone: (answer: A) => void) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setErrors({});
    void send()
      .then(onDone, (err: unknown) => {
        if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
        else setErrors({ form: describeError(err).message });
      })
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  };
  return { errors, busy, onSubmit };
}

/**
 * A create dialog's values and their sending (as `useDialogSubmit`): once the record is made they
 * start again from `initial` (the next one is typed afresh) and `onDone` has the answer.
 */
export function useDialogValues<V extends Record<string, unknown>, A>(initial: () => V, send: (values: V) => Promise<A>, onDone: (answer: A) => void) {
  const [start] = useState(initial);
  const [values, setValues] = useState(start);
  const set = <K extends keyof V>(name: K, value: V[K] | ((prev: V[K]) => V[K])) =>
    setValues((v) => ({ ...v, [name]: typeof value === 'function' ? (value as (prev: V[K]) => V[K])(v[name]) : value }));
  const state = useDialogSubmit(
    () => send(values),
    (answer) => {
      setValues(start);
      onDone(answer);
    },
  );
  return { values, set, state };
}

type DialogFormProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: ModalProps['size'];
  testId: string;
  submit: { label: string; testId: string; disabled?: boolean };
  state: { busy: boolean; onSubmit: (e: FormEvent) => void };
  /** A failure that belongs to no field, shown above the buttons. */
  error?: string;
  children: ReactNode;
};

/** A dialog holding one form: its fields, a message for what went wrong, Cancel and the submit button. */
export function DialogForm({ opened, onClose, title, size, testId, submit, state, error, children }: DialogFormProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid={testId}>
      <form onSubmit={state.onSubmit}>
        <Stack gap="sm">
          {children}
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          <FormButtons onCancel={onClose} label={submit.label} loading={state.busy} disabled={submit.disabled} testId={submit.testId} />
        </Stack>
      </form>
    </Modal>
  );
}
