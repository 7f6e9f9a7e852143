import type { Plugin } from 'vite';

/** Where index.html's start-up script keeps the list this plugin fills in. */
export const SHELL_ASSETS_MARK = '[] /* crm:shell-assets */';

type ChunkLike = { type: 'chunk'; name: string; fileName: string; facadeModuleId: string | null; viteMetadata?: { importedCss: Set<string> } };

/**
 * Fills in, in the built index.html's start-up script, the files every signed-in screen needs
 * beyond the entry: the shell (shell-switch.tsx's chunk) and the shared components chunk ("ui"),
 * each with its stylesheets. With a session in the browser, the script asks for them at once,
 * alongside the entry, instead of after the entry has downloaded and run (on a phone on mobile
 * data that wait was most of a second before anything signed-in could show). The sign-in page,
 * which needs none of them, is not slowed: without a session nothing is asked.
 */
export function shellPreload(): Plugin {
  return {
    name: 'crm-shell-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!html.includes(SHELL_ASSETS_MARK)) throw new Error(`index.html has no ${SHELL_ASSETS_MARK} for the shell's files`);
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is ChunkLike & typeof c => c.type === 'chunk') as unknown as ChunkLike[];
        const shell = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith('/app/shell/shell-switch.tsx'));
        const ui = chunks.find((c) => c.name === 'ui');
        if (!shell || !ui) throw new Error('The build has no shell-switch or ui chunk to preload');
        const files = [ui, shell].flatMap((c) => [c.fileName, ...(c.viteMetadata?.importedCss ?? [])]);
        const hrefs = [...new Set(files)].map((f) => `/${f}`);
        return html.replace(SHELL_ASSETS_MARK, JSON.stringify(hrefs));
      },
    },
  };
}
