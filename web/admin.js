// The operator console (issue 30 item 9), at /admin: tables, tournaments, bans, the audit log,
// the ledger and hand records, through the operator API (`Authorization: Bearer <key>`).
//
// The operator key is kept in `operatorKey` below and nowhere else: not in localStorage,
// sessionStorage, a cookie or the URL. A reload (or another tab) asks for it again.
//
// The create and change forms are made from the server's own OpenAPI document
// (`GET /api/openapi.json`): every property of an operation's request body is a field (its
// type, range, default and description from the schema), so a field the API gains shows up
// here without a change. A refusal (400) is shown at the field its message names (the
// tournament core writes `levels[0].bring_in: ...`, the table rules name their field in the
// sentence, serde says "missing field `ante`"), and the whole error (status, code, message)
// above the form. Any other failed call is shown where it was made, with its method, route,
// status and the API's code and message: an operation this server does not have yet (404,
// 405) is said, not broken on.
//
// Views (the hash is the route, so the key survives navigation and Back works):
//   #/tables, #/tables/new, #/tables/ID        #/tournaments, #/tournaments/new, #/tournaments/ID
//   #/bans?player=ID&table=ID                  #/log      #/ledger?player=ID&table=ID
//   #/hands?table=ID&player=ID, #/hands/ID
// Live views (the tables, a table, the tournaments, a tournament) poll every 2 s.

import { money, variantName } from './format.js';

/** The operator key: only here, only for this tab's life. */
let operatorKey = null;

const POLL_MS = 2000;
const S = {
  signedIn: false,
  doc: null, // the OpenAPI document
  gen: 0, // bumped on each route change: pollers of an older view stop
  tables: new Map(), // id -> AdminTable, from the last list (names for other views)
  tournaments: new Map(), // id -> summary
  errorFrom: null,
};

// ---- DOM helpers --------------------------------------------------------------------------

const $ = (sel, root = document) => root.querySelector(sel);

/** An element: attributes (`testid`, `class`, `data: {...}`, `onclick`, booleans) and children. */
function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'testid') e.dataset.testid = v;
    else if (k === 'class') e.className = v;
    else if (k === 'data') {
      for (const [dk, dv] of Object.entries(v)) if (dv !== undefined && dv !== null) e.dataset[dk] = String(dv);
    } else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else if (k === 'value') e.value = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : String(kid));
  }
  return e;
}

let uid = 0;
const nextId = (base) => `${base}-${++uid}`;

/** A short status message for everyone (role=status): cleared first, so the same words said
 *  again are news again. */
let sayTimer = null;
let saidAt = 0;
function say(text) {
  saidAt = Date.now();
  const el = $('#status');
  clearTimeout(sayTimer);
  el.textContent = '';
  sayTimer = setTimeout(() => {
    el.textContent = text;
  }, 30);
}

/** A failed call shown at the top of the page (role=alert); `from` names its source, so the
 *  source's next success clears it. */
function showError(r, from = null) {
  const box = $('#error');
  box.replaceChildren(h('strong', {}, 'Error: '), errText(r));
  box.dataset.status = String(r.status);
  box.dataset.code = r.code;
  box.dataset.route = `${r.method} ${r.route}`;
  box.hidden = false;
  S.errorFrom = from;
}
function clearError(from = undefined) {
  if (from !== undefined && S.errorFrom !== from) return;
  const box = $('#error');
  box.hidden = true;
  box.replaceChildren();
  S.errorFrom = null;
}

const fmtTime = (ms) => (ms === null || ms === undefined ? '—' : new Date(Number(ms)).toLocaleString('en-GB', {
  year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
}));
const cash = (cents) => money(cents, 'cash', 'en');
const signedCash = (cents) => `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${cash(Math.abs(cents))}`;
const chips = (n) => new Intl.NumberFormat('en-US').format(Number(n) || 0);
/** An amount at a table: dollars at a cash table, chips at a chip table. */
const amountAt = (cents, display) => (display === 'chips' ? chips(cents) : cash(cents));
const gameName = (v) => (v === 'rotation' ? 'Rotation' : variantName(v));
const BETTING = { fixed_limit: 'Fixed limit', pot_limit: 'Pot limit', no_limit: 'No limit' };
const idCode = (id) => h('code', { class: 'id' }, id);
/** Words for screen readers only (a button's name: its visible text, then whose). */
const sr = (text) => h('span', { class: 'sr-only' }, text);

// ---- the API ------------------------------------------------------------------------------

/** Calls the API with the operator key: `{ok, status, code, message, json, text, method,
 *  route}`. Never throws: a network failure is status 0. A 401 while signed in signs out. */
async function api(method, route, body) {
  const headers = { Authorization: `Bearer ${operatorKey}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    return { ok: false, status: 0, code: 'network', message: `the server did not answer (${e.message})`, json: null, text: '', method, route };
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  if (res.ok) return { ok: true, status: res.status, code: '', message: '', json, text, method, route };
  const fallback = { 404: 'not_found', 405: 'method_not_allowed' }[res.status] || `http_${res.status}`;
  const r = {
    ok: false, status: res.status, code: json?.code || fallback,
    message: json?.message || text.trim() || res.statusText || `HTTP ${res.status}`, json, text, method, route,
  };
  if ((res.status === 404 || res.status === 405) && !documented(method, route)) r.undocumented = true;
  if (res.status === 401 && S.signedIn) signOut('The server no longer takes this key (401 unauthorized): sign in again.');
  return r;
}

/** The words of a failed call: method, route, status, the API's code and message. */
function errText(r) {
  const head = `${r.method} ${r.route.split('?')[0]} → ${r.status || 'no answer'} ${r.code}: ${r.message}`;
  return r.undocumented ? `${head} (this server's API document has no such operation: it may not have it yet)` : head;
}

/** Whether the OpenAPI document lists `method` on a path template matching `route`. */
function documented(method, route) {
  const paths = S.doc?.paths;
  if (!paths) return true;
  const bare = route.split('?')[0];
  return Object.entries(paths).some(([tpl, ops]) => ops[method.toLowerCase()] && new RegExp(`^${tpl.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
}

// ---- the schema ---------------------------------------------------------------------------

function deref(s) {
  let guard = 0;
  while (s && s.$ref && guard++ < 20) s = S.doc?.components?.schemas?.[s.$ref.split('/').pop()];
  return s || {};
}
/** An operation's JSON request body schema, or null when the document lacks it. */
function bodySchema(method, path) {
  const s = S.doc?.paths?.[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  return s ? deref(s) : null;
}
/** An operation's query parameters as a schema (`skip`: names left out). */
function querySchema(method, path, skip = []) {
  const params = (S.doc?.paths?.[path]?.[method]?.parameters || []).filter((p) => p.in === 'query' && !skip.includes(p.name));
  if (!params.length) return null;
  return { properties: Object.fromEntries(params.map((p) => [p.name, { ...p.schema, description: p.description }])), required: [] };
}

const LABELS = {
  name: 'Name', variant: 'Game', betting: 'Betting', ante: 'Ante', bring_in: 'Bring-in', small_bet: 'Small bet',
  big_bet: 'Big bet', max_raises: 'Raises after the first bet', open_pair_big_bet: 'Big bet on an open pair',
  seats: 'Seats', min_buy_in: 'Smallest buy-in', max_buy_in: 'Largest buy-in', action_timeout_ms: 'Time to act (ms)',
  time_bank_ms: 'Time bank (ms)', observers: 'Observers may watch', private: 'Private (invite code)', display: 'Amounts shown as',
  chat: 'Chat', rotation_hands: 'Hands per game (rotation)', rotation_games: 'Games of the rotation', kind: 'Kind',
  start_at: 'Starts at', min_entrants: 'Fewest entrants', max_entrants: 'Most entrants', seats_per_table: 'Seats per table',
  entry_fee: 'Entry fee (cents)', house_fee: 'House fee (cents)', starting_chips: 'Starting chips', levels: 'Levels',
  payouts: 'Payouts (percent by place)', late_registration_until_level: 'Late registration until level',
  reentry_until_level: 'Re-entry until level', invite_code: 'Invite code', rebuy_until_level: 'Rebuys until level',
  rebuy_chips: 'Rebuy chips', rebuy_fee: 'Rebuy fee (cents)', max_rebuys: 'Most rebuys per entry', addon_chips: 'Add-on chips',
  addon_fee: 'Add-on fee (cents)', break_every_levels: 'A break every N levels', break_minutes: 'Break length (minutes)',
  bounty: 'Bounty (cents)', progressive_bounty: 'Progressive knockout', satellite_for: 'Satellite for (tournament id)',
  tickets: 'Most tickets', repeat_minutes: 'Repeat every (minutes)', minutes: 'Minutes', hands: 'Hands',
  player_id: 'Player id', table_id: 'Table id', reason: 'Reason', now: 'At once (their hand is given up)',
  player: 'Player id', table: 'Table id', since: 'Since', limit: 'How many', id: 'Hand id',
};
const ITEM_NAMES = { levels: 'Level', rotation_games: 'Game' };
/** A list item's fields in the order one reads them (the schema's is alphabetical): a game,
 *  then its betting; a level's stakes, then its length. Others after, as they come. */
const ITEM_ORDER = ['variant', 'betting', 'ante', 'bring_in', 'small_bet', 'big_bet', 'minutes', 'hands'];
const itemRank = (name) => (ITEM_ORDER.includes(name) ? ITEM_ORDER.indexOf(name) : ITEM_ORDER.length);
const label = (name) => LABELS[name] || name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A form field from a schema property. */
function fieldOf(name, prop, required) {
  let s = prop || {};
  let nullable = false;
  const description = prop?.description;
  const dflt = prop?.default;
  if (Array.isArray(s.anyOf)) {
    const non = s.anyOf.filter((x) => x.type !== 'null');
    nullable = non.length < s.anyOf.length;
    s = non[0] || {};
  }
  s = deref(s);
  let type = s.type;
  if (Array.isArray(type)) {
    nullable = nullable || type.includes('null');
    type = type.find((t) => t !== 'null');
  }
  const f = {
    name, required, nullable, description: description ?? s.description ?? '', default: dflt ?? s.default,
    min: s.minimum, max: s.maximum, exclusiveMin: s.exclusiveMinimum, format: s.format,
  };
  if (Array.isArray(s.oneOf) && s.oneOf.length && s.oneOf.every((o) => 'const' in o)) {
    f.kind = 'enum';
    f.options = s.oneOf.map((o) => ({ value: o.const, label: o.description || String(o.const) }));
  } else if (Array.isArray(s.enum)) {
    f.kind = 'enum';
    f.options = s.enum.map((v) => ({ value: v, label: String(v) }));
  } else if (type === 'integer') f.kind = /_at$/.test(name) || name === 'since' ? 'datetime' : 'int';
  else if (type === 'number') f.kind = 'number';
  else if (type === 'boolean') f.kind = nullable ? 'tristate' : 'bool';
  else if (type === 'array') {
    const it = deref(s.items || {});
    f.minItems = s.minItems;
    f.maxItems = s.maxItems;
    if (it.properties) {
      f.kind = 'objects';
      f.item = fieldsOf(it).sort((a, b) => itemRank(a.name) - itemRank(b.name));
      f.itemName = ITEM_NAMES[name] || 'Item';
    } else {
      f.kind = 'numbers';
      f.itemMin = it.minimum;
      f.itemMax = it.maximum;
      f.itemExclusiveMin = it.exclusiveMinimum;
    }
  } else f.kind = s.format === 'uuid' ? 'uuid' : 'string';
  return f;
}
export function fieldsOf(schema) {
  const req = new Set(schema?.required || []);
  return Object.entries(schema?.properties || {}).map(([name, prop]) => fieldOf(name, prop, req.has(name)));
}
/** A patch's fields: the patch schema's properties, typed as the create schema types them (a
 *  patch's null is "no change", not a value an operator picks). */
export function patchFieldsOf(patchSchema, createSchema) {
  const create = new Map(fieldsOf(createSchema).map((f) => [f.name, f]));
  return fieldsOf(patchSchema).map((f) => {
    const c = create.get(f.name);
    if (!c) return { ...f, required: false };
    // The patch's own bounds where it has them (a tournament's rotation_hands: at most 1000).
    const bounds = Object.fromEntries(['min', 'max', 'minItems', 'maxItems'].map((k) => [k, f[k] ?? c[k]]));
    return { ...c, ...bounds, required: false, description: f.description || c.description };
  });
}

// ---- forms --------------------------------------------------------------------------------

/** A field's value as its input holds it (strings, booleans; a list: an array of objects). */
function toRaw(f, v) {
  switch (f.kind) {
    case 'bool': return v === undefined || v === null ? Boolean(f.default) : Boolean(v);
    case 'tristate': return v === true ? 'true' : v === false ? 'false' : '';
    case 'numbers': return Array.isArray(v) ? v.join(', ') : '';
    case 'datetime': return v === undefined || v === null ? '' : localInput(v);
    case 'objects': return Array.isArray(v) ? v.map((x) => rawOf(f.item, x || {})) : [];
    case 'enum': return v === undefined || v === null ? '' : String(v);
    default: return v === undefined || v === null ? '' : String(v);
  }
}
function rawOf(fields, values) {
  return Object.fromEntries(fields.map((f) => [f.name, toRaw(f, values?.[f.name] ?? (f.kind === 'bool' || f.kind === 'enum' ? f.default : undefined))]));
}
function localInput(ms) {
  const d = new Date(Number(ms));
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
function optionText(o) {
  let short = String(o.label).split(/[:(]|\. /)[0].replace(/\.$/, '').trim();
  if (!short || short.includes('`') || short.length > 40) short = String(o.value);
  return short === String(o.value) ? short : `${short} (${o.value})`;
}

/** Builds one field's control (`raw` its value as toRaw gives it) under a form context. */
function buildField(ctx, f, path, raw) {
  const id = `${ctx.idBase}-${path.replace(/[^\w]/g, '-')}`;
  const hintId = `${id}-hint`;
  const errId = `${id}-error`;
  const hint = h('p', { class: 'hint', id: hintId }, h('code', {}, path.includes('.') ? f.name : path), f.description ? ` — ${f.description.replace(/\s+/g, ' ')}` : '');
  const error = h('p', { class: 'field-error', id: errId, testid: 'admin-field-error', data: { field: path }, hidden: true });
  const common = { id, testid: 'admin-input', data: { field: path, kind: f.kind }, 'aria-describedby': `${hintId} ${errId}` };
  if (f.kind === 'objects') return buildList(ctx, f, path, raw, hint, error);
  let control;
  if (f.kind === 'bool') {
    control = h('input', { ...common, type: 'checkbox' });
    control.checked = Boolean(raw);
    return h('div', { class: 'field check', testid: 'admin-field', data: { field: path } }, control, h('label', { for: id }, label(f.name)), hint, error);
  }
  if (f.kind === 'tristate' || f.kind === 'enum') {
    const opts = [];
    if (f.kind === 'tristate') {
      opts.push(h('option', { value: '' }, ctx.patch ? 'No change' : 'Default (not set)'), h('option', { value: 'true' }, 'On'), h('option', { value: 'false' }, 'Off'));
    } else {
      if (f.nullable || !f.required) opts.push(h('option', { value: '' }, path.startsWith('rotation_games.') ? ctx.inherit || 'The table’s or tournament’s' : ctx.patch ? 'No change' : 'Default (not set)'));
      // A value the API needs and has no default for: chosen, not guessed (a new list item's game).
      else if (f.default === undefined || f.default === null) opts.push(h('option', { value: '', disabled: true }, 'Choose…'));
      for (const o of f.options) opts.push(h('option', { value: String(o.value) }, optionText(o)));
    }
    control = h('select', common, opts);
    control.value = raw;
  } else if (f.kind === 'datetime') {
    control = h('input', { ...common, type: 'datetime-local', value: raw });
  } else {
    const numeric = f.kind === 'int' || f.kind === 'number';
    control = h('input', {
      ...common, type: 'text', value: raw, inputmode: numeric ? (f.kind === 'int' ? 'numeric' : 'decimal') : undefined,
      autocomplete: 'off', spellcheck: 'false',
      placeholder: f.kind === 'numbers' ? 'e.g. 50, 30, 20' : f.kind === 'uuid' ? 'a UUID' : numeric && f.default !== undefined && f.default !== null && !ctx.patch ? `default ${f.default}` : undefined,
      list: f.kind === 'uuid' && ctx.lists?.[f.name] ? ctx.lists[f.name] : undefined,
    });
  }
  const extra = [];
  if (ctx.money?.(f, path)) {
    const out = h('output', { class: 'money', for: id, testid: 'admin-money', data: { field: path } });
    const show = () => {
      const n = Number(control.value.trim());
      out.textContent = control.value.trim() !== '' && Number.isInteger(n) ? `= ${cash(n)}` : '';
    };
    control.addEventListener('input', show);
    show();
    extra.push(out);
  }
  return h('div', { class: 'field', testid: 'admin-field', data: { field: path } },
    h('label', { for: id }, label(f.name), f.required ? h('span', { class: 'req' }, ' (required)') : null), control, extra, hint, error);
}

function buildList(ctx, f, path, raw, hint, error) {
  const items = h('ol', { class: 'items' });
  const legendId = nextId('legend');
  const count = h('p', { class: 'hint', testid: 'admin-list-count', data: { field: path } });
  const box = h('fieldset', { class: 'field list', testid: 'admin-field', data: { field: path }, 'aria-describedby': `${hint.id} ${error.id}` },
    h('legend', { id: legendId }, label(f.name), f.required ? h('span', { class: 'req' }, ' (required)') : null), hint, error, items);
  const plural = (n) => `${n} ${f.itemName.toLowerCase()}${n === 1 ? '' : 's'}`;
  /** Redraws the items from `raws`; `focus`: [index, testid] of the control to focus after. */
  const draw = (raws, focus = null) => {
    items.replaceChildren(...raws.map((r, i) => {
      const itemPath = `${path}.${i}`;
      const name = `${f.itemName} ${i + 1}`;
      const remove = h('button', {
        type: 'button', class: 'small', testid: 'admin-list-remove', data: { field: path, index: i },
        onclick: () => {
          const now = listRaw(ctx, f, path);
          now.splice(i, 1);
          draw(now, [Math.min(i, now.length - 1), null]);
          say(`${name} removed.`);
        },
      }, 'Remove', sr(` ${name.toLowerCase()}`));
      // Move up / down: the order matters (a rotation's games, the levels). At an end the
      // button stays (aria-disabled: it keeps the focus after a move there) but does nothing.
      const move = (by, testid, text) => {
        const to = i + by;
        const at = to < 0 || to >= raws.length;
        return h('button', {
          type: 'button', class: 'small', testid, data: { field: path, index: i }, 'aria-disabled': at ? 'true' : undefined,
          onclick: () => {
            if (at) return;
            const now = listRaw(ctx, f, path);
            const [it] = now.splice(i, 1);
            now.splice(to, 0, it);
            draw(now, [to, testid]);
            say(`${name} moved ${by < 0 ? 'up' : 'down'}: now ${f.itemName.toLowerCase()} ${to + 1} of ${now.length}.`);
          },
        }, text, sr(` ${name.toLowerCase()}`));
      };
      return h('li', { testid: 'admin-list-item', data: { field: path, index: i } },
        h('fieldset', { class: 'item' }, h('legend', {}, name),
          h('div', { class: 'grid' }, f.item.map((sub) => buildField(ctx, sub, `${itemPath}.${sub.name}`, r[sub.name]))),
          h('p', { class: 'field-error', id: `${ctx.idBase}-${itemPath.replace(/[^\w]/g, '-')}-error`, testid: 'admin-field-error', data: { field: itemPath }, hidden: true }),
          h('div', { class: 'item-actions' }, raws.length > 1 ? [move(-1, 'admin-list-up', 'Move up'), move(1, 'admin-list-down', 'Move down')] : null, remove)));
    }));
    const full = f.maxItems !== undefined && raws.length >= f.maxItems;
    add.hidden = full;
    count.textContent = raws.length ? `${plural(raws.length)}${full ? ` (the most there can be)` : f.maxItems !== undefined ? ` (at most ${f.maxItems})` : ''}.` : `No ${f.itemName.toLowerCase()}s${ctx.patch ? ' set' : ''}.`;
    if (focus !== null) {
      const [index, testid] = focus;
      const li = index >= 0 ? items.children[index] : null;
      const target = !li ? null : testid ? li.querySelector(`[data-testid=${testid}]`) : li.querySelector('input, select');
      (target || (add.hidden ? items.lastElementChild?.querySelector('input, select') : add) || box).focus();
    }
  };
  const add = h('button', {
    type: 'button', class: 'list-add', testid: 'admin-list-add', data: { field: path },
    onclick: () => {
      const now = listRaw(ctx, f, path);
      now.push(rawOf(f.item, {}));
      draw(now, [now.length - 1, null]);
    },
  }, `Add ${f.itemName.toLowerCase()}`);
  box.append(count, add);
  draw(raw || []);
  return box;
}

/** A list's items as their inputs hold them. */
function listRaw(ctx, f, path) {
  const n = ctx.form.querySelectorAll(`[data-testid=admin-list-item][data-field="${path}"]`).length;
  return Array.from({ length: n }, (_, i) => collectRaw(ctx, f.item, `${path}.${i}.`));
}
function collectRaw(ctx, fields, prefix = '') {
  const out = {};
  for (const f of fields) {
    const path = `${prefix}${f.name}`;
    if (f.kind === 'objects') {
      out[f.name] = listRaw(ctx, f, path);
      continue;
    }
    const el = ctx.form.querySelector(`[data-testid=admin-input][data-field="${path}"]`);
    if (!el) continue;
    out[f.name] = f.kind === 'bool' ? el.checked : el.value;
  }
  return out;
}

const rangeText = (f) => (f.min !== undefined && f.max !== undefined ? `${f.min} to ${f.max}` : f.min !== undefined ? `at least ${f.min}` : `at most ${f.max}`);

/** A field's raw value as the API takes it; a local error (a number that is not one, outside
 *  the schema's range) goes on `errors` with its path. `undefined`: left out of the body. */
export function parseField(f, raw, path, errors) {
  const bad = (message) => {
    errors.push({ path, message });
    return undefined;
  };
  switch (f.kind) {
    case 'bool': return Boolean(raw);
    case 'tristate': return raw === '' ? undefined : raw === 'true';
    case 'enum': return raw !== '' ? raw : f.required && !f.nullable ? bad('choose one') : undefined;
    case 'int': case 'number': {
      const s = String(raw).trim();
      if (s === '') return undefined;
      if (f.kind === 'int' ? !/^-?\d+$/.test(s) : !/^-?\d+(\.\d+)?$/.test(s)) return bad(f.kind === 'int' ? 'must be a whole number' : 'must be a number');
      const n = Number(s);
      if (!Number.isSafeInteger(Math.trunc(n))) return bad('is too large');
      if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) return bad(`must be ${rangeText(f)}`);
      return n;
    }
    case 'numbers': {
      const s = String(raw).trim();
      if (s === '') return undefined;
      const parts = s.split(/[\s,;]+/).filter(Boolean);
      const out = [];
      for (const p of parts) {
        if (!/^\d+(\.\d+)?$/.test(p)) return bad(`"${p}" is not a number`);
        out.push(Number(p));
      }
      return out;
    }
    case 'datetime': {
      if (raw === '') return undefined;
      const ms = new Date(raw).getTime();
      return Number.isFinite(ms) ? ms : bad('must be a date and time');
    }
    case 'uuid': {
      const s = String(raw).trim();
      if (s === '') return undefined;
      return /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s) ? s : bad('must be a UUID, like 6f0c3a52-3c1e-4f7a-9a53-6a7c8d2e1f00');
    }
    case 'objects': {
      const list = (raw || []).map((r, i) => parseFields(f.item, r, `${path}.${i}.`, errors));
      if (f.maxItems !== undefined && list.length > f.maxItems) return bad(`at most ${f.maxItems} ${f.itemName.toLowerCase()}s`);
      return list.length === 0 && (f.nullable || !f.required) ? undefined : list;
    }
    default: // string
      return raw === '' && !f.required ? undefined : raw;
  }
}
function parseFields(fields, raws, prefix, errors) {
  const out = {};
  for (const f of fields) {
    const v = parseField(f, raws[f.name], `${prefix}${f.name}`, errors);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/** A patch's body: the fields of `full` (the form's values) that differ from `before`; a
 *  group of `together` goes whole once one of it changed (a tournament's rotation: hands and
 *  games, so that a second change while one waits for the next level keeps the first's part). */
export function patchBody(full, before, together = []) {
  const sent = Object.fromEntries(Object.entries(full).filter(([k, v]) => JSON.stringify(norm(v)) !== JSON.stringify(norm(before[k] ?? null))));
  for (const group of together) {
    if (group.some((k) => k in sent)) for (const k of group) if (full[k] !== undefined) sent[k] = full[k];
  }
  return sent;
}

/** JSON with null and undefined members dropped (a patch compares values this way). */
function norm(v) {
  if (Array.isArray(v)) return v.map(norm);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, norm(x)]));
  return v;
}

/** Which field an API error's message names: `levels[0].bring_in: ...` (the tournament core,
 *  serde's type errors), "missing field `ante`" (serde), a rotation's game that cannot be
 *  played (`stud fixed_limit: small_bet ...`: the game of `body`'s `rotation_games` it names),
 *  else the first field name the sentence uses. A path with dots (`levels.0.bring_in`), or null. */
export function errorPath(message, names, body = null) {
  const m = String(message).replace(/^(Failed to deserialize the JSON body into the target type|the JSON body is not the request):\s*/, '');
  const lead = m.match(/^([a-z_]+(?:\[\d+\])*(?:\.[a-z_]+(?:\[\d+\])*)*)\s*:/);
  const game = names.includes('rotation_games') ? gameFault(m, body) : null;
  if (lead && names.includes(lead[1].split(/[.[]/)[0])) return lead[1] === 'rotation_games' && game ? game : lead[1].replace(/\[(\d+)\]/g, '.$1');
  if (game) return game;
  const tick = m.match(/`([a-z_]+)`/);
  if (tick && names.includes(tick[1])) return tick[1];
  let best = null;
  for (const n of names) {
    const re = new RegExp(`(^|[^a-z_])${n}(?![a-z_])`);
    const hit = re.exec(m);
    if (hit && (best === null || hit.index < best.at || (hit.index === best.at && n.length > best.name.length))) best = { at: hit.index, name: n };
  }
  return best?.name ?? null;
}

/** The rotation game a refusal names (`razz fixed_limit: ...`, `levels[0] stud pot_limit: ...`)
 *  among the games `body` sent: `rotation_games.N.betting` when that game's betting was chosen,
 *  `rotation_games.N` when it is the table's or tournament's; null when the body sent no list
 *  or the sentence names no game of it. */
export function gameFault(message, body) {
  const list = body?.rotation_games;
  if (!Array.isArray(list)) return null;
  const hit = String(message).match(/(?:^|[\s:])([a-z][a-z0-9_]*) (fixed_limit|pot_limit|no_limit):/);
  if (!hit) return null;
  const [, variant, betting] = hit;
  const chosen = list.findIndex((g) => g?.variant === variant && g.betting === betting);
  if (chosen >= 0) return `rotation_games.${chosen}.betting`;
  const inherited = list.findIndex((g) => g?.variant === variant && (g.betting === undefined || g.betting === null));
  return inherited >= 0 ? `rotation_games.${inherited}` : null;
}

/**
 * A form made from `fields`: `opts.testForm` (its data-form), `opts.values` (to fill it),
 * `opts.patch` (send only what changed from `values`), `opts.send(body)` -> an api() result,
 * `opts.done(result, body)`, `opts.groups` (field name -> group legend), `opts.money(f, path)`,
 * `opts.lists` (uuid field name -> datalist id), `opts.submitLabel`, `opts.together` (a patch's
 * groups of fields sent whole, patchBody), `opts.inherit` (the words of a rotation game's
 * betting left to the table's or tournament's).
 */
function buildForm(opts) {
  const form = h('form', { class: 'form', testid: 'admin-form', data: { form: opts.testForm }, novalidate: true });
  const ctx = { form, fields: opts.fields, idBase: nextId(opts.testForm), patch: Boolean(opts.patch), money: opts.money, lists: opts.lists, values: opts.values || {}, inherit: opts.inherit };
  const summary = h('div', { class: 'form-error', testid: 'admin-form-error', role: 'alert', hidden: true, tabindex: '-1' });
  const note = h('p', { class: 'form-note', testid: 'admin-form-note', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', testid: 'admin-submit' }, opts.submitLabel || 'Save');
  const raws = rawOf(opts.fields, ctx.values);
  const body = h('div', { class: 'form-body' });
  if (opts.groups) {
    const byGroup = new Map();
    for (const f of opts.fields) {
      const g = opts.groups[f.name] || 'Other';
      if (!byGroup.has(g)) byGroup.set(g, []);
      byGroup.get(g).push(f);
    }
    const order = [...new Set([...Object.values(opts.groups), 'Other'])];
    const rank = Object.keys(opts.groups);
    // In a group, the groups map's order (a field it does not name last), lists at the end.
    const place = (f) => (f.kind === 'objects' ? 1000 : 0) + (rank.includes(f.name) ? rank.indexOf(f.name) : 500);
    for (const g of order) {
      const list = byGroup.get(g)?.sort((a, b) => place(a) - place(b));
      if (!list?.length) continue;
      body.append(h('fieldset', { class: 'group' }, h('legend', {}, g), h('div', { class: 'grid' }, list.map((f) => buildField(ctx, f, f.name, raws[f.name])))));
    }
  } else body.append(h('div', { class: 'grid' }, opts.fields.map((f) => buildField(ctx, f, f.name, raws[f.name]))));
  form.append(summary, body, note, h('div', { class: 'form-actions' }, submit, opts.extraButtons || null));
  ctx.summary = summary;
  ctx.note = note;
  ctx.submit = submit;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (submit.getAttribute('aria-disabled') === 'true') return;
    clearFormErrors(ctx);
    const errors = [];
    let sent = parseFields(opts.fields, collectRaw(ctx, opts.fields), '', errors);
    if (errors.length) {
      for (const x of errors) showFieldError(ctx, x.path, x.message);
      summary.replaceChildren(`Not sent: ${errors.length === 1 ? 'one field needs' : `${errors.length} fields need`} a change (${errors.map((x) => x.path).join(', ')}).`);
      summary.dataset.status = 'local';
      summary.dataset.code = 'invalid';
      summary.dataset.field = errors[0].path;
      summary.hidden = false;
      focusField(ctx, errors[0].path);
      return;
    }
    if (opts.patch) {
      sent = patchBody(sent, opts.values || {}, opts.together);
      if (!Object.keys(sent).length) {
        note.textContent = 'Nothing to send: every field is as it was.';
        note.hidden = false;
        return;
      }
    }
    submit.setAttribute('aria-disabled', 'true');
    form.setAttribute('aria-busy', 'true');
    const r = await opts.send(sent);
    submit.removeAttribute('aria-disabled');
    form.removeAttribute('aria-busy');
    if (!r.ok) {
      showFormApiError(ctx, r, sent);
      return;
    }
    await opts.done(r, sent, ctx);
  });
  form.ctx = ctx;
  return form;
}

function clearFormErrors(ctx) {
  for (const el of ctx.form.querySelectorAll('[data-testid=admin-field-error]')) {
    el.hidden = true;
    el.textContent = '';
  }
  for (const el of ctx.form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  ctx.summary.hidden = true;
  ctx.summary.replaceChildren();
  delete ctx.summary.dataset.field;
  ctx.note.hidden = true;
}

/** The error slot for `path` (or its nearest parent with one). */
function errorSlot(ctx, path) {
  let p = path;
  while (p) {
    const el = ctx.form.querySelector(`[data-testid=admin-field-error][data-field="${p}"]`);
    if (el) return el;
    p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '';
  }
  return null;
}
function showFieldError(ctx, path, message) {
  const slot = errorSlot(ctx, path);
  if (!slot) return null;
  slot.textContent = message;
  slot.hidden = false;
  const field = slot.closest('[data-testid=admin-field], [data-testid=admin-list-item]');
  const input = field?.querySelector(`[data-testid=admin-input][data-field="${slot.dataset.field}"]`) || field?.querySelector('[data-testid=admin-input]');
  if (input) input.setAttribute('aria-invalid', 'true');
  return slot;
}
function focusField(ctx, path) {
  const slot = errorSlot(ctx, path);
  const field = slot?.closest('[data-testid=admin-field], [data-testid=admin-list-item]');
  const input = field?.querySelector(`[data-testid=admin-input][data-field="${slot.dataset.field}"]`) || field?.querySelector('input, select, button');
  (input || ctx.summary).focus();
}

/** A refusal from the API: the whole error above the form, its message at the field it names. */
function showFormApiError(ctx, r, body = null) {
  const names = ctx.fields.map((f) => f.name);
  const path = r.status === 400 || r.status === 409 ? errorPath(r.message, names, body) : null;
  const slot = path ? showFieldError(ctx, path, r.message) : null;
  ctx.summary.replaceChildren(h('strong', {}, 'Refused: '), errText(r),
    slot ? h('span', {}, ' — ', h('a', { href: `#${slot.id}`, onclick: (e) => { e.preventDefault(); focusField(ctx, slot.dataset.field); } }, `see ${slot.dataset.field}`)) : null);
  ctx.summary.dataset.status = String(r.status);
  ctx.summary.dataset.code = r.code;
  if (slot) ctx.summary.dataset.field = slot.dataset.field;
  ctx.summary.hidden = false;
  if (slot) focusField(ctx, slot.dataset.field);
  else ctx.summary.focus();
}

// ---- shared pieces ------------------------------------------------------------------------

/** A group of action buttons with its own error line. */
function actionBar(label_, ...buttons) {
  return h('div', { class: 'actions', role: 'group', 'aria-label': label_, testid: 'admin-actions' }, buttons,
    h('p', { class: 'action-error', testid: 'admin-action-error', role: 'alert', hidden: true }));
}
function actionError(btn, r) {
  const slot = btn.closest('[data-testid=admin-actions]')?.querySelector('[data-testid=admin-action-error]');
  if (!slot) return showError(r);
  slot.textContent = errText(r);
  slot.dataset.status = String(r.status);
  slot.dataset.code = r.code;
  slot.hidden = false;
}
function clearActionError(btn) {
  const slot = btn.closest('[data-testid=admin-actions]')?.querySelector('[data-testid=admin-action-error]');
  if (slot) {
    slot.hidden = true;
    slot.textContent = '';
  }
}
/** Runs `fn` (-> an api() result or true/false) for a button: busy meanwhile, the error at the
 *  button's group. */
async function runAction(btn, fn) {
  if (btn.getAttribute('aria-disabled') === 'true') return null;
  clearActionError(btn);
  btn.setAttribute('aria-disabled', 'true');
  btn.setAttribute('aria-busy', 'true');
  let r;
  try {
    r = await fn();
  } finally {
    btn.removeAttribute('aria-disabled');
    btn.removeAttribute('aria-busy');
  }
  if (r && r.ok === false) actionError(btn, r);
  return r;
}
/** A button that asks first (`question`, Yes / Keep, in place); Yes runs `action(btn)`. */
function confirming(attrs, text, question, yes, action) {
  const btn = h('button', { type: 'button', ...attrs }, text);
  btn.addEventListener('click', () => {
    if (btn.getAttribute('aria-disabled') === 'true') return;
    const back = () => {
      box.remove();
      btn.hidden = false;
      btn.focus();
    };
    const keep = h('button', { type: 'button', testid: 'admin-confirm-no', onclick: back }, 'Keep');
    const box = h('span', { class: 'confirm', role: 'group', 'aria-label': question, testid: 'admin-confirm' },
      h('span', { class: 'question' }, question), ' ',
      h('button', { type: 'button', class: 'danger', testid: 'admin-confirm-yes', onclick: async () => { back(); await action(btn); } }, yes), ' ', keep);
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') back();
    });
    btn.hidden = true;
    btn.after(box);
    keep.focus();
  });
  return btn;
}

/** Keeps a container's rows in step with `items` (by key), redrawing only the rows whose data
 *  changed; the focus stays on the same control of a redrawn row. */
function patchRows(container, items, keyOf, render) {
  const old = new Map([...container.children].map((e) => [e.dataset.key, e]));
  const focused = document.activeElement;
  let refocus = null;
  let prev = null;
  for (const item of items) {
    const key = String(keyOf(item));
    const sig = JSON.stringify(item);
    let row = old.get(key);
    if (!row || row.sig !== sig) {
      const fresh = render(item);
      fresh.dataset.key = key;
      fresh.sig = sig;
      if (row && row.children.length === fresh.children.length) {
        // Only the cells that changed are replaced: a link or button being clicked stays.
        for (const a of [...row.attributes]) if (!fresh.hasAttribute(a.name)) row.removeAttribute(a.name);
        for (const a of [...fresh.attributes]) if (row.getAttribute(a.name) !== a.value) row.setAttribute(a.name, a.value);
        [...fresh.children].forEach((cell, i) => {
          const was = row.children[i];
          if (was.outerHTML === cell.outerHTML) return;
          if (was.contains(focused) && focused?.dataset?.testid) refocus = { key, testid: focused.dataset.testid };
          was.replaceWith(cell);
        });
        row.sig = sig;
      } else {
        if (row) {
          if (row.contains(focused) && focused?.dataset?.testid) refocus = { key, testid: focused.dataset.testid };
          row.replaceWith(fresh);
        }
        row = fresh;
      }
    }
    old.delete(key);
    const want = prev ? prev.nextSibling : container.firstChild;
    if (row !== want) container.insertBefore(row, want);
    prev = row;
  }
  for (const gone of old.values()) gone.remove();
  if (refocus) container.querySelector(`[data-key="${CSS.escape(refocus.key)}"] [data-testid="${refocus.testid}"]`)?.focus();
}

/** A data table in a scrolling region that takes the keyboard (a wide table on a phone). */
function dataTable(caption, testid, heads, tbody = h('tbody')) {
  const capId = nextId('cap');
  const table = h('table', { testid }, h('caption', { id: capId }, caption),
    h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col' }, x)))), tbody);
  // The region's name differs from any section heading's (two landmarks, two names).
  return { wrap: h('div', { class: 'scroll', role: 'region', 'aria-label': `Table: ${caption}`, tabindex: '0' }, table), tbody, table };
}

/** Calls `fn` now and every `ms` while the view it belongs to is on screen. */
function every(ms, fn) {
  const gen = S.gen;
  const tick = async () => {
    if (gen !== S.gen || !S.signedIn) return;
    if (!document.hidden) {
      try {
        await fn();
      } catch (e) {
        console.warn('admin poll', e);
      }
    }
    if (gen === S.gen) setTimeout(tick, ms);
  };
  tick();
}
const stale = (gen) => gen !== S.gen || !S.signedIn;

function heading(text, testid) {
  return h('h2', { id: 'view-title', tabindex: '-1', testid }, text);
}

// ---- sign in / out ------------------------------------------------------------------------

async function signIn(e) {
  e.preventDefault();
  const input = $('#key');
  const err = $('#signin-error');
  const submit = $('[data-testid=admin-signin-submit]');
  err.hidden = true;
  input.removeAttribute('aria-invalid');
  const key = input.value.trim();
  if (!key) {
    err.textContent = 'Enter the operator key.';
    err.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  if (submit.getAttribute('aria-disabled') === 'true') return;
  submit.setAttribute('aria-disabled', 'true');
  operatorKey = key;
  const r = await api('GET', '/api/admin/tables');
  submit.removeAttribute('aria-disabled');
  if (!r.ok) {
    operatorKey = null;
    err.textContent = r.status === 401 ? 'The server refused this key (401 unauthorized).' : `Could not sign in: ${errText(r)}`;
    err.dataset.status = String(r.status);
    err.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  for (const t of r.json || []) S.tables.set(t.id, t);
  const doc = await api('GET', '/api/openapi.json');
  S.doc = doc.ok ? doc.json : null;
  input.value = '';
  S.signedIn = true;
  $('#signin').hidden = true;
  $('#nav').hidden = false;
  $('#signout').hidden = false;
  $('#view').hidden = false;
  if (!doc.ok) showError(doc);
  say('Signed in.');
  route();
}

function signOut(message = '') {
  operatorKey = null;
  S.signedIn = false;
  S.gen += 1;
  S.tables.clear();
  S.tournaments.clear();
  $('#view').replaceChildren();
  $('#view').hidden = true;
  $('#nav').hidden = true;
  $('#signout').hidden = true;
  clearError();
  $('#signin').hidden = false;
  const err = $('#signin-error');
  err.textContent = message;
  err.hidden = !message;
  document.title = 'Operator console · stud';
  $('#key').focus();
  if (!message) say('Signed out.');
}

// ---- routing ------------------------------------------------------------------------------

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [pathPart, query = ''] = hash.split('?');
  const parts = pathPart.split('/').filter(Boolean);
  return { view: parts[0] || 'tables', id: parts[1] || null, params: new URLSearchParams(query) };
}

const VIEWS = {};
function route() {
  if (!S.signedIn) return;
  S.gen += 1;
  const r = parseRoute();
  for (const a of document.querySelectorAll('[data-testid=admin-nav-link]')) {
    if (a.dataset.view === r.view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  clearError();
  // A message said just now (what led here) stays; an older one goes with its view.
  if (Date.now() - saidAt > 1500) $('#status').textContent = '';
  const view = $('#view');
  view.replaceChildren();
  view.dataset.view = r.view;
  view.dataset.id = r.id || '';
  (VIEWS[r.view] || unknownView)(view, r);
  const title = $('#view-title', view);
  document.title = `${title?.textContent || 'Operator console'} · Operator console`;
  title?.focus({ preventScroll: false });
}
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function unknownView(view, r) {
  view.append(heading('Not found'), h('p', {}, `There is no view “${r.view}”. `, h('a', { href: '#/tables' }, 'Go to the tables.')));
}

// ---- tables -------------------------------------------------------------------------------

const TABLE_GROUPS = {
  name: 'Game', variant: 'Game', betting: 'Game', rotation_hands: 'Game', rotation_games: 'Game',
  ante: 'Stakes', bring_in: 'Stakes', small_bet: 'Stakes', big_bet: 'Stakes', max_raises: 'Stakes', open_pair_big_bet: 'Stakes',
  seats: 'Seats and buy-in', min_buy_in: 'Seats and buy-in', max_buy_in: 'Seats and buy-in',
  action_timeout_ms: 'Clock', time_bank_ms: 'Clock',
  private: 'Access', observers: 'Access', chat: 'Access', display: 'Access',
};
const TABLE_MONEY = new Set(['ante', 'bring_in', 'small_bet', 'big_bet', 'min_buy_in', 'max_buy_in']);

function stakesText(s) {
  const a = (n) => amountAt(n, s.display);
  const big = s.betting === 'pot_limit' || s.betting === 'no_limit';
  return `ante ${a(s.ante)} · bring-in ${a(s.bring_in)} · ${big ? `min bet ${a(s.small_bet)}` : `${a(s.small_bet)}/${a(s.big_bet)}`}`;
}
/** A mixed table's games when its settings list none (the server's default order). */
export const DEFAULT_ROTATION = Object.freeze([{ variant: 'razz' }, { variant: 'stud' }, { variant: 'stud8' }]);

/** A rotation's games in words: "Razz, Stud (pot limit), Stud Hi/Lo", a game's betting said
 *  when it is not `betting` (the table's or tournament's own). */
export function rotationText(games, betting = 'fixed_limit') {
  return (games || []).map((g) => {
    const b = g.betting ?? betting;
    return b && b !== betting ? `${gameName(g.variant)} (${(BETTING[b] || b).toLowerCase()})` : gameName(g.variant);
  }).join(', ');
}
/** A rotation's games as data: "razz:fixed_limit stud:pot_limit" (each game's betting, or the
 *  table's or tournament's `betting` when it has none). */
export const rotationData = (games, betting = 'fixed_limit') => (games || []).map((g) => `${g.variant}:${g.betting ?? betting}`).join(' ');

function gameText(s) {
  const games = s.rotation_hands ? ` · rotation every ${s.rotation_hands} hands: ${rotationText(s.rotation_games || DEFAULT_ROTATION, s.betting)}` : '';
  return `${gameName(s.variant)}${s.betting && s.betting !== 'fixed_limit' ? ` · ${BETTING[s.betting] || s.betting}` : ''}${games}`;
}

/** A table's settings as its change form starts from: a mixed table with no list of its own
 *  shows the games it plays (the default order), so that they can be changed one by one. */
export function tableFormValues(settings) {
  if (!settings?.rotation_hands || settings.rotation_games) return settings;
  return { ...settings, rotation_games: DEFAULT_ROTATION.map((g) => ({ ...g })) };
}
function tableStates(t) {
  const st = t.status || {};
  const out = [t.paused ? 'paused' : 'running'];
  if (t.settings.private) out.push('private');
  if (st.tournament_id) out.push('tournament');
  if (t.current_hand) out.push('hand in play');
  if (!t.status) out.push('not open');
  return out;
}
const badges = (words) => words.map((w) => h('span', { class: `badge b-${w.replace(/\s+/g, '-')}` }, w));

function tableRow(t) {
  const s = t.settings;
  const st = t.status || {};
  return h('tr', {
    testid: 'admin-table-row',
    data: { tableId: t.id, paused: t.paused, private: Boolean(s.private), seatsTaken: st.seats_taken ?? 0, seats: s.seats, handsPlayed: t.hands_played, tournament: st.tournament_id || '' },
  },
  h('th', { scope: 'row' }, h('a', { href: `#/tables/${t.id}`, testid: 'admin-table-open' }, s.name)),
  h('td', { testid: 'admin-table-row-game' }, gameText(s)),
  h('td', {}, stakesText(s)),
  h('td', { testid: 'admin-table-row-seats' }, `${st.seats_taken ?? 0}/${s.seats}`),
  h('td', { testid: 'admin-table-row-players' }, (st.players || []).join(', ') || '—'),
  h('td', { testid: 'admin-table-row-hph' }, (st.hands_per_hour ?? 0).toFixed(1)),
  h('td', { testid: 'admin-table-row-hands' }, String(t.hands_played)),
  h('td', { testid: 'admin-table-row-state', data: { state: tableStates(t).join(' ') } }, badges(tableStates(t))));
}

VIEWS.tables = (view, r) => {
  if (r.id === 'new') return newTableView(view);
  if (r.id) return tableView(view, r.id);
  const { wrap, tbody } = dataTable('Open tables, refreshed every 2 seconds', 'admin-tables',
    ['Name', 'Game', 'Stakes', 'Seats taken', 'Players', 'Hands per hour', 'Hands', 'State']);
  const empty = h('p', { class: 'empty', hidden: true }, 'No open tables.');
  view.append(heading('Tables', 'admin-view-title'), h('p', { class: 'toolbar' }, h('a', { href: '#/tables/new', class: 'button', testid: 'admin-table-new' }, 'New table')), wrap, empty);
  every(POLL_MS, async () => {
    const res = await api('GET', '/api/admin/tables');
    if (!res.ok) return showError(res, 'tables');
    clearError('tables');
    const list = [...res.json].sort((a, b) => a.settings.name.localeCompare(b.settings.name) || a.id.localeCompare(b.id));
    for (const t of list) S.tables.set(t.id, t);
    patchRows(tbody, list, (t) => t.id, tableRow);
    empty.hidden = list.length > 0;
  });
};

function newTableView(view) {
  view.append(heading('New table', 'admin-view-title'), h('p', {}, h('a', { href: '#/tables' }, '← All tables')));
  const schema = bodySchema('post', '/api/admin/tables');
  if (!schema) return view.append(h('p', { class: 'error-text' }, 'The server’s API document has no POST /api/admin/tables body: the form cannot be made.'));
  view.append(buildForm({
    testForm: 'table-create', fields: fieldsOf(schema), groups: TABLE_GROUPS, submitLabel: 'Create table',
    money: (f) => TABLE_MONEY.has(f.name),
    send: (body) => api('POST', '/api/admin/tables', body),
    done: (res) => {
      say(`Table “${res.json.settings.name}” created.`);
      go(`#/tables/${res.json.id}`);
    },
  }));
}

/** Who sits where: the API's `seats` when the table view has them; otherwise worked out from
 *  the ledger (buy-ins, hands, top-ups and cash-outs at the table: the stack after the last
 *  hand) and the hand records (seat numbers, names), paired with the lobby's names. */
async function seatsOf(t, cache) {
  if (Array.isArray(t.seats)) return { source: 'api', seats: t.seats };
  const led = await api('GET', `/api/admin/ledger?table=${t.id}&limit=500`);
  if (!led.ok) return { source: 'ledger', error: led, seats: [] };
  if (cache.hands === undefined || cache.handsAt !== t.hands_played) {
    const hs = await api('GET', `/api/hands?table=${t.id}&limit=20`);
    cache.hands = hs.ok ? hs.json.hands : [];
    cache.handsAt = t.hands_played;
  }
  const pos = new Map();
  for (const l of [...led.json.entries].reverse()) {
    const p = l.player_id;
    if (l.kind === 'buy_in') pos.set(p, { player_id: p, stack: l.stack_delta, since: l.at_ms });
    else if ((l.kind === 'top_up' || l.kind === 'hand') && pos.has(p)) pos.get(p).stack += l.stack_delta;
    else if (l.kind === 'cash_out') pos.delete(p);
  }
  const known = new Map();
  for (const hd of [...cache.hands].reverse()) for (const s of hd.seats || []) known.set(s.player_id, { name: s.name, seat: s.seat, at: hd.ended_at_ms });
  const names = [...(t.status?.players || [])];
  const seats = [...pos.values()].map((x) => {
    const k = known.get(x.player_id);
    // A seat number from a hand is only good if the player has not left and sat again since.
    const seat = k && k.at >= x.since ? k.seat : null;
    if (k && names.includes(k.name)) names.splice(names.indexOf(k.name), 1);
    return { ...x, name: k?.name ?? null, seat };
  });
  const unnamed = seats.filter((x) => x.name === null);
  if (unnamed.length === 1 && names.length === 1) unnamed[0].name = names[0];
  seats.sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99) || (a.since - b.since));
  return { source: 'ledger', seats };
}

function tableView(view, id) {
  const gen = S.gen;
  const title = heading('Table', 'admin-table-title');
  const state = h('p', { class: 'state', testid: 'admin-table-state' });
  const rotationLine = h('p', { class: 'state', testid: 'admin-table-rotation', hidden: true });
  const head = h('section', { class: 'card', testid: 'admin-table', data: { tableId: id }, 'aria-labelledby': 'view-title' });
  const pause = h('button', { type: 'button', testid: 'admin-pause' }, 'Pause');
  const resume = h('button', { type: 'button', testid: 'admin-resume', hidden: true }, 'Resume');
  const close = confirming({ class: 'danger', testid: 'admin-close' }, 'Close table…', 'Finish the hand, cash everyone out and close the table?', 'Close the table', (btn) => runAction(btn, async () => {
    say('Closing: the hand in play finishes first…');
    const res = await api('POST', `/api/admin/tables/${id}/close`);
    if (res.ok) {
      say('Table closed.');
      if (!stale(gen)) go('#/tables');
    }
    return res;
  }));
  const setPaused = (paused) => async () => {
    const btn = paused ? pause : resume;
    const res = await runAction(btn, () => api('POST', `/api/admin/tables/${id}/${paused ? 'pause' : 'resume'}`));
    if (res?.ok) {
      show(res.json);
      say(paused ? 'Paused: no new hand after the current one.' : 'Resumed: dealing again.');
      (paused ? resume : pause).focus();
    }
  };
  pause.addEventListener('click', setPaused(true));
  resume.addEventListener('click', setPaused(false));
  head.append(title, state, rotationLine, actionBar('Table actions', pause, resume, close));

  // Seats.
  const seatNote = h('p', { class: 'hint', testid: 'admin-seats-note' });
  const { wrap: seatWrap, tbody: seatBody } = dataTable('Who sits where, refreshed every 2 seconds', 'admin-seats', ['Seat', 'Player', 'Player id', 'Stack', 'State', 'Actions']);
  const noSeats = h('p', { class: 'empty', testid: 'admin-seats-empty' }, 'Nobody is seated.');
  const seatsSection = h('section', { class: 'card', 'aria-labelledby': `${id}-seats` }, h('h3', { id: `${id}-seats` }, 'Seats'), seatNote, seatWrap, noSeats);

  // Invite.
  const code = h('code', { testid: 'admin-invite-code' });
  const inviteText = h('p', { testid: 'admin-invite-text' });
  const readInvite = h('button', { type: 'button', testid: 'admin-invite-read' }, 'Read the code again');
  const rotate = h('button', { type: 'button', testid: 'admin-invite-rotate' }, 'New code');
  const revoke = confirming({ testid: 'admin-invite-revoke' }, 'Revoke…', 'Revoke the code? Nobody new gets in until a new code is made.', 'Revoke the code', (btn) => inviteCall(btn, 'DELETE'));
  const inviteBar = actionBar('Invite code actions', readInvite, rotate, revoke);
  const invite = h('section', { class: 'card', testid: 'admin-invite', 'aria-labelledby': `${id}-invite` }, h('h3', { id: `${id}-invite` }, 'Invite code'), inviteText, inviteBar);
  const showCode = (c, isPrivate) => {
    invite.dataset.code = c ?? '';
    invite.dataset.private = String(Boolean(isPrivate));
    code.textContent = c ?? '';
    inviteText.replaceChildren(...(!isPrivate ? ['Public table: no invite code. Make it private under Settings to give it one.']
      : c ? ['Players join with ', code, '.'] : ['No code: it was revoked. Make a new one to let people in.']));
    rotate.hidden = !isPrivate;
    revoke.hidden = !isPrivate || !c;
  };
  const inviteCall = async (btn, method) => {
    const res = await runAction(btn, () => api(method, `/api/admin/tables/${id}/invite`));
    if (res?.ok) {
      if (res.json?.settings) show(res.json);
      else showCode(res.json?.invite_code ?? null, current?.settings.private);
      say(method === 'GET' ? `The invite code is ${res.json?.invite_code ?? 'not set'}.` : method === 'POST' ? `New invite code: ${res.json?.invite_code}.` : 'Invite code revoked.');
      if (method === 'DELETE') rotate.focus();
    }
  };
  readInvite.addEventListener('click', () => inviteCall(readInvite, 'GET'));
  rotate.addEventListener('click', () => inviteCall(rotate, 'POST'));

  // Kick by id.
  const kickSchema = bodySchema('post', '/api/admin/tables/{id}/kick');
  const kickForm = kickSchema ? buildForm({
    testForm: 'kick', fields: fieldsOf(kickSchema), submitLabel: 'Kick',
    send: (body) => api('POST', `/api/admin/tables/${id}/kick`, body),
    done: (res, body) => say(res.json?.kicked ? `Player ${body.player_id} kicked${body.now ? ' at once' : ' after this hand'}.` : `Player ${body.player_id} had no seat or connection here.`),
  }) : h('p', {}, 'The API document has no kick body.');
  const kickSection = h('section', { class: 'card', 'aria-labelledby': `${id}-kick` }, h('h3', { id: `${id}-kick` }, 'Kick a player by id'), kickForm);

  // Settings.
  const settings = h('section', { class: 'card', 'aria-labelledby': `${id}-settings` }, h('h3', { id: `${id}-settings` }, 'Settings'),
    h('p', { class: 'hint' }, 'Changes apply from the next hand; a mixed game’s rotation (hands per game, its games and their order and betting) from its next rotation point: the game in play is finished first, then the new rotation goes on with the game after it in the new list. A table that is not mixed starts rotating with its next hand once it has hands per game. Only the fields you change are sent.'));
  // Recent hands.
  const { wrap: handWrap, tbody: handBody } = dataTable('The table’s last hands', 'admin-table-hands', ['Hand', 'Ended', 'Players']);
  const noHands = h('p', { class: 'empty' }, 'No hand played yet.');
  const hands = h('section', { class: 'card', 'aria-labelledby': `${id}-hands` }, h('h3', { id: `${id}-hands` }, 'Last hands'), handWrap, noHands,
    h('p', {}, h('a', { href: `#/hands?table=${id}` }, 'Search its hands'), ' · ', h('a', { href: `#/ledger?table=${id}` }, 'Its ledger')));

  view.append(h('p', {}, h('a', { href: '#/tables' }, '← All tables')), head, seatsSection, invite, kickSection, settings, hands);

  let current = null;
  let formMade = false;
  const cache = {};
  let handsAt = -1;
  // Polls left that read the hands again after the count changed: a hand reaches the store a
  // moment after the table counts it, so the first read may not have it yet.
  let handReads = 0;
  function show(t) {
    current = t;
    S.tables.set(t.id, t);
    const s = t.settings;
    const st = t.status || {};
    title.textContent = `Table ${s.name}`;
    head.dataset.paused = String(t.paused);
    head.dataset.private = String(Boolean(s.private));
    head.dataset.handsPlayed = String(t.hands_played);
    head.dataset.currentHand = t.current_hand || '';
    head.dataset.tournament = st.tournament_id || '';
    state.replaceChildren(...[h('span', { class: 'badges' }, badges(tableStates(t))), ' ',
      `${gameText(s)} · ${stakesText(s)} · ${st.seats_taken ?? 0}/${s.seats} seats taken · ${t.hands_played} hands played · ${(st.hands_per_hour ?? 0).toFixed(1)} hands per hour`,
      t.current_hand ? h('span', {}, ' · hand in play: ', h('a', { href: `#/hands/${t.current_hand}`, testid: 'admin-current-hand' }, t.current_hand.slice(0, 8))) : null,
      st.tournament_id ? h('span', {}, ' · ', h('a', { href: `#/tournaments/${st.tournament_id}` }, 'its tournament runs it')) : null].filter(Boolean));
    showRotation(t);
    pause.hidden = t.paused;
    resume.hidden = !t.paused;
    showCode(t.invite_code ?? null, s.private);
    document.title = `Table ${s.name} · Operator console`;
  }

  /** A mixed table's rotation: its games, the one in play and the next. */
  function showRotation(t) {
    const s = t.settings;
    const st = t.status || {};
    rotationLine.hidden = !s.rotation_hands;
    if (!s.rotation_hands) {
      rotationLine.replaceChildren();
      delete rotationLine.dataset.rotationHands;
      delete rotationLine.dataset.games;
      return;
    }
    const games = s.rotation_games || DEFAULT_ROTATION;
    rotationLine.dataset.rotationHands = String(s.rotation_hands);
    rotationLine.dataset.games = rotationData(games, s.betting);
    const withBetting = (v, b) => `${gameName(v)}${b && b !== s.betting ? ` (${(BETTING[b] || b).toLowerCase()})` : ''}`;
    const now = st.variant ? `now ${withBetting(st.variant, st.config?.betting)}` : '';
    const left = st.hands_to_next_variant;
    const next = st.next_variant ? `next ${withBetting(st.next_variant, st.next_betting)}${left !== undefined && left !== null ? ` in ${left} hand${left === 1 ? '' : 's'}` : ''}` : '';
    rotationLine.replaceChildren(h('strong', {}, 'Rotation: '), `every ${s.rotation_hands} hand${s.rotation_hands === 1 ? '' : 's'}: ${rotationText(games, s.betting)}${s.rotation_games ? '' : ' (the default order)'}`,
      [now, next].filter(Boolean).length ? ` · ${[now, next].filter(Boolean).join(' · ')}` : '', '.');
  }

  every(POLL_MS, async () => {
    const res = await api('GET', `/api/admin/tables/${id}`);
    if (stale(gen)) return;
    if (!res.ok) return showError(res, 'table');
    clearError('table');
    show(res.json);
    const t = res.json;
    if (!formMade) {
      formMade = true;
      const patch = bodySchema('patch', '/api/admin/tables/{id}');
      if (!patch) settings.append(h('p', {}, 'The API document has no PATCH body for tables.'));
      else {
        const opts = {
          testForm: 'table-change', fields: patchFieldsOf(patch, bodySchema('post', '/api/admin/tables') || patch), patch: true,
          groups: TABLE_GROUPS, submitLabel: 'Save changes', money: (f) => TABLE_MONEY.has(f.name), inherit: 'The table’s betting',
          send: (body) => api('PATCH', `/api/admin/tables/${id}`, body),
          done: (r2, body) => {
            const wasMixed = Boolean(current?.settings.rotation_hands);
            show(r2.json);
            const rotated = 'rotation_hands' in body || 'rotation_games' in body;
            say(`Saved: ${Object.keys(body).join(', ')}.${rotated ? (wasMixed ? ' The new rotation takes over at the next rotation point.' : ' The table rotates from its next hand.') : ''}`);
            // Refilled from what the server now holds (the next change is against it).
            const again = buildForm({ ...opts, values: tableFormValues(r2.json.settings) });
            settings.querySelector('form').replaceWith(again);
            again.querySelector('[data-testid=admin-submit]').focus();
          },
        };
        settings.append(buildForm({ ...opts, values: tableFormValues(t.settings) }));
      }
    }
    // Seats.
    const found = await seatsOf(t, cache);
    if (stale(gen)) return;
    seatNote.textContent = t.status?.tournament_id ? 'A tournament’s table: its tournament seats and moves the players.'
      : found.source === 'api' ? '' : 'Worked out from the ledger and the hand records (this server’s table view lists no seats): stacks are as of the last hand; a seat number shows once the player has played a hand.';
    seatNote.hidden = !seatNote.textContent;
    if (found.error) showError(found.error, 'seats');
    seatWrap.querySelector('table').dataset.source = found.source;
    patchRows(seatBody, found.seats, (x) => x.player_id, (x) => seatRow(t, x));
    noSeats.hidden = found.seats.length > 0;
    // Hands.
    if (handsAt !== t.hands_played) {
      handsAt = t.hands_played;
      handReads = 3;
    }
    if (handReads > 0) {
      handReads -= 1;
      const hs = await api('GET', `/api/hands?table=${id}&limit=10`);
      if (hs.ok && !stale(gen)) {
        patchRows(handBody, hs.json.hands.slice(0, 10), (x) => x.hand_id, handRow);
        noHands.hidden = hs.json.hands.length > 0;
      }
    }
  });

  function seatRow(t, x) {
    const name = x.name ?? '(name unknown)';
    const display = t.settings.display;
    const states = [];
    if (x.sitting_out) states.push(`sitting out${x.sitting_out_reason ? ` (${x.sitting_out_reason})` : ''}`);
    if (x.connected === false) states.push('disconnected');
    const kick = (now) => async (e) => {
      const res = await runAction(e.currentTarget, () => api('POST', `/api/admin/tables/${id}/kick`, { player_id: x.player_id, now }));
      if (res?.ok) say(res.json?.kicked ? `${name} kicked${now ? ' at once' : ' (after the hand in play, if any)'}.` : `${name} had no seat or connection here.`);
    };
    return h('tr', { testid: 'admin-seat', data: { seat: x.seat ?? '', playerId: x.player_id, name: x.name ?? '', stack: x.stack } },
      h('td', { testid: 'admin-seat-number' }, x.seat ?? '—'),
      h('th', { scope: 'row', testid: 'admin-seat-name' }, name),
      h('td', { testid: 'admin-seat-player-id' }, idCode(x.player_id)),
      h('td', { testid: 'admin-seat-stack' }, amountAt(x.stack, display)),
      h('td', { testid: 'admin-seat-state' }, states.join(', ') || 'playing'),
      h('td', {}, actionBar(`Actions for ${name}`,
        h('button', { type: 'button', class: 'small', testid: 'admin-seat-kick', onclick: kick(false), title: 'After the hand in play' }, 'Kick', sr(` ${name} after the hand`)),
        h('button', { type: 'button', class: 'small', testid: 'admin-seat-kick-now', onclick: kick(true), title: 'Their hand is given up at once' }, 'Kick now', sr(`: ${name}`)),
        h('a', { class: 'button small', href: `#/bans?player=${x.player_id}&table=${id}`, testid: 'admin-seat-ban' }, 'Ban…', sr(` ${name}`)),
        h('a', { class: 'button small', href: `#/ledger?player=${x.player_id}`, testid: 'admin-seat-ledger' }, 'Ledger', sr(` of ${name}`)))));
  }
}

function handRow(hd) {
  const who = (hd.seats || []).map((s) => `${s.name} ${s.net >= 0 ? '+' : '−'}${chips(Math.abs(s.net))}`).join(', ');
  return h('tr', { testid: 'admin-hand-row', data: { handId: hd.hand_id, tableId: hd.table_id } },
    h('th', { scope: 'row' }, h('a', { href: `#/hands/${hd.hand_id}`, testid: 'admin-hand-open' }, `#${hd.number} ${gameName(hd.variant)}`)),
    h('td', {}, fmtTime(hd.ended_at_ms)),
    h('td', {}, who || '—'));
}

// ---- tournaments --------------------------------------------------------------------------

const TOURNAMENT_GROUPS = {
  name: 'The tournament', variant: 'The tournament', kind: 'The tournament', start_at: 'The tournament', repeat_minutes: 'The tournament',
  recurring: 'The tournament', min_entrants: 'The tournament', max_entrants: 'The tournament', seats_per_table: 'The tournament',
  invite_code: 'The tournament', deals: 'The tournament',
  entry_fee: 'Money', house_fee: 'Money', starting_chips: 'Money', payouts: 'Money', bounty: 'Money', progressive_bounty: 'Money',
  betting: 'Structure', levels: 'Structure', rotation_hands: 'Structure', rotation_games: 'Structure',
  late_registration_until_level: 'Structure', reentry_until_level: 'Structure', break_every_levels: 'Structure', break_minutes: 'Structure',
  rebuy_until_level: 'Rebuys and add-on', rebuy_chips: 'Rebuys and add-on', rebuy_fee: 'Rebuys and add-on', max_rebuys: 'Rebuys and add-on',
  addon_chips: 'Rebuys and add-on', addon_fee: 'Rebuys and add-on',
  satellite_for: 'Satellite', tickets: 'Satellite',
};
const CENTS = (f) => /cents/.test(f.description) && f.kind === 'int';

/** Every tournament: the operators' list (private ones too), else the public lobby's with the
 *  refusal said. */
async function tournamentList() {
  const res = await api('GET', '/api/admin/tournaments');
  if (res.ok) return { list: res.json, from: 'admin' };
  const pub = await api('GET', '/api/tournaments');
  return { list: pub.ok ? pub.json : [], from: 'public', error: res, error2: pub.ok ? null : pub };
}

const buyIn = (t) => `${cash(t.entry_fee)}${t.bounty ? ` + ${cash(t.bounty)} bounty` : ''} + ${cash(t.house_fee)} fee`;

function tournamentRow(t) {
  return h('tr', { testid: 'admin-tournament-row', data: { tournamentId: t.id, status: t.status, kind: t.kind, private: Boolean(t.private) } },
    h('th', { scope: 'row' }, h('a', { href: `#/tournaments/${t.id}`, testid: 'admin-tournament-open' }, t.name)),
    h('td', {}, gameName(t.variant)),
    h('td', {}, t.kind === 'sit_and_go' ? 'Sit and go' : `Scheduled: ${fmtTime(t.start_at)}`),
    h('td', { testid: 'admin-tournament-row-status' }, badges([t.status, ...(t.private ? ['private'] : []), ...(t.registration_open ? ['registration open'] : [])])),
    h('td', {}, `${t.entrants}/${t.max_entrants}`),
    h('td', {}, buyIn(t)),
    h('td', {}, String(t.level)),
    h('td', {}, String(t.players_left)));
}

VIEWS.tournaments = (view, r) => {
  if (r.id === 'new') return newTournamentView(view);
  if (r.id) return tournamentView(view, r.id);
  const { wrap, tbody } = dataTable('Tournaments, refreshed every 2 seconds', 'admin-tournaments',
    ['Name', 'Game', 'Kind', 'Status', 'Entrants', 'Buy-in', 'Level', 'Players left']);
  const note = h('p', { class: 'hint', testid: 'admin-tournaments-note', hidden: true });
  const empty = h('p', { class: 'empty', hidden: true }, 'No tournaments.');
  view.append(heading('Tournaments', 'admin-view-title'), h('p', { class: 'toolbar' }, h('a', { href: '#/tournaments/new', class: 'button', testid: 'admin-tournament-new' }, 'New tournament')), note, wrap, empty);
  every(POLL_MS, async () => {
    const got = await tournamentList();
    if (got.error2) return showError(got.error2, 'tournaments');
    clearError('tournaments');
    note.dataset.source = got.from;
    note.textContent = got.from === 'public' ? `The public lobby’s list (private tournaments may be missing): the operators’ list was refused (${errText(got.error)}).` : '';
    note.hidden = got.from !== 'public';
    const order = { running: 0, registering: 1, finished: 2, cancelled: 3 };
    const list = [...got.list].sort((a, b) => (order[a.status] ?? 9) - (order[b.status] ?? 9) || a.name.localeCompare(b.name));
    for (const t of list) S.tournaments.set(t.id, t);
    patchRows(tbody, list, (t) => t.id, tournamentRow);
    empty.hidden = list.length > 0;
  });
};

function tournamentDatalist() {
  const dl = h('datalist', { id: nextId('tournament-ids') });
  for (const t of S.tournaments.values()) dl.append(h('option', { value: t.id }, `${t.name} (${t.status})`));
  return dl;
}
function tableDatalist() {
  const dl = h('datalist', { id: nextId('table-ids') });
  for (const t of S.tables.values()) dl.append(h('option', { value: t.id }, t.settings.name));
  return dl;
}

function newTournamentView(view) {
  view.append(heading('New tournament', 'admin-view-title'), h('p', {}, h('a', { href: '#/tournaments' }, '← All tournaments')));
  const schema = bodySchema('post', '/api/admin/tournaments');
  if (!schema) return view.append(h('p', { class: 'error-text' }, 'The server’s API document has no POST /api/admin/tournaments body: the form cannot be made.'));
  const dl = tournamentDatalist();
  view.append(dl, buildForm({
    testForm: 'tournament-create', fields: fieldsOf(schema), groups: TOURNAMENT_GROUPS, submitLabel: 'Create tournament',
    values: { levels: [{}] }, money: CENTS, lists: { satellite_for: dl.id },
    send: (body) => api('POST', '/api/admin/tournaments', body),
    done: (res) => {
      say(`Tournament “${res.json.name}” created.`);
      go(`#/tournaments/${res.json.id}`);
    },
  }));
}

/** The fields of a tournament's PATCH: the document's, else the ones the issue names (name;
 *  rotation_games and rotation_hands for a rotation) typed as the create body types them. */
function tournamentPatchFields() {
  const create = bodySchema('post', '/api/admin/tournaments');
  const patch = bodySchema('patch', '/api/admin/tournaments/{id}');
  if (patch) return { fields: patchFieldsOf(patch, create || patch), documented: true };
  const keep = ['name', 'rotation_hands', 'rotation_games'];
  return { fields: fieldsOf(create).filter((f) => keep.includes(f.name)).map((f) => ({ ...f, required: false })), documented: false };
}

/** A tournament as its change form starts from: an operator's rotation waiting for the next
 *  level in place of the one in play (the next change is made to it). */
export function tournamentFormValues(t) {
  const p = t?.rotation_pending;
  if (!p) return t;
  return { ...t, rotation_hands: p.rotation_hands ?? null, rotation_games: p.rotation_games };
}

/** A rotation in words: "every 6 hands: Stud, Razz (pot limit)" or "one game per level: ...". */
export function rotationWords(r, betting) {
  const n = r.rotation_hands;
  return `${n ? `every ${n} hand${n === 1 ? '' : 's'}` : 'one game per level'}: ${rotationText(r.rotation_games, betting)}`;
}

function tournamentView(view, id) {
  const gen = S.gen;
  const title = heading('Tournament', 'admin-tournament-title');
  const state = h('p', { class: 'state', testid: 'admin-tournament-state' });
  const card = h('section', { class: 'card', testid: 'admin-tournament', data: { tournamentId: id }, 'aria-labelledby': 'view-title' });
  const reload = async () => {
    const res = await api('GET', `/api/tournaments/${id}`);
    if (res.ok && !stale(gen)) show(res.json);
    return res;
  };
  // Pause and resume answer the tournament (or nothing: it is read again).
  const simple = (testid, text, op, said, then) => {
    const b = h('button', { type: 'button', testid }, text);
    b.addEventListener('click', async () => {
      const res = await runAction(b, () => api('POST', `/api/admin/tournaments/${id}/${op}`));
      if (res?.ok) {
        if (res.json?.id === id) show(res.json);
        else await reload();
        say(said);
        then().focus();
      }
    });
    return b;
  };
  const pause = simple('admin-tournament-pause', 'Pause', 'pause', 'Tournament paused: no new hand, every clock stands still.', () => (resume.hidden ? title : resume));
  const resume = simple('admin-tournament-resume', 'Resume', 'resume', 'Tournament resumed: the clocks run again.', () => (pause.hidden ? title : pause));
  const cancel = confirming({ class: 'danger', testid: 'admin-tournament-cancel' }, 'Cancel tournament…', 'Cancel the tournament? Every entrant is refunded.', 'Cancel the tournament', async (btn) => {
    const res = await runAction(btn, () => api('POST', `/api/admin/tournaments/${id}/cancel`));
    if (res?.ok) {
      show(res.json);
      say('Tournament cancelled: every entrant refunded.');
      if (cancel.hidden) title.focus();
    }
  });
  // A rotation: its games; an operator's change waiting for the next level.
  const rotationLine = h('p', { class: 'state', testid: 'admin-tournament-rotation', hidden: true });
  const pendingLine = h('p', { class: 'state pending', testid: 'admin-tournament-rotation-pending', hidden: true });
  card.append(title, state, rotationLine, pendingLine, actionBar('Tournament actions', pause, resume, cancel));

  // Invite.
  const code = h('code', { testid: 'admin-invite-code' });
  const inviteText = h('p', { testid: 'admin-invite-text' });
  const inviteCall = async (btn, method) => {
    const res = await runAction(btn, () => api(method, `/api/admin/tournaments/${id}/invite`));
    if (!res?.ok) return;
    // Rotate and revoke may answer the tournament or the code: read it back either way.
    const now = method === 'GET' || res.json?.invite_code !== undefined ? res : await api('GET', `/api/admin/tournaments/${id}/invite`);
    showCode(now.ok ? now.json?.invite_code ?? null : undefined);
    say(method === 'GET' ? `The invite code is ${now.json?.invite_code ?? 'not set'}.` : method === 'POST' ? `New invite code: ${now.json?.invite_code}.` : 'Invite code revoked.');
  };
  const readInvite = h('button', { type: 'button', testid: 'admin-invite-read' }, 'Read the code');
  const rotate = h('button', { type: 'button', testid: 'admin-invite-rotate' }, 'New code');
  const revoke = confirming({ testid: 'admin-invite-revoke' }, 'Revoke…', 'Revoke the code? Nobody new can register with it.', 'Revoke the code', (btn) => inviteCall(btn, 'DELETE'));
  readInvite.addEventListener('click', () => inviteCall(readInvite, 'GET'));
  rotate.addEventListener('click', () => inviteCall(rotate, 'POST'));
  const invite = h('section', { class: 'card', testid: 'admin-invite', 'aria-labelledby': `${id}-invite` }, h('h3', { id: `${id}-invite` }, 'Invite code'), inviteText, actionBar('Invite code actions', readInvite, rotate, revoke));
  // The code is read on request only: the server logs every read (a code lets people in).
  let isPrivate = false;
  let known; // the code last read (null: none), undefined until read
  const showCode = (c) => {
    known = c;
    invite.dataset.code = c ?? '';
    invite.dataset.private = String(isPrivate);
    code.textContent = c ?? '';
    inviteText.replaceChildren(...(c ? ['Players register with ', code, '.']
      : c === null ? [isPrivate ? 'No code now.' : 'Public: registering needs no code.']
        : [isPrivate ? 'Private: players register with its code. Reading it is written to the audit log.' : 'Public: registering needs no code.']));
  };

  const entrants = dataTable('Entrants', 'admin-entrants', ['Name', 'Player id', 'Entry', 'State', 'Chips', 'Table / seat', 'Place', 'Prize', 'Rebuys']);
  const tables = dataTable('Tables in play', 'admin-tournament-tables', ['Table', 'Hands', 'Players']);
  const prizes = dataTable('Payouts and results', 'admin-tournament-results', ['Place', 'Percent', 'Prize', 'Player']);
  const structure = dataTable('Levels', 'admin-tournament-levels', ['Level', 'Ante', 'Bring-in', 'Small bet', 'Big bet', 'Length']);
  const settings = h('section', { class: 'card', 'aria-labelledby': `${id}-change` }, h('h3', { id: `${id}-change` }, 'Change'));
  const section = (hid, text, ...kids) => h('section', { class: 'card', 'aria-labelledby': hid }, h('h3', { id: hid }, text), ...kids);
  view.append(h('p', {}, h('a', { href: '#/tournaments' }, '← All tournaments')), card, invite,
    section(`${id}-entrants`, 'Entrants', entrants.wrap), section(`${id}-tables`, 'Tables', tables.wrap),
    section(`${id}-results`, 'Payouts and results', prizes.wrap), section(`${id}-levels`, 'Structure', structure.wrap), settings);

  let formMade = false;
  function show(t) {
    S.tournaments.set(t.id, t);
    isPrivate = Boolean(t.private);
    title.textContent = `Tournament ${t.name}`;
    document.title = `Tournament ${t.name} · Operator console`;
    card.dataset.status = t.status;
    card.dataset.private = String(isPrivate);
    card.dataset.level = String(t.level);
    const bits = [
      gameName(t.variant), t.kind === 'sit_and_go' ? 'sit and go' : `scheduled for ${fmtTime(t.start_at)}`,
      `level ${t.level}`, `${t.entrants?.length ?? 0} entries`, `pool ${cash(t.pool ?? 0)}`, `buy-in ${buyIn(t)}`,
      `${chips(t.starting_chips)} chips`,
    ];
    const paused = Boolean(t.paused_since ?? t.paused);
    if (t.paused_since) bits.push(`paused since ${fmtTime(t.paused_since)}`);
    if (t.on_break_until) bits.push(`on a break until ${fmtTime(t.on_break_until)}`);
    if (t.deal) bits.push(`deal ${t.deal.state}`);
    if (t.recurring) bits.push('opens again when it starts');
    if (t.repeat_minutes) bits.push(`repeats every ${t.repeat_minutes} minutes`);
    if (t.hand_for_hand) bits.push('hand for hand');
    if (t.next_id) bits.push(`next: ${t.next_id}`);
    state.replaceChildren(h('span', { class: 'badges' }, badges([t.status, ...(isPrivate ? ['private'] : []), ...(t.registration_open ? ['registration open'] : []), ...(paused ? ['paused'] : [])])), ' ', bits.join(' · '));
    card.dataset.paused = String(paused);
    showRotation(t);
    // Pause and resume are for a running tournament; cancelling for one not started yet.
    pause.hidden = t.status !== 'running' || paused;
    resume.hidden = t.status !== 'running' || !paused;
    cancel.hidden = t.status !== 'registering';
    // A public tournament has no code to change (a new one would not make it private).
    rotate.hidden = !isPrivate;
    revoke.hidden = !isPrivate;
    if (known === undefined) showCode(undefined);
    patchRows(entrants.tbody, t.entrants || [], (e) => `${e.player_id}:${e.entry}`, (e) => h('tr', { testid: 'admin-entrant', data: { playerId: e.player_id, state: e.state, entry: e.entry, chips: e.chips } },
      h('th', { scope: 'row' }, e.name), h('td', {}, idCode(e.player_id)), h('td', {}, String(e.entry)), h('td', {}, e.state),
      h('td', {}, chips(e.chips)), h('td', {}, e.table ? `${e.table} / ${e.seat ?? '—'}` : '—'), h('td', {}, e.place ?? '—'),
      h('td', {}, e.prize !== undefined && e.prize !== null ? cash(e.prize) : '—'), h('td', {}, `${e.rebuys ?? 0}${e.addon ? ' + add-on' : ''}`)));
    const names = new Map((t.entrants || []).map((e) => [e.player_id, e.name]));
    patchRows(tables.tbody, t.tables || [], (x) => x.table, (x) => h('tr', { testid: 'admin-tournament-table', data: { table: x.table } },
      h('th', { scope: 'row' }, `Table ${x.table}`), h('td', {}, String(x.hands)), h('td', {}, x.players.map((p) => names.get(p) || p).join(', '))));
    const results = new Map((t.results || []).map((x) => [x.place, x]));
    const rows = (t.payouts || []).map((p, i) => ({ place: i + 1, percent: p, prize: t.prizes?.[i], who: results.get(i + 1) }));
    for (const x of t.results || []) if (!rows.some((r) => r.place === x.place)) rows.push({ place: x.place, who: x, prize: x.prize });
    patchRows(prizes.tbody, rows, (x) => x.place, (x) => h('tr', { testid: 'admin-tournament-result', data: { place: x.place } },
      h('th', { scope: 'row' }, String(x.place)), h('td', {}, x.percent !== undefined ? `${x.percent}%` : '—'),
      h('td', {}, x.prize !== undefined ? cash(x.prize) : '—'), h('td', {}, x.who ? x.who.name : '—')));
    patchRows(structure.tbody, (t.levels || []).map((l, i) => ({ ...l, n: i + 1 })), (l) => l.n, (l) => h('tr', { testid: 'admin-tournament-level', data: { level: l.n }, 'aria-current': l.n === t.level ? 'step' : undefined },
      h('th', { scope: 'row' }, String(l.n)), h('td', {}, chips(l.ante)), h('td', {}, chips(l.bring_in)), h('td', {}, chips(l.small_bet)),
      h('td', {}, chips(l.big_bet ?? 0)), h('td', {}, l.minutes ? `${l.minutes} min` : `${l.hands} hands`)));
    if (!formMade) {
      formMade = true;
      const { fields, documented: known } = tournamentPatchFields();
      const opts = {
        testForm: 'tournament-change', fields, patch: true, submitLabel: 'Save changes', values: tournamentFormValues(t),
        together: [['rotation_hands', 'rotation_games']], inherit: 'The tournament’s betting',
        send: (body) => api('PATCH', `/api/admin/tournaments/${id}`, body),
        done: async (res, body) => {
          const fresh = res.json?.id ? res : await reload();
          if (fresh.ok) show(fresh.json);
          const rotated = 'rotation_hands' in body || 'rotation_games' in body;
          const waits = fresh.ok && fresh.json.rotation_pending;
          say(`Saved: ${Object.keys(body).join(', ')}.${rotated ? (waits ? ' The new rotation takes over at the next level.' : ' The new rotation applies now.') : ''}`);
          const old = settings.querySelector('form');
          const again = buildForm({ ...opts, values: tournamentFormValues(fresh.ok ? fresh.json : t) });
          old.replaceWith(again);
          again.querySelector('[data-testid=admin-submit]').focus();
        },
      };
      settings.append(h('p', { class: 'hint' }, known ? 'Only the fields you change are sent (a rotation’s hands per game and games together).' : 'This server’s API document has no PATCH for tournaments yet: a change may be refused (the error shows here).'),
        fields.some((f) => f.name.startsWith('rotation_')) ? h('p', { class: 'hint' }, 'A rotation’s hands per game and games (only a rotation tournament’s): before the start they apply at once; while it runs, from the next level, each table going on with the game after the one it played last. The form shows a change waiting for the next level, if there is one.') : null,
        buildForm(opts));
    }
  }

  function showRotation(t) {
    const games = t.rotation_games;
    rotationLine.hidden = !games?.length;
    rotationLine.dataset.rotationHands = t.rotation_hands ?? '';
    rotationLine.dataset.games = rotationData(games, t.betting);
    rotationLine.replaceChildren(...(games?.length ? [h('strong', {}, 'Rotation: '), `${rotationWords(t, t.betting)}${t.game ? ` · now ${gameName(t.game)}` : ''}.`] : []));
    const p = t.rotation_pending;
    pendingLine.hidden = !p;
    pendingLine.dataset.rotationHands = p?.rotation_hands ?? '';
    pendingLine.dataset.games = p ? rotationData(p.rotation_games, t.betting) : '';
    if (!p) return pendingLine.replaceChildren();
    const when = [`level ${t.level + 1}`];
    if (t.next_level_at) when.push(`at ${fmtTime(t.next_level_at)}`);
    else if (t.hands_to_next_level !== undefined && t.hands_to_next_level !== null) when.push(`in ${t.hands_to_next_level} hand${t.hands_to_next_level === 1 ? '' : 's'}`);
    pendingLine.replaceChildren(h('strong', {}, 'From the next level: '), `${rotationWords(p, t.betting)} (${when.join(', ')}; each table goes on with the game after the one it played last).`);
  }

  every(POLL_MS, async () => {
    const res = await api('GET', `/api/tournaments/${id}`);
    if (stale(gen)) return;
    if (!res.ok) return showError(res, 'tournament');
    clearError('tournament');
    show(res.json);
  });
}

// ---- bans ---------------------------------------------------------------------------------

VIEWS.bans = (view, r) => {
  const gen = S.gen;
  view.append(heading('Bans', 'admin-view-title'));
  const schema = bodySchema('post', '/api/admin/bans');
  const dl = tableDatalist();
  const { wrap, tbody } = dataTable('Every ban', 'admin-bans', ['Player id', 'Where', 'Since', 'Reason', 'Actions']);
  const empty = h('p', { class: 'empty', testid: 'admin-bans-empty', hidden: true }, 'Nobody is banned.');
  const load = async () => {
    const res = await api('GET', '/api/admin/bans');
    if (stale(gen)) return;
    if (!res.ok) return showError(res, 'bans');
    clearError('bans');
    const list = [...res.json].sort((a, b) => b.at_ms - a.at_ms);
    patchRows(tbody, list, (b) => `${b.player_id}:${b.table_id ?? ''}`, banRow);
    empty.hidden = list.length > 0;
  };
  const banRow = (b) => {
    const where = b.table_id ? `table ${S.tables.get(b.table_id)?.settings.name ?? b.table_id}` : 'the whole server';
    const remove = h('button', { type: 'button', class: 'small', testid: 'admin-ban-remove' }, 'Lift', sr(` the ban on ${b.player_id} from ${where}`));
    remove.addEventListener('click', async () => {
      const q = new URLSearchParams({ player_id: b.player_id });
      if (b.table_id) q.set('table_id', b.table_id);
      const res = await runAction(remove, () => api('DELETE', `/api/admin/bans?${q}`));
      if (res?.ok) {
        say(`Ban on ${b.player_id} lifted.`);
        await load();
        $('#view-title')?.focus();
      }
    });
    return h('tr', { testid: 'admin-ban-row', data: { playerId: b.player_id, tableId: b.table_id ?? '' } },
      h('th', { scope: 'row' }, idCode(b.player_id)), h('td', {}, b.table_id ? h('a', { href: `#/tables/${b.table_id}` }, where) : where),
      h('td', {}, fmtTime(b.at_ms)), h('td', { testid: 'admin-ban-reason' }, b.reason || '—'), h('td', {}, actionBar(`Ban on ${b.player_id}`, remove)));
  };
  const form = schema ? buildForm({
    testForm: 'ban', fields: fieldsOf(schema), submitLabel: 'Ban', lists: { table_id: dl.id },
    values: { player_id: r.params.get('player') || undefined, table_id: r.params.get('table') || undefined },
    send: (body) => api('POST', '/api/admin/bans', body),
    done: async (res, body, ctx) => {
      say(`Banned ${body.player_id} from ${body.table_id ? 'the table' : 'the whole server'}.`);
      ctx.form.reset();
      for (const el of ctx.form.querySelectorAll('[data-testid=admin-input]')) if (el.type !== 'checkbox') el.value = '';
      await load();
    },
  }) : h('p', {}, 'The API document has no ban body.');
  view.append(dl, h('section', { class: 'card', 'aria-labelledby': 'ban-add' }, h('h3', { id: 'ban-add' }, 'Ban a player'),
    h('p', { class: 'hint' }, 'A banned player is removed at once: from the table, or from every table when no table is given.'), form),
  h('section', { class: 'card', 'aria-labelledby': 'ban-list' }, h('h3', { id: 'ban-list' }, 'Bans'), wrap, empty));
  if (!S.tables.size) api('GET', '/api/admin/tables').then((res) => {
    if (!res.ok) return;
    for (const t of res.json) {
      S.tables.set(t.id, t);
      dl.append(h('option', { value: t.id }, t.settings.name));
    }
  });
  load();
};

// ---- the audit log ------------------------------------------------------------------------

VIEWS.log = (view) => {
  const gen = S.gen;
  const limitId = nextId('log-limit');
  const filterId = nextId('log-filter');
  const limit = h('select', { id: limitId, testid: 'admin-log-limit' }, [50, 100, 500, 1000].map((n) => h('option', { value: String(n) }, String(n))));
  limit.value = '100';
  const filter = h('input', { id: filterId, type: 'search', testid: 'admin-log-filter', autocomplete: 'off' });
  const refresh = h('button', { type: 'button', testid: 'admin-log-refresh' }, 'Refresh');
  const { wrap, tbody } = dataTable('The operators’ audit log, newest first', 'admin-log', ['When', 'Operator', 'Action', 'Target', 'Request']);
  const count = h('p', { class: 'hint', testid: 'admin-log-count' });
  let lines = [];
  const draw = () => {
    const q = filter.value.trim().toLowerCase();
    const shown = q ? lines.filter((l) => JSON.stringify(l).toLowerCase().includes(q)) : lines;
    patchRows(tbody, shown.map((l, i) => ({ ...l, i })), (l) => `${l.at_ms}:${lines.length - l.i}`, logRow);
    count.textContent = `${shown.length} of ${lines.length} lines shown.`;
  };
  const load = async () => {
    const res = await runAction(refresh, () => api('GET', `/api/admin/log?limit=${limit.value}`));
    if (stale(gen) || !res?.ok) return;
    lines = res.json;
    draw();
  };
  refresh.addEventListener('click', load);
  limit.addEventListener('change', load);
  filter.addEventListener('input', draw);
  view.append(heading('Audit log', 'admin-view-title'),
    h('div', { class: 'toolbar' }, h('label', { for: limitId }, 'Lines '), limit, ' ', h('label', { for: filterId }, 'Filter '), filter, ' ', actionBar('Log actions', refresh)),
    count, wrap);
  load();
};

function targetLink(target) {
  if (!target) return '—';
  if (S.tables.has(target)) return h('a', { href: `#/tables/${target}` }, `table ${S.tables.get(target).settings.name}`);
  if (S.tournaments.has(target)) return h('a', { href: `#/tournaments/${target}` }, `tournament ${S.tournaments.get(target).name}`);
  return idCode(target);
}
function logRow(l) {
  const detail = l.detail === null || l.detail === undefined ? '' : JSON.stringify(l.detail);
  return h('tr', { testid: 'admin-log-row', data: { action: l.action, target: l.target ?? '', operator: l.operator, at: l.at_ms } },
    h('td', {}, fmtTime(l.at_ms)), h('td', {}, l.operator), h('th', { scope: 'row', testid: 'admin-log-action' }, l.action),
    h('td', {}, targetLink(l.target)), h('td', {}, detail && detail !== 'null' ? h('code', { class: 'json' }, detail) : '—'));
}

// ---- the ledger ---------------------------------------------------------------------------

const LEDGER_KINDS = {
  issue: 'money issued', buy_in: 'buy-in', top_up: 'top-up', cash_out: 'cash-out', hand: 'hand', tournament_entry: 'tournament entry',
  tournament_refund: 'tournament refund', tournament_prize: 'tournament prize', tournament_rebuy: 'rebuy', tournament_addon: 'add-on',
  tournament_bounty: 'bounty',
};

VIEWS.ledger = (view, r) => {
  const gen = S.gen;
  const { wrap, tbody } = dataTable('Ledger lines, newest first', 'admin-ledger', ['When', 'What', 'Player', 'Table or tournament', 'Balance', 'Stack', 'Hand']);
  const more = h('button', { type: 'button', testid: 'admin-ledger-more', hidden: true }, 'Older lines');
  const count = h('p', { class: 'hint', testid: 'admin-ledger-count' });
  let rows = [];
  let cursor = null;
  let query = null;
  const page = async (btn, fresh) => {
    const q = new URLSearchParams(query);
    if (!fresh && cursor) q.set('cursor', cursor);
    const res = fresh ? await api('GET', `/api/admin/ledger?${q}`) : await runAction(btn, () => api('GET', `/api/admin/ledger?${q}`));
    if (stale(gen) || !res) return res;
    if (!res.ok) return res;
    rows = fresh ? res.json.entries : rows.concat(res.json.entries);
    cursor = res.json.next_cursor ?? null;
    patchRows(tbody, rows.map((l, i) => ({ ...l, i })), (l) => l.i, ledgerRow);
    more.hidden = !cursor;
    count.textContent = `${rows.length} line${rows.length === 1 ? '' : 's'}${cursor ? ' (older ones on the next page)' : ''}.`;
    return res;
  };
  more.addEventListener('click', () => page(more, false));
  const schema = querySchema('get', '/api/admin/ledger', ['cursor']);
  const values = { player: r.params.get('player') || undefined, table: r.params.get('table') || undefined };
  const form = buildForm({
    testForm: 'ledger', fields: fieldsOf(schema || { properties: {} }), submitLabel: 'Show', values,
    send: async (body) => {
      query = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
      return page(null, true);
    },
    done: () => say(`${rows.length} ledger line${rows.length === 1 ? '' : 's'}.`),
  });
  view.append(heading('Ledger', 'admin-view-title'), h('section', { class: 'card', 'aria-labelledby': 'ledger-q' }, h('h3', { id: 'ledger-q' }, 'Which lines'), form),
    h('section', { class: 'card', 'aria-labelledby': 'ledger-lines' }, h('h3', { id: 'ledger-lines' }, 'Lines'), count, wrap, actionBar('Ledger pages', more)));
  form.requestSubmit();
};

function ledgerRow(l) {
  const where = l.table_id ? targetLink(l.table_id) : '—';
  return h('tr', { testid: 'admin-ledger-row', data: { kind: l.kind, playerId: l.player_id, tableId: l.table_id ?? '', balanceDelta: l.balance_delta, stackDelta: l.stack_delta, handId: l.hand_id ?? '' } },
    h('td', {}, fmtTime(l.at_ms)), h('th', { scope: 'row' }, LEDGER_KINDS[l.kind] || l.kind),
    h('td', {}, h('a', { href: `#/ledger?player=${l.player_id}`, title: 'This player’s lines' }, idCode(l.player_id))),
    h('td', {}, where), h('td', {}, signedCash(l.balance_delta)), h('td', {}, l.stack_delta ? signedCash(l.stack_delta) : '—'),
    h('td', {}, l.hand_id ? h('a', { href: `#/hands/${l.hand_id}` }, l.hand_id.slice(0, 8)) : '—'));
}

// ---- hands --------------------------------------------------------------------------------

VIEWS.hands = (view, r) => {
  if (r.id) return handView(view, r.id);
  const gen = S.gen;
  const lookup = buildForm({
    testForm: 'hand-lookup', submitLabel: 'Look up',
    fields: [{ name: 'id', kind: 'uuid', required: true, description: 'a hand’s id (from the ledger, a table’s last hands, a player’s report)' }],
    send: async (body) => (body.id ? { ok: true, json: body } : { ok: false, status: 'local', code: 'missing', message: 'id: give a hand id', method: 'GET', route: '/api/hands/{id}' }),
    done: (res) => go(`#/hands/${res.json.id.toLowerCase()}`),
  });
  const { wrap, tbody } = dataTable('Hands, newest first', 'admin-hands', ['Hand', 'Ended', 'Players']);
  const more = h('button', { type: 'button', testid: 'admin-hands-more', hidden: true }, 'Older hands');
  let rows = [];
  let cursor = null;
  let query = {};
  const page = async (fresh) => {
    const q = new URLSearchParams(query);
    if (!fresh && cursor) q.set('cursor', cursor);
    const res = await api('GET', `/api/hands?${q}`);
    if (stale(gen) || !res.ok) return res;
    rows = fresh ? res.json.hands : rows.concat(res.json.hands);
    cursor = res.json.next_cursor ?? null;
    patchRows(tbody, rows, (x) => x.hand_id, handRow);
    more.hidden = !cursor;
    return res;
  };
  more.addEventListener('click', async () => {
    const res = await runAction(more, () => page(false));
    if (res?.ok) say(`${rows.length} hands.`);
  });
  const schema = querySchema('get', '/api/hands', ['cursor', 'format']);
  const search = buildForm({
    testForm: 'hand-search', fields: fieldsOf(schema || { properties: {} }), submitLabel: 'Search',
    values: { table: r.params.get('table') || undefined, player: r.params.get('player') || undefined, limit: 20 },
    send: (body) => {
      query = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
      return page(true);
    },
    done: () => say(`${rows.length} hand${rows.length === 1 ? '' : 's'} found.`),
  });
  view.append(heading('Hands', 'admin-view-title'),
    h('section', { class: 'card', 'aria-labelledby': 'hand-l' }, h('h3', { id: 'hand-l' }, 'Look a hand up'), lookup),
    h('section', { class: 'card', 'aria-labelledby': 'hand-s' }, h('h3', { id: 'hand-s' }, 'Search'), search, wrap, actionBar('Hand pages', more)));
  search.requestSubmit();
};

function actionText(a) {
  const k = a.kind.replace(/_/g, ' ');
  if (a.to !== undefined) return `${k} to ${chips(a.to)}`;
  if (a.declaration) return `${k} ${a.declaration}`;
  return k;
}

async function download(btn, id, format) {
  const res = await runAction(btn, () => api('GET', `/api/hands/${id}?format=${format}`));
  if (!res?.ok) return;
  const url = URL.createObjectURL(new Blob([res.text], { type: 'text/plain' }));
  const a = h('a', { href: url, download: `hand-${id}.${format === 'phh' ? 'phh' : 'txt'}`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  say(`Downloaded the hand as ${format === 'phh' ? 'PHH' : 'text'}.`);
}

async function handView(view, id) {
  const gen = S.gen;
  view.append(h('p', {}, h('a', { href: '#/hands' }, '← Hands')), heading('Hand', 'admin-hand-title'));
  const res = await api('GET', `/api/hands/${id}`);
  if (stale(gen)) return;
  if (!res.ok) {
    view.append(h('p', { class: 'error-text', testid: 'admin-hand-error', role: 'alert', data: { status: res.status, code: res.code } }, errText(res)));
    return;
  }
  const d = res.json;
  const rec = d.record || {};
  const cfg = rec.config || {};
  const names = new Map((d.seats || []).map((s) => [s.seat, s.name]));
  const who = (seat) => names.get(seat) ?? `seat ${seat}`;
  const title = $('#view-title', view);
  title.textContent = `Hand #${d.number} · ${gameName(d.variant)}`;
  document.title = `${title.textContent} · Operator console`;
  const tableName = S.tables.get(d.table_id)?.settings.name;
  const card = h('section', { class: 'card', testid: 'admin-hand', data: { handId: d.hand_id, tableId: d.table_id }, 'aria-labelledby': 'view-title' },
    h('dl', { class: 'facts' },
      h('dt', {}, 'Hand id'), h('dd', {}, idCode(d.hand_id)),
      h('dt', {}, 'Table'), h('dd', {}, h('a', { href: `#/tables/${d.table_id}` }, tableName || d.table_id)),
      d.tournament ? [h('dt', {}, 'Tournament'), h('dd', {}, h('a', { href: `#/tournaments/${d.tournament.tournament_id}` }, `level ${d.tournament.level}`))] : null,
      h('dt', {}, 'Started'), h('dd', {}, fmtTime(d.started_at_ms)),
      h('dt', {}, 'Ended'), h('dd', {}, fmtTime(d.ended_at_ms)),
      h('dt', {}, 'Stakes'), h('dd', {}, `ante ${chips(cfg.ante)} · bring-in ${chips(cfg.bring_in)} · ${chips(cfg.small_bet)}/${chips(cfg.big_bet)}${cfg.betting && cfg.betting !== 'fixed_limit' ? ` · ${BETTING[cfg.betting]}` : ''}`),
      h('dt', {}, 'Commitment'), h('dd', {}, h('code', { class: 'id' }, rec.commitment ?? '—')),
      h('dt', {}, 'Seed'), h('dd', {}, h('code', { class: 'id' }, rec.seed ?? '—'))),
    actionBar('Downloads',
      h('button', { type: 'button', testid: 'admin-hand-download', data: { format: 'phh' }, onclick: (e) => download(e.currentTarget, d.hand_id, 'phh') }, 'Download PHH'),
      h('button', { type: 'button', testid: 'admin-hand-download', data: { format: 'text' }, onclick: (e) => download(e.currentTarget, d.hand_id, 'text') }, 'Download text')));
  const start = new Map((rec.seats || []).map((s) => [s.seat, s.chips]));
  const end = new Map((rec.result?.finishing_stacks || []).map((s) => [s.seat, s.chips]));
  const seats = dataTable('Players', 'admin-hand-seats', ['Seat', 'Player', 'Player id', 'Stack before', 'Stack after', 'Net', 'At showdown']);
  for (const s of d.seats || []) {
    seats.tbody.append(h('tr', { testid: 'admin-hand-seat', data: { seat: s.seat, playerId: s.player_id, net: s.net } },
      h('td', {}, String(s.seat)), h('th', { scope: 'row' }, s.name), h('td', {}, idCode(s.player_id)),
      h('td', {}, start.has(s.seat) ? chips(start.get(s.seat)) : '—'), h('td', {}, end.has(s.seat) ? chips(end.get(s.seat)) : '—'),
      h('td', {}, `${s.net > 0 ? '+' : s.net < 0 ? '−' : ''}${chips(Math.abs(s.net))}`), h('td', {}, s.showdown ? 'yes' : 'no')));
  }
  const actions = h('ol', { class: 'actions-list', testid: 'admin-hand-actions' },
    (rec.actions || []).map((a) => h('li', { testid: 'admin-hand-action', data: { seat: a.seat, kind: a.action.kind } }, `${who(a.seat)}: ${actionText(a.action)}`)));
  const showdown = h('ul', { testid: 'admin-hand-showdown' }, (rec.result?.showdown || []).map((s) => h('li', { data: { seat: s.seat } }, `${who(s.seat)} ${s.shown ? 'showed' : 'mucked'} ${s.cards.join(' ')}`)));
  const awards = h('ul', { testid: 'admin-hand-awards' }, (rec.result?.awards || []).map((a) => h('li', { testid: 'admin-hand-award', data: { seat: a.seat, amount: a.amount, half: a.half } },
    `${who(a.seat)} wins ${chips(a.amount)} (pot ${a.pot + 1}${a.half && a.half !== 'whole' ? `, ${a.half}` : ''})${a.hand ? ` with ${a.hand}` : ''}`)));
  const section = (hid, text, ...kids) => h('section', { class: 'card', 'aria-labelledby': hid }, h('h3', { id: hid }, text), ...kids);
  view.append(card, section('hand-seats', 'Players', seats.wrap), section('hand-actions', 'Actions', actions.children.length ? actions : h('p', {}, 'No actions.')),
    section('hand-result', 'Result', rec.result ? [showdown.children.length ? showdown : h('p', {}, 'No showdown.'), awards] : h('p', {}, 'The hand is not over.'),
      rec.result?.community ? h('p', {}, `Community card: ${rec.result.community}`) : null),
    h('details', { class: 'card' }, h('summary', { testid: 'admin-hand-raw-open' }, 'The record as the API gives it'), h('pre', { class: 'json', testid: 'admin-hand-raw', tabindex: '0' }, JSON.stringify(d, null, 2))));
}

// ---- start --------------------------------------------------------------------------------

// Only in the page: under Node (admin-unit.test.mjs) the module is imported for its pure parts.
if (typeof document !== 'undefined') {
  $('#signin-form').addEventListener('submit', signIn);
  $('#signout').addEventListener('click', () => signOut());
  window.addEventListener('hashchange', () => route());
  $('#key').focus();
}
