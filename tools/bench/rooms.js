// @ts-check
// The rooms of tools/bench/src and which rooms each may import: the folders are the bench's stages, and
// this table is the one place that says how they depend on each other (docs/architecture.md draws it).
// eslint.config.mjs runs `bench/rooms` on every file under src/, so `nx lint bench` (and CI) fails on an
// import against the table. Plain JavaScript so that ESLint loads it without a TypeScript loader.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * Room → the rooms it may import. A room is a folder directly under src/, or a sub-room `folder/sub` of a
 * folder split into sub-rooms (network/); it is used from outside only through its index.ts. Files at
 * the top of src/ (main.ts, compare-main.ts) and directly in a split folder (network/main.ts) are entry
 * points: they may import every room, also through its index.ts, and no room imports them. A folder
 * missing from the table is an error, so a new room is added here, with its place in the order, before
 * it is used.
 */
const ROOMS = Object.freeze({
  cli: [],
  // The document and its records: the leaf every later room reads or writes.
  model: ['cli'],
  security: ['cli', 'model'],
  // network/ is three sub-rooms, one on top of the other: the stage (namespaces, the wire, calibration),
  // the path built on it (names, sidecars: mTLS with the run's throwaway CA), the service built on both.
  'network/stage': ['cli', 'model'],
  'network/path': ['cli', 'model', 'security', 'network/stage'],
  'network/service': ['cli', 'model', 'security', 'network/stage', 'network/path'],
  // The brokers the Nest transports go through: started on loopback or in the stage's broker namespace.
  brokers: ['cli', 'model', 'network/stage', 'security'],
  plan: ['cli', 'model', 'network/stage', 'network/path', 'security'],
  measure: ['cli', 'model', 'plan'],
  // What the reports read from a document: written by no run.
  analysis: ['cli', 'model'],
  export: ['cli', 'model', 'analysis'],
  compare: ['cli', 'model'],
  // The run frame writes the exports and the runs index.
  run: ['cli', 'model', 'export', 'compare', 'plan', 'measure', 'network/stage', 'network/path', 'security', 'brokers'],
  suites: ['cli', 'model', 'analysis', 'export', 'compare', 'plan', 'measure', 'run', 'network/stage', 'network/path', 'network/service', 'security', 'brokers'],
});

/** Folders under src/ that hold no code of their own (ambient type declarations). */
const NOT_ROOMS = Object.freeze(['types']);

/** The folders split into sub-rooms (network for network/stage, …). @param {Readonly<Record<string, readonly string[]>>} rooms */
function splitFolders(rooms) {
  return new Set(Object.keys(rooms).filter((room) => room.includes('/')).map((room) => room.split('/')[0]));
}

/**
 * Where a file or an import's target under src/ lies, from its path's segments: in a room (`room`, and
 * `inside` it: its segments within the room, [] for its index.ts), at an entry point (`entry`), or
 * nowhere the table knows (`unknown`, why). `isFile` says whether the last segment names a file (the
 * importing file) or what an import names (a room's folder, or a file without its extension).
 * @param {string} srcRoot
 * @param {string[]} segments
 * @param {boolean} isFile
 * @param {Readonly<Record<string, readonly string[]>>} rooms
 * @returns {{ room: string, inside: string[] } | { entry: string } | { unknown: string }}
 */
function placeOf(srcRoot, segments, isFile, rooms) {
  const [folder, sub] = segments;
  const isEntryFile = (rel) => isFile || fs.existsSync(path.join(srcRoot, `${rel}.ts`));
  if (segments.length === 1) return isEntryFile(folder) ? { entry: folder } : splitFolders(rooms).has(folder) ? { unknown: splitMessage(folder, rooms) } : { room: folder, inside: [] };
  if (!splitFolders(rooms).has(folder)) return { room: folder, inside: segments.slice(1) };
  const subRoom = `${folder}/${sub}`;
  if (segments.length === 2 && !(subRoom in rooms) && isEntryFile(subRoom)) return { entry: subRoom };
  if (!(subRoom in rooms)) return { unknown: `src/${subRoom}/ is not a sub-room of tools/bench/rooms.js; add it there with the rooms it may import` };
  return { room: subRoom, inside: segments.slice(2) };
}

/** @param {string} folder @param {Readonly<Record<string, readonly string[]>>} rooms */
function splitMessage(folder, rooms) {
  const subs = Object.keys(rooms).filter((room) => room.startsWith(`${folder}/`));
  return `${folder}/ is split into sub-rooms: import one of ${subs.map((room) => `${room}/`).join(', ')} through its index.ts`;
}

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
  const fromPath = path.relative(srcRoot, file).split(path.sep);
  const toPath = path.relative(srcRoot, path.resolve(path.dirname(file), specifier)).split(path.sep);
  if (fromPath[0] === '..' || toPath[0] === '..') return null;
  if (NOT_ROOMS.includes(toPath[0])) return null;
  const from = NOT_ROOMS.includes(fromPath[0]) ? null : placeOf(srcRoot, fromPath, true, rooms);
  if (from && 'unknown' in from) return from.unknown;
  const fromRoom = from && 'room' in from ? from.room : null;
  if (fromRoom !== null && !(fromRoom in rooms)) return `src/${fromRoom}/ is not a room of tools/bench/rooms.js; add it there with the rooms it may import`;
  const to = placeOf(srcRoot, toPath, false, rooms);
  if ('unknown' in to) return to.unknown;
  if ('entry' in to) return fromRoom !== null ? `a room does not import an entry point (src/${to.entry})` : null;
  if (to.room === fromRoom) return null;
  if (!(to.room in rooms)) return `src/${to.room}/ is not a room of tools/bench/rooms.js`;
  if (fromRoom !== null && !rooms[fromRoom].includes(to.room)) {
    const may = rooms[fromRoom].length > 0 ? rooms[fromRoom].join(', ') : 'no other room';
    return `${fromRoom}/ may not import ${to.room}/ (it may import ${may}; tools/bench/rooms.js)`;
  }
  if (to.inside.length > 0 && !(to.inside.length === 1 && to.inside[0] === 'index')) return `import ${to.room}/ through its index.ts ('${relativeTo(file, path.join(srcRoot, to.room))}'), not ${to.inside.join('/')}`;
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
