// The reservation screens' own icons, one file each (see components/icons.ts).
import type { Icon } from '@tabler/icons-react';
import IconCalendarMonth_ from '@tabler/icons-react/dist/esm/icons/IconCalendarMonth.mjs';
import IconChevronLeft_ from '@tabler/icons-react/dist/esm/icons/IconChevronLeft.mjs';
import IconChevronRight_ from '@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs';
import IconList_ from '@tabler/icons-react/dist/esm/icons/IconList.mjs';

export const IconCalendarMonth = IconCalendarMonth_ as Icon;
export const IconChevronLeft = IconChevronLeft_ as Icon;
export const IconChevronRight = IconChevronRight_ as Icon;
export const IconList = IconList_ as Icon;
