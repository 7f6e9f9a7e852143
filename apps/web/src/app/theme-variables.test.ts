import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from './theme.ts';
import { cssVariablesResolver } from './theme-colors.ts';
import { themeVariablesCss } from './theme-variables.ts';

/** The <style> MantineProvider itself writes for a theme and a resolver (as the app rendered it before). */
function providerStyle(override: Parameters<typeof themeVariablesCss>[0], resolver: Parameters<typeof themeVariablesCss>[1]): string {
  const html = renderToString(createElement(MantineProvider, { theme: override, cssVariablesResolver: resolver }, null));
  const m = /<style data-mantine-styles="true">([\s\S]*?)<\/style>/.exec(html);
  return m?.[1] ?? '';
}

describe("the theme's CSS variables written by the build", () => {
  it("are exactly those MantineProvider writes for the app's theme and colours", () => {
    const css = themeVariablesCss(theme, cssVariablesResolver);
    expect(css).toBe(providerStyle(theme, cssVariablesResolver));
    // What the app's theme and colours change is in it: the primary shade and the readable variants.
    expect(css).toContain('--mantine-color-blue-filled: var(--mantine-color-blue-8)');
    expect(css).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
    expect(css).toMatch(/--mantine-color-green-filled: rgba\(\d+, \d+, \d+, 1\)/);
  });

  it('follow another theme as the provider does', () => {
    const other = { primaryColor: 'teal', primaryShade: 6 as const };
    const none = () => ({ variables: {}, light: { '--mantine-color-error': 'var(--mantine-color-red-9)' }, dark: {} });
    expect(themeVariablesCss(other, none)).toBe(providerStyle(other, none));
    expect(themeVariablesCss(other, none)).not.toBe(themeVariablesCss(theme, cssVariablesResolver));
  });
});
