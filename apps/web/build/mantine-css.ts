import type { Plugin } from 'vite';

// Components, and the shared InlineInput (the label beside a Checkbox, Radio or Switch) under utils/.
const MODULE = /[\\/]@mantine[\\/]core[\\/]esm[\\/](?:components|utils)[\\/](?:.+[\\/])?(\w+)\.module\.mjs$/;

/**
 * Mantine's styles per component instead of the whole 230 KB styles.css: each component's class
 * map (`Button.module.mjs`) imports its own stylesheet (`styles/Button.layer.css`), so a screen's
 * CSS travels in the chunk of the screen that uses the component, and the first page blocks on the
 * few rules it needs. The `.layer.css` files put Mantine in the `mantine` cascade layer: the app's
 * own rules win whatever order the chunks load in.
 */
export function mantineCssPerComponent(): Plugin {
  return {
    name: 'crm-mantine-css-per-component',
    enforce: 'pre',
    transform(code, id) {
      const m = MODULE.exec(id);
      if (!m) return null;
      return { code: `import "@mantine/core/styles/${m[1]}.layer.css";\n${code}`, map: null };
    },
  };
}
