import { darken, getPrimaryShade, luminance, type CSSVariablesResolver, type MantineTheme } from '@mantine/core';

/** The WCAG contrast ratio of two colours (hex or rgb[a]): 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** AA contrast for text of any size (badges and chips are small). */
export const TEXT_CONTRAST = 4.5;

/** `color` when it has AA contrast with `against`, else the least darkened version of it that has. */
export function darkEnough(color: string, against: string): string {
  for (let step = 0; step <= 50; step++) {
    const c = step ? darken(color, step / 50) : color;
    if (contrastRatio(c, against) >= TEXT_CONTRAST) return c;
  }
  return '#000000';
}

/**
 * The colours of Mantine's variants, dark enough for 4.5:1 in every palette, set once here for
 * every badge, chip, indicator, alert and button rather than screen by screen:
 * - light (a badge's or a chip's usual look): the background one step lighter than Mantine's (shade
 *   0, hovered 1), the text shade 9, darkened where it is too light even on shade 1 (green, teal,
 *   lime, yellow, orange);
 * - filled and outline: the primary shade, darkened where white on it (or it on white) is too light
 *   (green 8 is 3.5:1, so the filled "New" badge and a green button); hovered, a step darker still.
 * Palettes dark enough as Mantine has them keep their own variables.
 */
export function variantColors(theme: MantineTheme): Record<string, string> {
  const shade = getPrimaryShade(theme, 'light');
  const vars: Record<string, string> = {};
  for (const [name, palette] of Object.entries(theme.colors)) {
    vars[`--mantine-color-${name}-light`] = `var(--mantine-color-${name}-0)`;
    vars[`--mantine-color-${name}-light-hover`] = `var(--mantine-color-${name}-1)`;
    const text = darkEnough(palette[9], palette[1]);
    if (text !== palette[9]) vars[`--mantine-color-${name}-light-color`] = text;
    const filled = darkEnough(palette[shade], theme.white);
    if (filled !== palette[shade]) {
      vars[`--mantine-color-${name}-filled`] = filled;
      vars[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
      vars[`--mantine-color-${name}-outline`] = filled;
    }
  }
  return vars;
}

/** Secondary text, placeholders and errors dark enough for 4.5:1 on white and on the gray page background; the variants' colours. */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // Field errors and invalid borders: red shade 9 is 5.9:1 on white (the default shade 6 is 3.3:1).
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...variantColors(theme),
  },
  dark: {},
});
