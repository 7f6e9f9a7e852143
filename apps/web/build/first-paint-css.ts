import type { Plugin } from 'vite';

type ChunkLike = { type: 'chunk'; name: string; isEntry: boolean; facadeModuleId: string | null; viteMetadata?: { importedCss: Set<string> } };
type AssetLike = { type: 'asset'; fileName: string; source: string | Uint8Array };

/**
 * Every stylesheet of the build in one file, for a screen drawn on the server (decision 054): the
 * drawing is shown before any script has run, so the styles of whichever screen it is must already
 * be there. In the order the app loads them (the entry's, the shared components', the shell's, then
 * the screens'), about 36 KB compressed; the app's own per-screen stylesheets add nothing new to it
 * later. Its name goes to first-paint.json, which the server reads.
 */
export function firstPaintCss(): Plugin {
  return {
    name: 'crm-first-paint-css',
    apply: 'build',
    generateBundle(_options, bundle) {
      const items = Object.values(bundle) as unknown as (ChunkLike | AssetLike)[];
      const chunks = items.filter((c): c is ChunkLike => c.type === 'chunk');
      const rank = (c: ChunkLike) => (c.isEntry ? 0 : c.name === 'ui' ? 1 : c.facadeModuleId?.replace(/\\/g, '/').endsWith('/app/shell/shell-switch.tsx') ? 2 : 3);
      const ordered = [...chunks].sort((a, b) => rank(a) - rank(b));
      const names = [...new Set(ordered.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))];
      for (const a of items) if (a.type === 'asset' && a.fileName.endsWith('.css') && !names.includes(a.fileName)) names.push(a.fileName);
      const byName = new Map(items.filter((a): a is AssetLike => a.type === 'asset').map((a) => [a.fileName, a]));
      const css = names.map((n) => {
        const src = byName.get(n)?.source;
        return typeof src === 'string' ? src : new TextDecoder().decode(src);
      });
      if (!css.length) return;
      const ref = this.emitFile({ type: 'asset', name: 'first-paint.css', source: css.join('\n') });
      // `parts`: the stylesheets it holds, which the app's code would otherwise load again on a drawn page.
      this.emitFile({ type: 'asset', fileName: 'first-paint.json', source: JSON.stringify({ css: `/${this.getFileName(ref)}`, parts: names.map((n) => `/${n}`) }) });
    },
  };
}
