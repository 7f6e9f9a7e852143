import { ActionIcon, Group, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFieldDescription } from '@crm/contract/object-fields';
import type { Draft } from '../../../components/fields/field-values.ts';
import { IconCheck, IconX } from '../../../components/icons.ts';

type Props = {
  fields: TFieldDescription[];
  /** Each feature's draft: 'true', 'false' or 'null' (not said). */
  value: (name: string) => Draft | undefined;
  onChange: (name: string, v: Draft) => void;
  label: (name: string) => string;
  testId: string;
};

/**
 * A group's yes/no features as one compact checklist: a line each, its name and two marks, ✓ (it has
 * it) and ✗ (it has not: a listing says "no elevator" as plainly as "elevator"). Neither pressed: not
 * said. Pressing the pressed mark again takes it back. Sixty features fit in a screen, where three-way
 * switches took a page each group.
 */
export function FeatureChecklist({ fields, value, onChange, label, testId }: Props) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md" verticalSpacing={2} data-testid={testId}>
      {fields.map((d) => {
        const v = value(d.name) ?? 'null';
        const name = label(d.name);
        const mark = (to: 'true' | 'false') => {
          const on = v === to;
          const said = to === 'true' ? t('common.yes') : t('common.no');
          return (
            <Tooltip label={said} withArrow openDelay={400}>
              <ActionIcon
                size="sm"
                variant={on ? 'filled' : 'subtle'}
                color={to === 'true' ? 'teal.8' : 'red.8'}
                aria-label={`${name}: ${said}`}
                aria-pressed={on}
                onClick={() => onChange(d.name, on ? 'null' : to)}
                data-testid={`field-${d.name}-${to === 'true' ? 'yes' : 'no'}`}
              >
                {to === 'true' ? <IconCheck size={14} /> : <IconX size={14} />}
              </ActionIcon>
            </Tooltip>
          );
        };
        return (
          <Group key={d.name} justify="space-between" wrap="nowrap" gap="xs" py={2} className="feature-line" data-testid={`field-${d.name}`} data-value={v}>
            <Text size="sm" td={v === "false" ? "line-through" : undefined}>
              {name}
            </Text>
            <Group gap={4} wrap="nowrap">
              {mark('true')}
              {mark('false')}
            </Group>
          </Group>
        );
      })}
    </SimpleGrid>
  );
}
