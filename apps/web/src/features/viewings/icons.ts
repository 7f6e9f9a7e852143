// The viewing and calendar screens' own icons, one file each (see components/icons.ts).
import type { Icon } from '@tabler/icons-react';
import IconArrowUp_ from '@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs';
import IconCalendar_ from '@tabler/icons-react/dist/esm/icons/IconCalendar.mjs';
import IconChevronLeft_ from '@tabler/icons-react/dist/esm/icons/IconChevronLeft.mjs';
import IconChevronRight_ from '@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs';
import IconMessage_ from '@tabler/icons-react/dist/esm/icons/IconMessage.mjs';
import IconPhone_ from '@tabler/icons-react/dist/esm/icons/IconPhone.mjs';
import IconPrinter_ from '@tabler/icons-react/dist/esm/icons/IconPrinter.mjs';

export const IconArrowUp = IconArrowUp_ as Icon;
export const IconCalendar = IconCalendar_ as Icon;
export const IconChevronLeft = IconChevronLeft_ as Icon;
export const IconChevronRight = IconChevronRight_ as Icon;
export const IconMessage = IconMessage_ as Icon;
export const IconPhone = IconPhone_ as Icon;
export const IconPrinter = IconPrinter_ as Icon;
