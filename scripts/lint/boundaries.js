// The web app's import boundaries (ARCHITECTURE.md, Layout): a feature imports only the kit,
// components/, lib/, the contract and its own files; components/, kit/ and lib/ import no feature
// and nothing of app/; screens that compose several features live in app/.
import path from 'node:path';

const SRC = `${path.sep}apps${path.sep}web${path.sep}src${path.sep}`;
const area = (file) => {
  const at = file.indexOf(SRC);
  if (at < 0) return null;
  const [top, name] = file.slice(at + SRC.length).split(path.sep);
  return top === 'features' ? { top, name } : { top, name: null };
};

export const boundaries = {
  meta: { type: 'problem', messages: { cross: '{{from}} may not import {{to}}: {{why}}' }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = area(file);
    if (!from) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = area(path.resolve(path.dirname(file), spec));
      if (!to) return;
      let why = null;
      if (from.top === 'features' && to.top === 'features' && to.name !== from.name) why = 'a feature imports no other feature (shared pieces go to components/ or lib/, screens composing features to app/)';
      else if (from.top === 'features' && to.top === 'app') why = 'a feature imports nothing of app/';
      else if (['components', 'lib', 'kit'].includes(from.top) && (to.top === 'features' || to.top === 'app')) why = `${from.top}/ imports no feature and nothing of app/`;
      if (why) context.report({ node, messageId: 'cross', data: { from: from.name ? `features/${from.name}` : from.top, to: to.name ? `features/${to.name}` : to.top, why } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};
