import path from 'node:path';
import type { Plugin } from 'vite';
import { theme } from '../src/app/theme.ts';
import { cssVariablesResolver } from '../src/app/theme-colors.ts';
import { themeVariablesCss } from '../src/app/theme-variables.ts';

/** What src/app/theme-variables.css holds until the build writes the variables in its place. */
export const THEME_VARIABLES_MARK = '/* crm:theme-variables */';

/**
 * Writes the theme's CSS variables (src/app/theme-variables.ts) into src/app/theme-variables.css as
 * the app's code imports it: computed once here, not by MantineProvider in every browser (and in
 * every drawing of the server's), which renders with `withCssVariables={false}`.
 */
export function themeVariables(): Plugin {
  const file = path.resolve(import.meta.dirname, '../src/app/theme-variables.css');
  let building = false;
  let written = false;
  return {
    name: 'crm-theme-variables',
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build';
    },
    transform(code, id) {
      if (path.resolve(id.split('?')[0]!) !== file) return null;
      if (!code.includes(THEME_VARIABLES_MARK)) throw new Error(`${file} has no ${THEME_VARIABLES_MARK}`);
      written = true;
      return { code: code.replace(THEME_VARIABLES_MARK, () => themeVariablesCss(theme, cssVariablesResolver)), map: null };
    },
    // A build that never met the file (renamed, no longer imported) would ship without the theme's colours, silently.
    buildEnd(error) {
      if (building && !error && !written) this.error(`the theme's variables were not written: nothing imported ${file}`);
    },
  };
}
