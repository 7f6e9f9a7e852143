import { Anchor, Text } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { TFieldType } from '@crm/contract';
import type { Draft } from './field-values.ts';

/** Types whose value reads as itself (text, numbers); a list's value is an id and is not shown. */
const READABLE: readonly TFieldType[] = ['text', 'textarea', 'number', 'distance', 'distance-km', 'currency', 'area', 'money', 'date'];

/**
 * Under a field both people changed, where the other person's value was kept: what this user had
 * typed, and a link that puts it back (and so saves it, over theirs, knowingly).
 */
export function ReplacedNote({ type, yours, onPutBack, testId }: { type: TFieldType; yours: Draft; onPutBack: () => void; testId: string }) {
  const { t } = useTranslation();
  const readable = READABLE.includes(type) && (typeof yours === 'string' || typeof yours === 'number') && String(yours).trim() !== '';
  const text = readable ? String(yours).trim() : '';
  return (
    <Text component="span" size="xs" c="dimmed" data-testid={`${testId}-replaced`}>
      {readable ? t('common.replacedYours', { value: text.length > 200 ? `${text.slice(0, 200)}…` : text }) : t('common.replacedYoursUnnamed')}{' '}
      <Anchor component="button" type="button" size="xs" onClick={onPutBack} data-testid={`${testId}-put-back`}>
        {t('common.putYoursBack')}
      </Anchor>
    </Text>
  );
}
