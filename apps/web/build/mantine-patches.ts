import type { Plugin } from 'vite';

/**
 * Two of Mantine's mount-time state changes, made where they cost nothing. Each was a state change
 * in a layout effect: React re-renders such a component synchronously inside the commit, and with
 * one pending, the commit's passive effects run in the same task too. A screen mounts dozens of
 * dialogs, menus, tooltips and selects (closed), so its first commit was one long task; on a
 * screen drawn by the server (decision 054) that task came after the first paint, where a phone
 * feels it (Total Blocking Time). Both builds of the app (browser and server) use these.
 *
 * - useId: Mantine starts from React's useId (stable, the same on the server and in the browser) and
 *   then replaced it with a random id. React 19's id is unique and stable already: kept as it is.
 * - Portal: it learns its target node after mounting (it must not render on the server). It now does
 *   so in a passive effect: a closed dialog's portal is not needed in the same frame, and an open one
 *   still mounts before the browser paints what the user did.
 */
const PATCHES: { file: RegExp; from: string; to: string }[] = [
  {
    file: /@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/,
    from: `	const [uuid, setUuid] = useState(\`mantine-\${reactId.replace(/:/g, "")}\`);
	const hasInitializedRef = useRef(false);
	useIsomorphicEffect(() => {
		if (hasInitializedRef.current) return;
		hasInitializedRef.current = true;
		setUuid(randomId());
	}, []);
	if (typeof staticId === "string") return staticId;
	return uuid;`,
    to: `	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/:/g, "")}\`;`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Portal[\\/]Portal\.mjs$/,
    from: `	useIsomorphicEffect(() => {
		setMounted(true);`,
    to: `	useEffect(() => {
		setMounted(true);`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Portal[\\/]Portal\.mjs$/,
    from: `import { useRef, useState } from "react";`,
    to: `import { useEffect, useRef, useState } from "react";`,
  },
];

export function mantinePatches(): Plugin {
  return {
    name: 'crm-mantine-patches',
    enforce: 'pre',
    transform(code, id) {
      const mine = PATCHES.filter((p) => p.file.test(id));
      if (!mine.length) return null;
      let out = code;
      for (const p of mine) {
        // A Mantine upgrade that changed the code: the build stops, to be looked at again.
        if (!out.includes(p.from)) throw new Error(`${id} has changed: check the patch in build/mantine-patches.ts`);
        out = out.replace(p.from, p.to);
      }
      return { code: out, map: null };
    },
  };
}
