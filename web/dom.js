// DOM helpers shared by the views: elements by id, making elements, the notice line, the clock
// the page counts with, and cards and chips as elements. Nothing here knows a page region.

import { SUIT_SYMBOLS, cardLabel, cardName, isHiLo } from './format.js';
import { t } from './i18n.js';
import { SOUNDS, awardCards } from './model.js';
import { soundOn } from './state.js';

export const $ = (id) => document.getElementById(id);
/** Creates an element. `attrs`: text, class, on<event> handlers, anything else as an attribute
 *  (`true` becomes "true"; false, null and undefined leave the attribute out). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'style') node.style.cssText = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? 'true' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

// Inputs whose keys are not text: the keyboard shortcuts work while one of them has the focus.
const NOT_TEXT = new Set(['checkbox', 'radio', 'range', 'button', 'submit', 'reset', 'color', 'file', 'image']);
/** Whether keys pressed at `node` are typing: a text field (chat, a buy-in, a bet size), a
 *  textarea, editable content. A checkbox, a select or a button is not. */
export function isTyping(node) {
  if (!node?.closest) return false;
  if (node.closest('textarea, [contenteditable]:not([contenteditable="false"])')) return true;
  return node.tagName === 'INPUT' && !NOT_TEXT.has(node.type);
}

export const now = () => performance.now();

/** Writes a text only when it changed: a live region (aria-live, role status / alert / log)
 *  speaks on every write, so a redraw with the same words must not touch it. */
export function setText(node, text) {
  const s = String(text ?? '');
  if (node.textContent !== s) node.textContent = s;
}
export const seconds = (ms) => Math.ceil(ms / 1000);
let noticeTimer = null;
/** A short message under the top bar (errors, table closed, ...). */
export function notice(text) {
  const box = $('notice');
  if (box.hidden || box.textContent !== text) {
    // Cleared first when hidden, so the same message again is spoken again (it is news).
    if (box.hidden) box.textContent = '';
    box.textContent = text;
  }
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

/** A card: a face with its corner rank and suit, or a back; named for screen readers ("Ace of
 *  spades"). Down cards carry data-down and sit lower than up cards. */
export function cardElement(seen, size = '') {
  const down = !seen.up;
  if (!seen.card) {
    return el('div', { 'data-testid': 'card', 'data-card': 'back', 'data-down': down, class: `card back ${size}`, role: 'img', 'aria-label': t('card_back') });
  }
  const [rank, suit] = seen.card;
  const r = rank === 'T' ? '10' : rank;
  return el('div', {
    'data-testid': 'card', 'data-card': seen.card, 'data-down': down,
    class: `card suit-${suit} ${size}`, role: 'img', 'aria-label': cardLabel(seen.card, down), title: cardName(seen.card),
  }, el('span', { class: 'corner', 'aria-hidden': 'true' }, el('span', { class: r === '10' ? 'rank ten' : 'rank', text: r }), el('span', { class: 'suit', text: SUIT_SYMBOLS[suit] })),
  el('span', { class: 'pip', 'aria-hidden': 'true', text: SUIT_SYMBOLS[suit] }));
}

/** Marks a card of a shown hand (issue 31 item 2; the table's seats, LAST HAND's report and its
 *  replayer): `data-hand` high, low, "high low" (in both fives), or empty when it plays in
 *  neither (style.css rings the high five, puts a bar on the low five and dims the rest:
 *  shapes, not only colours), and says so in its label. `part`: model.js cardPart's; null,
 *  nothing marked. */
export function markCard(node, part, variant) {
  if (part == null) return node;
  node.dataset.hand = part;
  if (!part) return node;
  const words = t(!isHiLo(variant) ? 'in_hand' : part === 'high low' ? 'in_both' : `in_${part}`);
  node.setAttribute('aria-label', `${node.getAttribute('aria-label')}, ${words}`);
  node.title = `${node.title}, ${words}`;
  return node;
}

/** The small cards of an award (the result strip's line, LAST HAND's awards): the five of the
 *  half it was won with, with their suits, in the order the hand reads (model.js awardCards),
 *  each `data-hand` that half; every card shown when the page cannot tell which five; null
 *  when the winner showed nothing. `view`: the hand's view. */
export function awardCardsElement(view, award) {
  const shown = awardCards(view, award);
  if (!shown) return null;
  return el('span', { class: 'mini-cards' }, shown.cards.map((c) => markCard(cardElement({ card: c, up: true }, 'mini'), shown.half, view.variant)));
}

/** A small stack of chips beside an amount (more chips for more money, at most five). */
export function chips(amount) {
  const n = Math.max(1, Math.min(5, Math.ceil(Math.log10(Math.max(10, amount)) - 0.5)));
  return el('span', { class: 'chips', 'aria-hidden': 'true' }, Array.from({ length: n }, (_, i) => el('i', { class: `chip c${i % 3}` })));
}

// ---- sounds --------------------------------------------------------------------------------

let audio = null;
const lastPlayed = {}; // kind -> performance.now() of its last play
/** Plays one of the short synthesized sounds (model.js SOUNDS: deal, chips, turn, win) with the
 *  Web Audio API, only while the sounds are on (state.js soundOn). A burst of frames (a street's
 *  cards, the antes) makes one sound of a kind, not one per frame. */
export function playSound(kind) {
  const notes = SOUNDS[kind];
  if (!notes || !soundOn()) return false;
  const at = now();
  if (at - (lastPlayed[kind] ?? -Infinity) < 120) return false;
  lastPlayed[kind] = at;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t0 = audio.currentTime;
    for (const [freq, start, length, wave, level] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(level, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
    return true;
  } catch {
    return false; // no audio here: the page says everything in words too
  }
}
