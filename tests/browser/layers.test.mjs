// The web client's modules in layers: every import of a web/*.js file points to a strictly
// lower layer of the table below, so there is no import circle, and no view imports another
// view (a view reaches another only through a callback app.js passes in). A file of web/ not
// in the table fails: a new module is placed in a layer on purpose. Run: node --test layers.test.mjs
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import test from 'node:test';

const WEB = new URL('../../web/', import.meta.url);

// Lower numbers are lower layers. The pure modules (no DOM, no socket) are ordered among
// themselves as they import each other (format.js says things with i18n.js's words, model.js
// with format.js's); protocol.js imports nothing.
export const LAYERS = {
  'i18n.js': 0,
  'protocol.js': 0,
  'format.js': 1,
  'model.js': 2,
  'state.js': 3, // shared state, preferences, storage
  'dom.js': 4,   // DOM helpers
  'net.js': 4,   // the WebSocket transport
  // the views, one page region each
  'actions.js': 5,
  'chat.js': 5,
  'history.js': 5,
  'lobby.js': 5,
  'status.js': 5,
  'table.js': 5,
  'tournament.js': 5,
  'app.js': 6,   // the entry: frame dispatch, navigation, wiring
  'admin.js': 6, // the operator console's entry (admin.html): its own page, imports format.js only
};
export const PURE = ['i18n.js', 'protocol.js', 'format.js', 'model.js'];
export const VIEW_LAYER = 5;

/** The modules a source imports, static (`import ... from`, `import '...'`, `export ... from`)
 *  and dynamic (`import('...')`), by specifier, in order; comments are left out first. */
export function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');
  const found = [];
  const patterns = [
    /\bimport\s+(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]/g, // import x from '...', import '...'
    /\bexport\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g, // re-exports
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g, // import('...')
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push({ at: m.index, spec: m[1] });
  // A dynamic import of a computed name cannot be checked: refuse it.
  for (const m of code.matchAll(/\bimport\s*\(\s*(?!['"`][^'"`]+['"`]\s*\))/g)) found.push({ at: m.index, spec: null });
  return found.sort((a, b) => a.at - b.at).map((x) => x.spec);
}

const files = readdirSync(WEB).filter((f) => f.endsWith('.js')).sort();
const edges = files.flatMap((from) => importsOf(readFileSync(new URL(from, WEB), 'utf8')).map((spec) => ({ from, spec })));

test('the parser finds static, side-effect, re-export and dynamic imports, not ones in comments', () => {
  const src = [
    "import { a, b } from './x.js';",
    "import * as y from \"./y.js\";",
    "import {",
    "  c,",
    "} from './multi.js';",
    "import './side.js';",
    "export { d } from './re.js';",
    "const m = await import('./dyn.js');",
    "// import { e } from './commented.js';",
    "/* import('./block.js') */",
    "const n = import(name);",
  ].join('\n');
  assert.deepEqual(importsOf(src), ['./x.js', './y.js', './multi.js', './side.js', './re.js', './dyn.js', null]);
});

test('every web/*.js file has a layer in the table (and the table names no missing file)', () => {
  for (const f of files) assert.ok(f in LAYERS, `web/${f} is in no layer of layers.test.mjs: place it in one`);
  for (const f of Object.keys(LAYERS)) assert.ok(files.includes(f), `layers.test.mjs lists ${f}, which web/ does not have`);
});

test('every import is of a web/ module by its ./ path', () => {
  for (const { from, spec } of edges) {
    assert.ok(spec !== null, `web/${from}: a dynamic import of a computed name`);
    assert.match(spec, /^\.\/[\w-]+\.js$/, `web/${from} imports ${spec}: only ./module.js of web/`);
    assert.ok(files.includes(spec.slice(2)), `web/${from} imports ${spec}, which web/ does not have`);
  }
});

test('every import points to a strictly lower layer (so there is no circle)', () => {
  for (const { from, spec } of edges) {
    const to = spec.slice(2);
    assert.ok(LAYERS[to] < LAYERS[from], `web/${from} (layer ${LAYERS[from]}) imports ${to} (layer ${LAYERS[to]}): imports go down only`);
  }
});

test('no view imports another view; app.js is imported by nothing', () => {
  for (const { from, spec } of edges) {
    const to = spec.slice(2);
    assert.ok(!(LAYERS[from] === VIEW_LAYER && LAYERS[to] === VIEW_LAYER), `view ${from} imports view ${to}: pass a callback from app.js instead`);
    assert.notEqual(to, 'app.js', `web/${from} imports app.js`);
  }
});

test('the pure modules import only pure modules, and name no DOM or socket', () => {
  for (const f of PURE) {
    const src = readFileSync(new URL(f, WEB), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    for (const spec of importsOf(src)) assert.ok(PURE.includes(spec.slice(2)), `pure ${f} imports ${spec}`);
    assert.doesNotMatch(src, /\b(document|window|WebSocket|localStorage)\b/, `pure ${f} touches the DOM, storage or a socket`);
  }
});
