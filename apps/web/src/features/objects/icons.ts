// The objects screens' own icons, one file each (see components/icons.ts for why).
import type { Icon } from '@tabler/icons-react';
import IconChevronLeft_ from '@tabler/icons-react/dist/esm/icons/IconChevronLeft.mjs';
import IconChevronRight_ from '@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs';
import IconGripVertical_ from '@tabler/icons-react/dist/esm/icons/IconGripVertical.mjs';
import IconMapPin_ from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconVideo_ from '@tabler/icons-react/dist/esm/icons/IconVideo.mjs';
import IconBed_ from '@tabler/icons-react/dist/esm/icons/IconBed.mjs';
import IconBath_ from '@tabler/icons-react/dist/esm/icons/IconBath.mjs';
import IconRuler2_ from '@tabler/icons-react/dist/esm/icons/IconRuler2.mjs';
import IconMap_ from '@tabler/icons-react/dist/esm/icons/IconMap.mjs';
import IconNotes_ from '@tabler/icons-react/dist/esm/icons/IconNotes.mjs';
import IconCheck_ from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
import IconX_ from '@tabler/icons-react/dist/esm/icons/IconX.mjs';

export const IconChevronLeft = IconChevronLeft_ as Icon;
export const IconChevronRight = IconChevronRight_ as Icon;
export const IconGripVertical = IconGripVertical_ as Icon;
export const IconMapPin = IconMapPin_ as Icon;
export const IconVideo = IconVideo_ as Icon;
export const IconBed = IconBed_ as Icon;
export const IconBath = IconBath_ as Icon;
export const IconRuler2 = IconRuler2_ as Icon;
export const IconMap = IconMap_ as Icon;
export const IconNotes = IconNotes_ as Icon;
export const IconCheck = IconCheck_ as Icon;
export const IconX = IconX_ as Icon;
