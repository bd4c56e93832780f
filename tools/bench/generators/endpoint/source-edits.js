// @ts-check
// Small, syntax-aware edits of the TypeScript files an endpoint is registered in (found with the
// TypeScript parser, so formatting and comments around them do not matter).
'use strict';
const ts = require('typescript');
const { applyChangesToString, ChangeType } = require('@nx/devkit');

/** @param {import('@nx/devkit').Tree} tree @param {string} file */
function parse(tree, file) {
  const text = tree.read(file, 'utf-8');
  if (text === null) throw new Error(`${file} does not exist`);
  return { text, source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) };
}

/** @param {ts.Node} node @param {(n: ts.Node) => boolean} test @returns {ts.Node | undefined} */
function find(node, test) {
  if (test(node)) return node;
  return ts.forEachChild(node, (child) => find(child, test));
}

/** Adds an import line after the file's last import. @param {import('@nx/devkit').Tree} tree @param {string} file @param {string} line */
function addImport(tree, file, line) {
  const { text, source } = parse(tree, file);
  const imports = source.statements.filter(ts.isImportDeclaration);
  const index = imports.length > 0 ? imports[imports.length - 1].getEnd() : 0;
  tree.write(file, applyChangesToString(text, [{ type: ChangeType.Insert, index, text: `${imports.length > 0 ? '\n' : ''}${line}${imports.length > 0 ? '' : '\n'}` }]));
}

/**
 * Appends `items` to the array literal that `name` is set to (`name: [...]`, `const name = [...]` or
 * `const name = Object.freeze([...])`): one item per line in a multi-line or empty array, else inline.
 * @param {import('@nx/devkit').Tree} tree @param {string} file @param {string} name @param {string[]} items
 */
function appendToArray(tree, file, name, items) {
  const { text, source } = parse(tree, file);
  const owner = find(
    source,
    (n) => (ts.isPropertyAssignment(n) || ts.isVariableDeclaration(n)) && n.name.getText() === name && n.initializer !== undefined,
  );
  const array = owner && find(owner, ts.isArrayLiteralExpression);
  if (!array || !ts.isArrayLiteralExpression(array)) throw new Error(`${file}: no array literal named ${name} to add ${items.join(', ')} to`);
  const elements = array.elements;
  const multiLine = elements.length === 0 || array.getText().includes('\n');
  const last = elements[elements.length - 1];
  const indent = multiLine ? ' '.repeat(2 + (text.slice(0, array.getStart()).split('\n').pop() ?? '').search(/\S|$/)) : '';
  const insertion =
    elements.length === 0
      ? { index: array.getStart() + 1, text: items.map((item) => `\n${indent}${item},`).join('') + '\n' }
      : multiLine
        ? { index: last.getEnd(), text: items.map((item) => `,\n${indent}${item}`).join('') }
        : { index: last.getEnd(), text: items.map((item) => `, ${item}`).join('') };
  tree.write(file, applyChangesToString(text, [{ type: ChangeType.Insert, ...insertion }]));
}

module.exports = { addImport, appendToArray };
