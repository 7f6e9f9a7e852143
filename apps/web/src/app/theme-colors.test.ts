import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, darkEnough, variantColors } from './theme-colors.ts';

describe("the variants' colours", () => {
  for (const shade of [8, 6] as const) {
    const theme = mergeMantineTheme(DEFAULT_THEME, { primaryShade: { light: shade, dark: shade } });
    const vars = variantColors(theme);
    it(`have 4.5:1 in every palette: a light badge's text on its background and hovered, white on a filled one, an outline on white (primary shade ${shade})`, () => {
      for (const [name, palette] of Object.entries(theme.colors)) {
        const text = vars[`--mantine-color-${name}-light-color`] ?? palette[9];
        expect(contrastRatio(text, palette[0]), `${name} light`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(text, palette[1]), `${name} light hovered`).toBeGreaterThanOrEqual(4.5);
        const filled = vars[`--mantine-color-${name}-filled`] ?? palette[shade];
        const hovered = vars[`--mantine-color-${name}-filled-hover`] ?? palette[shade + 1];
        expect(contrastRatio(theme.white, filled), `${name} filled`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(theme.white, hovered), `${name} filled hovered`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(vars[`--mantine-color-${name}-outline`] ?? palette[shade], theme.white), `${name} outline`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('keep a colour that is dark enough, and darken one that is not no more than it needs', () => {
    const { blue, green } = DEFAULT_THEME.colors;
    expect(darkEnough(blue[9], blue[1])).toBe(blue[9]);
    const darker = darkEnough(green[9], green[1]);
    expect(contrastRatio(darker, green[1])).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(darker, green[1])).toBeLessThan(5);
  });
});
