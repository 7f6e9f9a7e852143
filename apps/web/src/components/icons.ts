// Icons are imported one file each: the icon package's barrel defeats tree-shaking in the
// bundler and would add every icon (120 KB gzip) to the first page. Add new icons here.
import type { Icon } from '@tabler/icons-react';
import IconAlertTriangle_ from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconArrowLeft_ from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconBell_ from '@tabler/icons-react/dist/esm/icons/IconBell.mjs';
import IconBuildingEstate_ from '@tabler/icons-react/dist/esm/icons/IconBuildingEstate.mjs';
import IconChevronDown_ from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconCircleCheck_ from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import IconExclamationCircle_ from '@tabler/icons-react/dist/esm/icons/IconExclamationCircle.mjs';
import IconLanguage_ from '@tabler/icons-react/dist/esm/icons/IconLanguage.mjs';
import IconLock_ from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import IconLogout_ from '@tabler/icons-react/dist/esm/icons/IconLogout.mjs';
import IconMail_ from '@tabler/icons-react/dist/esm/icons/IconMail.mjs';
import IconSearch_ from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconTargetArrow_ from '@tabler/icons-react/dist/esm/icons/IconTargetArrow.mjs';
import IconTools_ from '@tabler/icons-react/dist/esm/icons/IconTools.mjs';
import IconUserPlus_ from '@tabler/icons-react/dist/esm/icons/IconUserPlus.mjs';
import IconUsers_ from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';

export const IconAlertTriangle = IconAlertTriangle_ as Icon;
export const IconArrowLeft = IconArrowLeft_ as Icon;
export const IconBell = IconBell_ as Icon;
export const IconBuildingEstate = IconBuildingEstate_ as Icon;
export const IconChevronDown = IconChevronDown_ as Icon;
export const IconCircleCheck = IconCircleCheck_ as Icon;
export const IconExclamationCircle = IconExclamationCircle_ as Icon;
export const IconLanguage = IconLanguage_ as Icon;
export const IconLock = IconLock_ as Icon;
export const IconLogout = IconLogout_ as Icon;
export const IconMail = IconMail_ as Icon;
export const IconSearch = IconSearch_ as Icon;
export const IconTargetArrow = IconTargetArrow_ as Icon;
export const IconTools = IconTools_ as Icon;
export const IconUserPlus = IconUserPlus_ as Icon;
export const IconUsers = IconUsers_ as Icon;
