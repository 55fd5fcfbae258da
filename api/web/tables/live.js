// One `GET /v1/me/stream` for the page, shared by whoever listens (the lobby's invitations, a
// finished game's rematch): opened with the first listener, closed with the last. `open` is
// passed on too, so that a listener reads its list again after a reconnect (a notice may have
// been missed while the stream was down), as it does on `event: resync`.

import { session } from '../api.js';
import { eventStream } from '../sse.js';

const listeners = new Set();
let close = null;

function start() {
  if (close || !session.token) return;
  if (typeof ReadableStream === 'undefined' || typeof TextDecoderStream === 'undefined') return;
  close = eventStream('/v1/me/stream', { Authorization: `Bearer ${session.token}` }, {
    open: () => { for (const l of listeners) l({ event: 'open', data: null }); },
    message: (m) => {
      let data = null;
      try { data = JSON.parse(m.data); } catch { return; }
      for (const l of listeners) l({ event: m.event, data });
    },
    dropped: () => {},
    closed: () => { close = null; },
  });
}

/** Calls `fn({event, data})` for each message of the account's stream; returns the unsubscribe. */
export function followMe(fn) {
  listeners.add(fn);
  start();
  return () => {
    listeners.delete(fn);
    if (!listeners.size && close) { close(); close = null; }
  };
}
