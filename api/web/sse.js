// Server-Sent Events read with fetch, so that the token travels in the Authorization header
// (a browser's EventSource cannot send one, and a token in the URL ends up in logs and
// history). Reconnects after the server's `retry:` with `Last-Event-ID`, as EventSource would.

/**
 * Opens `url` as an event stream. `on.open()` when it answers, `on.message({event, id, data})`
 * for each message, `on.closed(status)` when it stops for good (refused, or an `error` message:
 * the token is no longer valid). Returns a function that closes it.
 */
export function eventStream(url, headers, on) {
  let stopped = false;
  let lastId = null;
  let retryMs = 2000;
  let abort = null;

  async function connect() {
    abort = new AbortController();
    const h = { Accept: 'text/event-stream', ...headers };
    if (lastId !== null) h['Last-Event-ID'] = lastId;
    let res;
    try {
      res = await fetch(url, { headers: h, signal: abort.signal, cache: 'no-store' });
    } catch {
      return again();
    }
    if (!res.ok || !(res.headers.get('Content-Type') || '').startsWith('text/event-stream') || !res.body) {
      if (res.body) res.body.cancel().catch(() => {});
      // A server error may pass; a refusal (no stream here, a bad token) stays.
      if (res.status >= 500) return again();
      return finish(res.status);
    }
    on.open();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let msg = { event: 'message', id: null, data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let nl;
        while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
          if (line === '') {
            if (msg.data.length) {
              if (msg.id !== null) lastId = msg.id;
              const m = { event: msg.event, id: msg.id, data: msg.data.join('\n') };
              if (m.event === 'error') { reader.cancel().catch(() => {}); return finish(401); }
              on.message(m);
            }
            msg = { event: 'message', id: null, data: [] };
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') msg.event = val;
          else if (field === 'data') msg.data.push(val);
          else if (field === 'id') msg.id = val;
          else if (field === 'retry' && /^\d+$/.test(val)) retryMs = Number(val);
        }
      }
    } catch {
      // The connection broke (or was closed here): try again unless stopped.
    }
    return again();
  }

  function again() {
    if (stopped) return;
    on.dropped();
    setTimeout(() => { if (!stopped) connect(); }, retryMs);
  }

  function finish(status) {
    if (stopped) return;
    stopped = true;
    on.closed(status);
  }

  connect();
  return () => { stopped = true; if (abort) abort.abort(); };
}
