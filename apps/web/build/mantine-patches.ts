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
 *   still mounts before the browser paints what the user did. While a drawn page is taken over, all
 *   of them in one transition (after the commit's effects): the screen's closed dialogs and menus
 *   (their scroll locks, transitions) were drawn into their portals in one synchronous render of
 *   about 90 ms on a phone after the take-over; a transition each cost almost as much again.
 * - Popover (menus) and Tooltip: they keep their target element in state, set when the element is
 *   attached (a ref, inside the commit: a synchronous re-render). While a drawn page is taken over
 *   (`data-drawn` on <html>, until the app's first commit is done) that state is set in a transition
 *   instead: the take-over's commit no longer re-renders every menu and tooltip of the screen and runs
 *   its effects in the same task; they follow in tasks of their own. The page stays inert until they
 *   have committed (app.tsx's TakeOver lifts it in a transition rendered with theirs): a menu opened
 *   before its target was known drew at the page's top-left corner (review).
 * A patch that matches no file of a build (Mantine moved or renamed it) stops the build too.
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
		if (typeof document !== "undefined" && document.documentElement.hasAttribute("data-drawn")) mountInTakeOver(() => setMounted(true));
		else setMounted(true);`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Portal[\\/]Portal\.mjs$/,
    from: `import { useRef, useState } from "react";`,
    to: `import { startTransition, useEffect, useRef, useState } from "react";
const takeOverMounts = [];
function mountInTakeOver(mount) {
	if (takeOverMounts.push(mount) === 1) queueMicrotask(() => startTransition(() => {
		for (const m of takeOverMounts.splice(0)) m();
	}));
}`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Popover[\\/]Popover\.mjs$/,
    from: `	const reference = useCallback((node) => {
		setTargetNode(node);
		popover.floating.refs.setReference(node);
	}, [popover.floating.refs.setReference]);`,
    to: `	const reference = useCallback((node) => {
		const set = () => {
			setTargetNode(node);
			popover.floating.refs.setReference(node);
		};
		if (typeof document !== "undefined" && document.documentElement.hasAttribute("data-drawn")) startTransition(set);
		else set();
	}, [popover.floating.refs.setReference]);`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Popover[\\/]Popover\.mjs$/,
    from: `import { useCallback, useRef, useState } from "react";`,
    to: `import { startTransition, useCallback, useRef, useState } from "react";`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Tooltip[\\/]Tooltip\.mjs$/,
    from: `	const targetRef = useMergedRef(tooltip.reference, getRefProp(child), ref);`,
    to: `	const setReference = tooltip.reference;
	const reference = useCallback((node) => {
		if (typeof document !== "undefined" && document.documentElement.hasAttribute("data-drawn")) startTransition(() => setReference(node));
		else setReference(node);
	}, [setReference]);
	const targetRef = useMergedRef(reference, getRefProp(child), ref);`,
  },
  {
    file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Tooltip[\\/]Tooltip\.mjs$/,
    from: `import { cloneElement, useEffect, useRef } from "react";`,
    to: `import { cloneElement, startTransition, useCallback, useEffect, useRef } from "react";`,
  },
];

export function mantinePatches(): Plugin {
  const applied = new Set<number>();
  return {
    name: 'crm-mantine-patches',
    enforce: 'pre',
    buildStart() {
      applied.clear();
    },
    buildEnd(error) {
      if (error || this.meta.watchMode) return;
      const missed = PATCHES.filter((_, i) => !applied.has(i)).map((p) => p.file.source);
      if (missed.length) throw new Error(`No module of the build matched these Mantine patches (build/mantine-patches.ts): ${missed.join(', ')}`);
    },
    transform(code, id) {
      const mine = PATCHES.filter((p) => p.file.test(id));
      if (!mine.length) return null;
      let out = code;
      for (const p of mine) {
        applied.add(PATCHES.indexOf(p));
        // A Mantine upgrade that changed the code: the build stops, to be looked at again.
        if (!out.includes(p.from)) throw new Error(`${id} has changed: check the patch in build/mantine-patches.ts`);
        out = out.replace(p.from, p.to);
      }
      return { code: out, map: null };
    },
  };
}
