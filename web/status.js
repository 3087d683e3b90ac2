// The connection's status in the top bar, and the banner while reconnecting. net.js says the
// word (through app.js); this view only shows it.

import { $, setText } from './dom.js';
import { t } from './i18n.js';

export function renderStatus(word) {
  const status = $('status');
  setText(status, t(word === 'idle' ? 'not_connected' : word));
  status.dataset.state = word;
  const banner = $('banner');
  banner.hidden = word !== 'reconnecting';
  setText(banner, t('banner_lost'));
}
