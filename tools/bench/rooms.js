// @ts-check
// The rooms of tools/bench/src and which rooms each may import: the folders are the bench's stages, and
// this table is the one place that says how they depend on each other (docs/architecture.md draws it).
// eslint.config.mjs runs `bench/rooms` on every file under src/, so `nx lint bench` (and CI) fails on an
// import against the table. Plain JavaScript so that ESLint loads it without a TypeScript loader.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * Room → the rooms it may import. A room is a folder directly under src/; it is used from outside only
 * through its index.ts. Files at the top of src/ (main.ts, compare-main.ts) are entry points: they may
 * import every room, also through its index.ts. A folder missing from the table is an error, so a new
 * room is added here, with its place in the order, before it is used.
 */
const ROOMS = Object.freeze({
  cli: [],
  // The document and its records: the leaf every later room reads or writes.
  model: ['cli'],
  security: ['cli', 'model'],
  // The mesh path's sidecars speak mTLS with the run's throwaway CA.
  network: ['cli', 'model', 'security'],
  // The brokers the Nest transports go through: started on loopback or in the stage's broker namespace.
  brokers: ['cli', 'model', 'network', 'security'],
  plan: ['cli', 'model', 'network', 'security'],
  measure: ['cli', 'model', 'plan'],
  // What the reports read from a document: written by no run.
  analysis: ['cli', 'model'],
  export: ['cli', 'model', 'analysis'],
  compare: ['cli', 'model'],
  // The run frame writes the exports and the runs index.
  run: ['cli', 'model', 'export', 'compare', 'plan', 'measure', 'network', 'security', 'brokers'],
  suites: ['cli', 'model', 'analysis', 'export', 'compare', 'plan', 'measure', 'run', 'network', 'security', 'brokers'],
});

/** Folders under src/ that hold no code of their own (ambient type declarations). */
const NOT_ROOMS = Object.freeze(['types']);

/**
 * Why an import of `specifier` from the file `file` (both under `srcRoot`) breaks the order, or null when
 * it keeps it. Only relative specifiers can reach another room; packages are @nx/enforce-module-boundaries'.
 * @param {string} srcRoot absolute path of tools/bench/src
 * @param {string} file absolute path of the importing file
 * @param {string} specifier the import's source text
 * @param {Readonly<Record<string, readonly string[]>>} rooms
 * @returns {string | null}
 */
function roomViolation(srcRoot, file, specifier, rooms = ROOMS) {
  if (!specifier.startsWith('.')) return null;
  const from = path.relative(srcRoot, file).split(path.sep);
  const to = path.relative(srcRoot, path.resolve(path.dirname(file), specifier)).split(path.sep);
  if (from[0] === '..' || to[0] === '..') return null;
  const fromRoom = from.length > 1 ? from[0] : null;
  // `../plan` is a room's index.ts unless src/plan.ts is an entry point of that name.
  const toRoom = to.length > 1 || !fs.existsSync(path.join(srcRoot, `${to[0]}.ts`)) ? to[0] : null;
  if (fromRoom !== null && !(fromRoom in rooms) && !NOT_ROOMS.includes(fromRoom)) return `src/${fromRoom}/ is not a room of tools/bench/rooms.js; add it there with the rooms it may import`;
  if (toRoom === fromRoom || (toRoom !== null && NOT_ROOMS.includes(toRoom))) return null;
  if (toRoom === null && fromRoom !== null) return `a room does not import an entry point (src/${to[0]})`;
  if (toRoom === null) return null;
  if (!(toRoom in rooms)) return `src/${toRoom}/ is not a room of tools/bench/rooms.js`;
  if (fromRoom !== null && !rooms[fromRoom].includes(toRoom)) {
    const may = rooms[fromRoom].length > 0 ? rooms[fromRoom].join(', ') : 'no other room';
    return `${fromRoom}/ may not import ${toRoom}/ (it may import ${may}; tools/bench/rooms.js)`;
  }
  if (to.length > 1 && !(to.length === 2 && to[1] === 'index')) return `import ${toRoom}/ through its index.ts ('${relativeTo(file, path.join(srcRoot, toRoom))}'), not ${to.slice(1).join('/')}`;
  return null;
}

/** @param {string} file @param {string} dir */
function relativeTo(file, dir) {
  const rel = path.relative(path.dirname(file), dir);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "keep tools/bench/src's rooms in their order: each imports only the rooms tools/bench/rooms.js allows it, through their index.ts" },
    schema: [],
    messages: { order: '{{why}}' },
  },
  create(context) {
    const srcRoot = path.join(__dirname, 'src');
    /** @param {any} node */
    const check = (node) => {
      if (!node || typeof node.value !== 'string') return;
      const why = roomViolation(srcRoot, context.filename, node.value);
      if (why) context.report({ node, messageId: 'order', data: { why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

module.exports = { ROOMS, NOT_ROOMS, roomViolation, plugin: { rules: { rooms: rule } } };
