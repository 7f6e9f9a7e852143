import { createTheme } from '@mantine/core';

/**
 * The app's Mantine theme, without what follows the reader's language (the clear buttons' names,
 * app.tsx adds them). Its own module: the build reads it to write the theme's CSS variables once
 * (build/theme-variables.ts), instead of every phone computing them while it takes a page over.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 on white is 5:1 (shade 6, Mantine's default, is 3.6:1): text, links and filled
  // buttons meet WCAG AA contrast in every state.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  focusRing: 'auto',
  components: {
    // No focus placeholder without a role inside role="menu": the first item takes the focus.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Selects and other comboboxes render their options when opened, not hidden from the start:
    // a record's form has dozens of selects, and each kept-mounted list was positioned (a forced
    // style recalculation) while the screen first rendered. aria-controls is set only when open.
    Combobox: { defaultProps: { keepMounted: false } },
    // A dialog's <header> is no second banner of the page (axe: landmark-no-duplicate-banner): inside
    // a section with role="dialog" it still counts as one. The modals manager's dialogs say the same.
    Modal: { defaultProps: { attributes: { header: { role: 'presentation' } } } },
  },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
});
