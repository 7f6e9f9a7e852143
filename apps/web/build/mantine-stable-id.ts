import type { Plugin } from 'vite';

const USE_ID = /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;

/**
 * Mantine's useId, without its second render. Mantine starts from React's useId (stable, the same
 * on the server and in the browser) and then, in a layout effect, replaces it with a random id:
 * a state change during the commit, so every dialog, menu, tooltip and select re-rendered once,
 * synchronously, as it mounted, and with it the whole commit's effects ran in the same long task.
 * React 19's id is already unique and stable, and it matches a screen drawn on the server
 * (decision 054), so it is kept as it is. Applied to both builds of the app.
 */
export function mantineStableId(): Plugin {
  return {
    name: 'crm-mantine-stable-id',
    enforce: 'pre',
    transform(code, id) {
      if (!USE_ID.test(id)) return null;
      if (!code.includes('setUuid(randomId())')) throw new Error(`${id} has changed: check that its id still needs no second render`);
      return {
        code: `"use client";
import { useId as useReactId } from "react";
function useId$1(staticId) {
	const reactId = useReactId();
	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/:/g, "")}\`;
}
export { useId$1 as useId };
`,
        map: null,
      };
    },
  };
}
