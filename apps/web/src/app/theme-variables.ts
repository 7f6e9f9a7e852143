import { DEFAULT_THEME, convertCssVariables, defaultCssVariablesResolver, mergeMantineTheme, type ConvertCSSVariablesInput, type CSSVariablesResolver, type MantineThemeOverride } from '@mantine/core';

type Vars = ConvertCSSVariablesInput;

/** The entries of `input` whose value differs from Mantine's own (its stylesheet has those). */
function withoutDefaults(input: Vars): Vars {
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const keep = (part: keyof Vars) => Object.fromEntries(Object.entries(input[part]).filter(([k, v]) => defaults[part][k as `--${string}`] !== v));
  return { variables: keep('variables'), light: keep('light'), dark: keep('dark') };
}

/**
 * The theme's CSS variables, as MantineProvider writes them into its <style> (the theme's own, with
 * the resolver's on top, minus those Mantine's stylesheet already has): the same text,
 * written once by the build (build/theme-variables.ts) into a stylesheet. The provider no longer
 * computes them in the browser (`withCssVariables={false}`): the app's resolver darkens each palette
 * step by step to find a readable shade, and that was one long task of a phone's take-over.
 */
export function themeVariablesCss(override: MantineThemeOverride, resolver: CSSVariablesResolver): string {
  const theme = mergeMantineTheme(DEFAULT_THEME, override);
  const own = defaultCssVariablesResolver(theme);
  const extra = resolver(theme);
  const merged: Vars = {
    variables: { ...own.variables, ...extra.variables },
    light: { ...own.light, ...extra.light },
    dark: { ...own.dark, ...extra.dark },
  };
  return convertCssVariables(withoutDefaults(merged));
}
