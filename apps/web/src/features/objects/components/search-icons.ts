// Icons of the map, search and keys screens, one file each (see components/icons.ts for why).
import type { Icon } from '@tabler/icons-react';
import IconCircleDashed_ from '@tabler/icons-react/dist/esm/icons/IconCircleDashed.mjs';
import IconEraser_ from '@tabler/icons-react/dist/esm/icons/IconEraser.mjs';
import IconList_ from '@tabler/icons-react/dist/esm/icons/IconList.mjs';
import IconMap_ from '@tabler/icons-react/dist/esm/icons/IconMap.mjs';
import IconMapOff_ from '@tabler/icons-react/dist/esm/icons/IconMapOff.mjs';
import IconMapPin_ from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconRefresh_ from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';

export const IconCircleDashed = IconCircleDashed_ as Icon;
export const IconEraser = IconEraser_ as Icon;
export const IconList = IconList_ as Icon;
export const IconMap = IconMap_ as Icon;
export const IconMapOff = IconMapOff_ as Icon;
export const IconMapPin = IconMapPin_ as Icon;
export const IconRefresh = IconRefresh_ as Icon;
