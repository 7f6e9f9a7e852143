import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconTrash } from './icons.ts';

/** The red bin that removes one row, item or line; `label` names what it removes for screen readers. */
export function RemoveButton({ label, onClick, testId, ...props }: { label: string; onClick: () => void; testId?: string } & Pick<ActionIconProps, 'size' | 'mt'>) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick} data-testid={testId} {...props}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}
