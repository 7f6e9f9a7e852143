// The deal screens' own icons, one file each (see components/icons.ts).
import type { Icon } from '@tabler/icons-react';
import IconLayoutKanban_ from '@tabler/icons-react/dist/esm/icons/IconLayoutKanban.mjs';
import IconList_ from '@tabler/icons-react/dist/esm/icons/IconList.mjs';

export const IconLayoutKanban = IconLayoutKanban_ as Icon;
export const IconList = IconList_ as Icon;
