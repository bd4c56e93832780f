// @ts-check
// `npx nx g ./tools/bench:endpoint --name orders`: a payload endpoint and its bench cases in one step.
// Plain JavaScript on purpose: Nx loads a local TypeScript generator only through ts-node or swc, which
// this workspace does not install (swc ships per-platform binaries that break `npm ci` here).
'use strict';
const path = require('node:path');
const { generateFiles, joinPathFragments, names } = require('@nx/devkit');
const { addImport, appendToArray } = require('./source-edits');
require('../../../../libs/payloads/scripts/require-ts');
// The names every part derives from the endpoint name, from the one place that defines them.
const { payloadNames } = require('../../../../libs/payloads/src/payload.ts');

/** The cases every endpoint starts with, in the blog's rows×requests notation. */
const CASES = [
  { suffix: '1', rows: '1', requests: '1', what: 'one item' },
  { suffix: '1k', rows: '1_000', requests: '1', what: 'one reply of 1,000 items' },
  { suffix: '1×100', alias: '1x100', rows: '1', requests: '100', what: '100 parallel requests of one item' },
];

/** @param {string} className */
function defaultItem(className) {
  return className.length > 1 && className.endsWith('s') ? className.slice(0, -1) : `${className}Item`;
}

/**
 * @param {import('@nx/devkit').Tree} tree
 * @param {{ name: string; item?: string }} options
 */
async function endpointGenerator(tree, options) {
  const derived = payloadNames(options.name);
  const n = names(options.name);
  const item = options.item ?? defaultItem(n.className);
  const builder = `libs/payloads/src/${n.fileName}/${n.fileName}.payload.ts`;
  if (tree.exists(builder)) throw new Error(`${builder} exists: endpoint ${options.name} was already generated`);
  const substitutions = { ...n, constant: n.constantName, item, route: derived.route, field: derived.field, tmpl: '' };

  generateFiles(tree, path.join(__dirname, 'files/payload'), 'libs/payloads', substitutions);
  generateFiles(tree, path.join(__dirname, 'files/server-a'), 'apps/server-a', substitutions);
  generateFiles(tree, path.join(__dirname, 'files/server-b'), 'apps/server-b', substitutions);

  // Registered like every hand-written part: the payload in the catalog and index, each controller in its module.
  addImport(tree, 'libs/payloads/src/catalog.ts', `import { ${n.constantName} } from './${n.fileName}/${n.fileName}.payload';`);
  appendToArray(tree, 'libs/payloads/src/catalog.ts', 'PAYLOADS', [n.constantName]);
  const index = tree.read('libs/payloads/src/index.ts', 'utf-8') ?? '';
  tree.write('libs/payloads/src/index.ts', `${index}export { ${n.constantName}, type ${item} } from './${n.fileName}/${n.fileName}.payload';\n`);
  for (const app of ['server-a', 'server-b']) {
    const module = joinPathFragments('apps', app, 'src/app.module.ts');
    addImport(tree, module, `import { ${n.className}Controller } from './${n.fileName}.controller';`);
    appendToArray(tree, module, 'controllers', [`${n.className}Controller`]);
  }
  appendToArray(
    tree,
    'tools/bench/src/plan/payload-cases.ts',
    'PAYLOAD_CASES',
    CASES.map(
      (c) =>
        `{ id: '${options.name}-${c.suffix}', aliases: [${c.alias ? `'${options.name}-${c.alias}'` : ''}], payload: '${options.name}', rows: ${c.rows}, requests: ${c.requests} }`,
    ),
  );

  const ids = CASES.map((c) => `${options.name}-${c.alias ?? c.suffix}`).join(',');
  return () => {
    console.log(
      `\nEndpoint ${options.name} added. Describe your data in ${builder} (the only file to edit), then:\n` +
        `  npx nx run bench:all --cases ${ids}\n`,
    );
  };
}

module.exports = endpointGenerator;
module.exports.default = endpointGenerator;
