// The protocol's bookkeeping, with no DOM and no socket: whether a table frame's seq follows on,
// how long to wait before reconnecting, and which request an ack or error answers. net.js and
// the table view use these; being pure, they are unit-tested under Node.

// ---- seq: a table's frames in order --------------------------------------------------------

/** What to do with a table frame numbered `seq` when the last one applied was `last`:
 *  'continue' (the next one: apply it), 'duplicate' (seen already: drop it), 'resent' (a
 *  prompt sent again after a reconnect, same seq: apply it again) or 'gap' (frames were
 *  missed: apply it, and ask for a snapshot). `repeatable`: the frame may come again with the
 *  same seq (`your_turn`). A frame without a seq is applied ('continue'), as before. */
export function seqDecision(last, seq, repeatable = false) {
  if (seq <= last) return repeatable && seq === last ? 'resent' : 'duplicate';
  if (seq > last + 1) return 'gap';
  return 'continue';
}

// ---- reconnecting --------------------------------------------------------------------------

export const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 5000;

/** The wait before reconnect attempt `retries` (0 for the first): 0.5 s, 1 s, 2 s, 4 s, then
 *  5 s each time. Offline, 5 s: the `online` event usually comes first and reconnects at once. */
export function backoffMs(retries, online = true) {
  if (!online) return RETRY_CAP_MS;
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** retries);
}

// ---- request ids ---------------------------------------------------------------------------

/** The requests waiting for an answer: `issue` numbers one (r1, r2, ...; the numbers go on
 *  across reconnects, so a late reply to an old socket's request never matches a new one),
 *  `take` hands back (and forgets) what an ack or error with that request_id answers, `clear`
 *  forgets them all (the socket closed: no reply will come). */
export function createRequests(prefix = 'r') {
  const pending = new Map(); // request_id -> {kind, ...}
  let nextId = 1;
  return {
    issue(request) {
      const id = `${prefix}${nextId++}`;
      pending.set(id, request);
      return id;
    },
    take(id) {
      const request = pending.get(id);
      pending.delete(id);
      return request;
    },
    clear() {
      pending.clear();
    },
    get size() {
      return pending.size;
    },
  };
}
