import { MantineProvider, MultiSelect, createTheme } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { choicePills } from './choice-pills.tsx';

/** A multi-select as every one of the app's gets it: the chosen values rendered by the theme's pills. */
const t = (key: string, values: { name: string }) => `${key}: ${values.name}`;
const theme = createTheme({ components: { MultiSelect: { defaultProps: { renderPill: choicePills(t) } } } });
const field = (props: { readOnly?: boolean; disabled?: boolean }) =>
  renderToStaticMarkup(
    createElement(
      MantineProvider,
      { theme },
      createElement(MultiSelect, {
        label: 'Areas',
        data: [
          { value: 'ath', label: 'Athens' },
          { value: 'skg', label: 'Thessaloniki' },
        ],
        value: ['ath', 'skg'],
        ...props,
      }),
    ),
  );
const removers = (markup: string) => [...markup.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);

describe('the chosen values of a multi-select', () => {
  it('each has a named × in the tab order when the field can be changed', () => {
    const markup = field({});
    expect(removers(markup)).toEqual(['common.removeChoice: Athens', 'common.removeChoice: Thessaloniki']);
    expect(markup).not.toContain('tabindex="-1"');
  });

  it('a read-only or disabled field shows its values with no × at all', () => {
    for (const props of [{ readOnly: true }, { disabled: true }]) {
      const markup = field(props);
      expect(markup).toContain('Athens');
      expect(markup).toContain('Thessaloniki');
      expect(removers(markup)).toEqual([]);
      expect(markup).not.toContain('common.removeChoice');
    }
  });
});
