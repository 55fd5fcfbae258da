// The chat beside the board: the players' `table` channel and the `spectators` channel (players
// read it only when they open it). Text is shown strictly as text (textContent, never HTML);
// Enter sends (Shift+Enter a new line); refusals are said in words. New messages come as `event:
// chat` on the game's stream (a player who opens the spectators' channel gets a stream of
// its own with `spectator_chat=true`); after a reconnect the page reads what came meanwhile. In
// a replay the chat shows what had been written up to the replayed version. Muting leaves an
// account's messages out of every read and push (`/v1/me/mutes`). Another's message can be
// reported to the moderators (`report.js`).

import { session, get, api } from '../api.js';
import { eventStream } from '../sse.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { profileHref } from './bots.js';
import { when } from './invitations.js';
import { reportButton } from './report.js';

const PAGE = 50;

/** What a refused message gets as words. */
function refusal(e) {
  const wait = /(\d+) s\.$/.exec(e.message || '');
  switch (e.code) {
    case 'rate_limited': return wait ? t('tables.chat.too_fast_wait', { s: wait[1] }) : t('tables.chat.too_fast');
    case 'chat_text_length': case 'payload_too_large': return t('tables.chat.too_long', { n: 500 });
    case 'chat_text_not_plain': return t('tables.chat.not_plain');
    case 'not_seated': return t('tables.chat.not_seated');
    case 'spectators_only': return t('tables.chat.spectators_only');
    // A moderator's suspension, in the server's words: until when, and why.
    case 'account_suspended': return e.message;
    default: return `${t('not_done')}${e.message}`;
  }
}

/** One message as a line: its author (a link to the profile), its time, a report button on another's, and its text. */
function messageItem(m) {
  const body = h('p', { class: 'chat-text' });
  // Text, never markup: whatever a player wrote stays letters on the screen.
  if (m.removed) { body.textContent = t('tables.chat.removed'); body.classList.add('muted'); } else body.textContent = m.text ?? '';
  const reportable = session.token && m.author !== session.name && !m.removed;
  return h('li', { 'data-chat-id': m.id, 'data-author': m.author, class: m.author === session.name ? 'mine' : '' },
    h('span', { class: 'chat-meta' }, h('a', { href: profileHref(m.author), class: 'player-link' }, m.author), ' ',
      h('time', { datetime: m.at, class: 'muted small' }, when(m.at)),
      reportable ? [' ', reportButton({ message_id: m.id }, m.author, t('report.message_button'))] : ''), body);
}

/**
 * The messages of the game's two channels as read so far: each channel's messages by id, whether
 * its first page came, and where the older pages go on. `changed()` after every read.
 */
function channels(id, onError, changed) {
  const fresh = () => ({ msgs: new Map(), loaded: false, nextBefore: null });
  const chans = { table: fresh(), spectators: fresh() };
  const add = (ch, m) => { if (chans[ch]) chans[ch].msgs.set(m.id, m); };
  const page = async (ch, query) => {
    const r = await get(`/v1/games/${id}/chat?channel=${ch}${query}`);
    for (const m of r.messages) add(ch, m);
    return r;
  };
  return {
    chans,
    add,
    /** The newest page of `ch`. */
    async load(ch) {
      try {
        const r = await page(ch, `&limit=${PAGE}`);
        chans[ch].nextBefore = r.next_before ?? null;
        chans[ch].loaded = true;
      } catch (e) { onError(e); }
      changed();
    },
    /** The page before the oldest read. */
    async loadOlder(ch) {
      const c = chans[ch];
      if (c.nextBefore === null) return;
      try {
        c.nextBefore = (await page(ch, `&limit=${PAGE}&before=${c.nextBefore}`)).next_before ?? null;
      } catch (e) { onError(e); }
      changed();
    },
    /** After a reconnect: what came meanwhile (newest first, paged back down to what we have). */
    async catchUp(ch) {
      const c = chans[ch];
      if (!c.loaded) return;
      const after = Math.max(0, ...c.msgs.keys());
      let before = null;
      try {
        for (;;) {
          const r = await page(ch, `&limit=100&after=${after}${before !== null ? `&before=${before}` : ''}`);
          if (r.next_before === null || r.next_before === undefined || !r.messages.length) break;
          before = r.next_before;
        }
      } catch (e) { onError(e); }
      changed();
    },
    /** Forgets what was read of every channel read so far, and reads their newest pages again. */
    async reload() {
      for (const ch of Object.keys(chans)) {
        if (!chans[ch].loaded) continue;
        chans[ch] = fresh();
        await this.load(ch);
      }
    },
  };
}

/**
 * Muting: a disclosure listing whom the player mutes (to unmute) and whom they could (the
 * authors read and the players seated), read when opened. `reload()` after a change: the server
 * leaves a muted account's messages out of every read.
 */
function mutePanel(onError, authors, reload) {
  const box = h('details', { class: 'mute-box', id: 'mute-box' });
  const status = h('p', { class: 'tables-status mute-status', role: 'status' });
  let muted = null;
  async function loadMutes() {
    try {
      muted = (await get('/v1/me/mutes')).mutes.map((m) => m.name);
    } catch (e) { onError(e); muted = []; }
    draw();
  }
  async function setMute(name, on) {
    try {
      await api(on ? 'PUT' : 'DELETE', `/v1/me/mutes/${encodeURIComponent(name)}`);
      status.textContent = t(on ? 'tables.chat.muted_now' : 'tables.chat.unmuted_now', { name });
    } catch (e) { onError(e); }
    await reload();
    await loadMutes();
  }
  function draw() {
    if (!session.token) { box.hidden = true; return; }
    box.hidden = false;
    const names = authors();
    for (const n of muted || []) names.delete(n);
    // Redrawn only when something in it changed: a choice being made stays.
    const key = JSON.stringify([[...names].sort(), muted]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const who = h('select', { id: 'mute-who', name: 'mute-who' }, [...names].sort().map((n) => h('option', { value: n }, n)));
    const open = box.open;
    box.replaceChildren(h('summary', {}, t('tables.chat.mute_title')),
      names.size ? h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); if (who.value) setMute(who.value, true); } },
        h('label', { for: 'mute-who' }, t('tables.chat.mute_who')), who, h('button', { type: 'submit', id: 'mute-go' }, t('tables.chat.mute'))) : h('p', { class: 'muted' }, t('tables.chat.nobody_to_mute')),
      muted === null ? '' : muted.length ? h('ul', { class: 'mute-list' }, muted.map((n) => h('li', { 'data-muted': n }, n, ' ',
        h('button', { type: 'button', class: 'secondary', 'data-unmute': n, onclick: () => setMute(n, false) }, t('tables.chat.unmute'))))) : h('p', { class: 'muted' }, t('tables.chat.none_muted')));
    box.open = open;
  }
  box.addEventListener('toggle', () => { if (box.open) loadMutes(); });
  return { box, status, draw };
}

export function chatPanel(id, onError) {
  let current = 'table';
  let detail = null;
  let replayAt = null;
  let ownStream = null;
  let alive = true;
  const read = channels(id, onError, () => draw());
  const { chans } = read;

  const seated = () => detail && detail.your_seat !== null && detail.your_seat !== undefined;
  const mayWrite = () => !!session.token && (current === 'table' ? seated() : !seated());

  const tabs = h('div', { class: 'chat-tabs', role: 'group', 'aria-label': t('tables.chat.channels') });
  const list = h('ol', { class: 'chat-list', id: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-label': t('tables.chat.messages') });
  const note = h('p', { class: 'muted small chat-note' });
  const older = h('button', { type: 'button', class: 'secondary', id: 'chat-older', hidden: true, onclick: () => read.loadOlder(current) }, t('tables.chat.older'));
  const text = h('textarea', { id: 'chat-text', name: 'chat-text', rows: 2, 'aria-describedby': 'chat-help' });
  const status = h('p', { class: 'tables-status chat-status', id: 'chat-status', role: 'alert' });
  const send = h('button', { type: 'submit', id: 'chat-send' }, t('tables.chat.send'));
  const composer = h('form', { class: 'chat-form', id: 'chat-form', onsubmit: (e) => { e.preventDefault(); submit(); } },
    h('label', { for: 'chat-text' }, t('tables.chat.write')), text,
    h('small', { class: 'muted', id: 'chat-help' }, t('tables.chat.help')),
    h('div', { class: 'row' }, send), status);
  text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); submit(); }
  });
  // Those one may mute: the authors read and the people seated, but oneself.
  const authors = () => {
    const names = new Set();
    for (const c of Object.values(chans)) for (const m of c.msgs.values()) if (m.author !== session.name) names.add(m.author);
    for (const s of (detail ? detail.seats : [])) if (s.player !== session.name && !s.bot) names.add(s.player);
    return names;
  };
  const mutes = mutePanel(onError, authors, () => read.reload());
  const el = h('section', { class: 'tables-box chat', 'aria-labelledby': 'chat-h', 'data-chat-game': id },
    h('h2', { id: 'chat-h' }, t('tables.chat.title')), tabs, note, older, list, composer, mutes.box, mutes.status);

  function openSpectatorStream() {
    if (ownStream || !session.token || typeof TextDecoderStream === 'undefined') return;
    const last = Math.max(0, ...chans.spectators.msgs.keys());
    ownStream = eventStream(`/v1/games/${id}/stream?spectator_chat=true${last ? `&chat_after=${last}` : ''}`,
      { Authorization: `Bearer ${session.token}` }, {
        open: () => read.catchUp('spectators'),
        message: (m) => { if (m.event === 'chat') take(m, 'spectators'); },
        dropped: () => {}, closed: () => { ownStream = null; },
      });
  }

  function take(m, only) {
    let msg;
    try { msg = JSON.parse(m.data); } catch { return; }
    if (only && msg.channel !== only) return;
    read.add(msg.channel, msg);
    if (msg.channel === current) draw();
  }

  async function submit() {
    const body = text.value;
    if (send.disabled) return;
    if (!body.trim()) { status.textContent = t('tables.chat.empty'); return; }
    send.disabled = true;
    try {
      const r = await api('POST', `/v1/games/${id}/chat`, { channel: current, text: body });
      read.add(current, r.data);
      text.value = '';
      status.textContent = '';
      draw();
    } catch (e) {
      status.textContent = refusal(e);
    } finally {
      send.disabled = false;
      text.focus();
    }
  }

  function choose(ch) {
    current = ch;
    if (!chans[ch].loaded) read.load(ch);
    if (ch === 'spectators' && seated()) openSpectatorStream();
    draw();
  }

  function drawTabs() {
    const names = session.token ? ['table', 'spectators'] : ['table'];
    // Buttons that stay pressed (not ARIA tabs, which promise arrow keys): Tab and Enter reach them.
    tabs.replaceChildren(...names.map((ch) => h('button', { type: 'button', id: `chat-tab-${ch}`, 'data-channel': ch,
      'aria-pressed': String(ch === current), 'aria-controls': 'chat-list', class: ch === current ? 'tab chosen' : 'tab',
      onclick: () => choose(ch) }, t(`tables.chat.${ch}`))));
  }

  function draw() {
    if (!alive) return;
    drawTabs();
    const c = chans[current];
    const all = [...c.msgs.values()].sort((a, b) => a.id - b.id);
    const shown = replayAt === null ? all : all.filter((m) => m.version <= replayAt);
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.replaceChildren(...shown.map(messageItem));
    if (!shown.length) list.append(h('li', { class: 'muted empty' }, c.loaded ? t('tables.chat.none') : t('tables.chat.loading')));
    if (atBottom || replayAt !== null) list.scrollTop = list.scrollHeight;
    older.hidden = c.nextBefore === null;
    if (replayAt !== null) note.textContent = t('tables.chat.replay_note', { at: replayAt });
    else if (current === 'spectators' && seated()) note.textContent = t('tables.chat.spectators_for_players');
    else if (current === 'table' && !seated()) note.textContent = t('tables.chat.table_for_spectators');
    else note.textContent = '';
    composer.hidden = replayAt !== null || !mayWrite();
    mutes.draw();
  }

  return {
    el,
    update(d, at) {
      const first = !detail;
      detail = d;
      replayAt = at ?? null;
      if (first) read.load('table');
      draw();
    },
    message(m) { if (m.event === 'chat') take(m, seated() ? 'table' : null); },
    opened() { read.catchUp('table'); if (!ownStream) read.catchUp('spectators'); },
    leave() { alive = false; if (ownStream) ownStream(); },
  };
}
