// The table chat: the lines everyone watching gets (`chat` frames), the box a seated player
// writes in. Text is only ever put in the page as text (textContent), never as markup.

import { $, el, notice } from './dom.js';
import { t } from './i18n.js';
import { CHAT_MAX_CHARS, chatMessage, chatMode } from './model.js';
import { send } from './net.js';
import { state } from './state.js';

/** Chat lines kept on screen. */
const KEPT = 100;

/** A `chat` frame: a line in its table's chat (each table the page is at keeps its own lines;
 *  the table on screen's are in the page). */
export function onChat(m) {
  const tb = state.tables.get(m.table_id);
  if (!tb) return;
  const list = tb.chatEl ?? $('chat-lines');
  const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
  const mine = m.player_id === state.me?.player_id;
  list.append(el('li', { class: `chat-line${mine ? ' mine' : ''}`, 'data-testid': 'chat-line', 'data-seat': m.seat, 'data-player-id': m.player_id, 'data-at': m.at_ms },
    el('span', { class: 'chat-name', 'data-testid': 'chat-name', text: m.name }),
    el('span', { class: 'chat-text', 'data-testid': 'chat-text', text: m.text })));
  while (list.childElementCount > KEPT) list.firstElementChild.remove();
  if (stick) list.scrollTop = list.scrollHeight;
}

/** Shown when the table has chat on; the box only for a seated player. */
export function renderChat(tb) {
  const mode = chatMode(tb?.info);
  const box = $('chat');
  box.hidden = mode === 'off';
  box.dataset.mode = mode;
  $('chat-form').hidden = mode !== 'write';
  $('chat-note').hidden = mode !== 'read';
  $('chat-note').textContent = mode === 'read' ? t('chat_observer') : '';
}

/** The chat box's submit: the message, if it fits; errors come back typed (chat_off,
 *  too_long, rate_limited, not_seated, forbidden) and show as a notice. */
export function sendChat(e) {
  e.preventDefault();
  const tb = state.table;
  const input = $('chat-input');
  const text = chatMessage(input.value);
  if (!tb || !input.value.trim()) return;
  if (text === null) return notice(t('err_too_long', { n: CHAT_MAX_CHARS }));
  if (send({ type: 'chat', table_id: tb.id, text }, { kind: 'chat' })) input.value = '';
  else notice(t('reconnect_try'));
}
