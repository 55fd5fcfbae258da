// One game: the board (drawn by the kind's module from the view alone), the legal moves, whose
// turn it is, the log in words, the result, a replay slider and the audit. Live through the
// server's event stream when it answers, else by polling with If-None-Match.

import { session, api, get, post, kinds, problem, notice } from './api.js';
import { eventStream } from './sse.js';
import { h } from './svg.js';
import { describeMove, seatName, count, seatNames } from './words.js';
import { sentence, results, runs, loadWords } from './words/index.js';
import { t, num, has } from './i18n/index.js';
import { showRules } from './rules.js';
import { phaseHint } from './hints.js';
import { movesSkip } from './moves-skip.js';
import { tablesGame } from './tables/index.js';
import { viewMode } from './zoom.js';
import { GAMES } from './games/index.js';

// Each kind's board, loaded with the first game of that kind the page shows (with its sentences).
const BOARDS = {};
async function loadKind(kind) {
  const [board] = await Promise.all([!BOARDS[kind] && GAMES[kind] ? GAMES[kind].board() : null, loadWords(kind)]);
  if (board) BOARDS[kind] = board;
}
// Polling period; `localStorage['baumeister.poll_ms']` shortens it (the browser test does).
const POLL_MS = Number(localStorage.getItem('baumeister.poll_ms')) || 1500;

/** Names as the language lists them: "Anna, Ben and Cleo". */
function joinNames(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${t('and')} ${items[items.length - 1]}`;
}

/** One step of the log as a line, with the results table where the game ended. */
function line(kind, e, names) {
  const rows = results(e.event || {}, names);
  return h('li', { 'data-version': e.version }, sentence(kind, e.event || {}, names),
    rows ? h('table', { class: 'results' }, h('thead', {}, h('tr', {}, h('th', {}, t('game.player')), h('th', {}, t('game.score')), h('th', {}, ''))),
      h('tbody', {}, rows.map(([who, score, won]) => h('tr', {}, h('td', {}, who), h('td', {}, num(score)), h('td', {}, won ? `★ ${t('game.won')}` : ''))))) : '');
}

/** The log's newest `max` lines, newest first: a long run of one seat's steps folded into one. */
function logItems(kind, entries, names, max = 200) {
  const all = runs(entries);
  const shown = all.slice(-max).reverse();
  const items = shown.map((run) => {
    if (run.length === 1) return line(kind, run[0], names);
    const last = run[run.length - 1];
    const who = names[last.seat] || t('seat', { n: last.seat + 1 });
    return h('li', { 'data-version': last.version, 'data-steps': run.length, class: 'log-run' },
      h('details', {}, h('summary', {}, t('game.log_group', { who, n: run.length, last: sentence(kind, last.event || {}, names) })),
        h('ul', {}, run.slice().reverse().map((e) => line(kind, e, names)))));
  });
  return { items, cut: all.length > max };
}

// Redrawing replaces the elements: keep the keyboard focus where it was (same id, same move,
// same place), else on the moves heading, so keyboard players do not start over.
const KEYS = ['id', 'data-move', 'data-place', 'data-pick-card', 'data-join', 'data-spot', 'data-pick-colour', 'data-key-seat'];
function focusKey(main) {
  const el = document.activeElement;
  if (!el || el === document.body || !main.contains(el)) return null;
  for (const k of KEYS) if (el.getAttribute(k) !== null) return [k, el.getAttribute(k)];
  return ['fallback', ''];
}
function restoreFocus(main, key) {
  if (!key) return;
  const found = key[0] === 'fallback' ? null : [...main.querySelectorAll(`[${key[0]}]`)].find((e) => e.getAttribute(key[0]) === key[1]);
  const target = found || document.getElementById('moves-h');
  if (target) { if (!found) target.setAttribute('tabindex', '-1'); target.focus({ preventScroll: true }); }
}

/** A finished game's audit in words (under "Advanced"). */
function auditLine(audit) {
  if (!audit) return '';
  if (audit === 'pending') return h('p', { class: 'audit' }, t('game.auditing'));
  if (audit.error) return h('p', { class: 'audit bad' }, t('game.audit_error', { error: audit.error }));
  const ok = audit.chain_intact && audit.decisions_reproduced;
  return h('p', { class: ok ? 'audit good' : 'audit bad', id: 'audit', 'data-verdict': ok ? 'sound' : 'broken' },
    ok ? t('game.audit_sound', { events: num(audit.events), commands: num(audit.commands) })
      : t('game.audit_broken', { problems: audit.problems.join('; ') || t('game.audit_mismatch') }));
}

/** The game's head: its title and rules, then one bar of whose turn it is and the seats. */
function gameHead(d, n, mod, kindList, join) {
  const seat = d.your_seat;
  const seated = seat !== null && seat !== undefined;
  // The seats' scores, or where the game keeps none until its end, what its board says of each.
  const facts = (s) => (d.scores ? `: ${count(d.scores[s.seat], 'point')}` : mod && mod.seatFacts && d.view ? `: ${mod.seatFacts(d.view, s.seat)}` : '');
  const acting = (s) => d.to_act.includes(s) && d.status === 'active';
  const seatLine = d.seats.map((s) => h('li', { class: acting(s.seat) ? 'acting' : '', 'data-seat': s.seat, 'data-you': s.seat === seat },
    seatName(s.seat, n), s.seat === seat ? t('game.you') : '', facts(s),
    acting(s.seat) ? h('strong', {}, t('game.to_act')) : '',
    d.winners.includes(s.seat) ? h('strong', {}, t('game.winner')) : ''));
  const yourTurn = seated && acting(seat);
  let status;
  if (d.status === 'open') status = t('game.waiting_players', { n: d.seats.length, of: d.seat_count });
  else if (d.status === 'finished') status = d.winners.length ? t(d.winners.length > 1 ? 'game.finished_won_many' : 'game.finished_won', { who: joinNames(d.winners.map((w) => seatName(w, n))) }) : t('game.finished_nobody');
  else if (yourTurn) status = t('game.your_turn');
  else status = t('game.waiting_for', { who: joinNames(d.to_act.map((s) => seatName(s, n))) });
  const joining = d.status === 'open' && session.token && !seated ? h('button', { type: 'button', id: 'join', onclick: join }, t('game.join')) : '';
  const title = ((kindList || []).find((k) => k.kind === d.kind) || {}).title || d.kind;
  return [
    h('div', { class: 'game-title' }, h('h1', {}, `#${d.id} ${title}`), h('a', { href: `#/rules/${d.kind}`, class: 'small', id: 'rules-link', onclick: (e) => { e.preventDefault(); showRules(d.kind, title).catch(problem); } }, t('game.rules'))),
    h('div', { class: 'game-bar' },
      h('p', { class: 'status', id: 'status', 'data-status': d.status, 'data-your-turn': String(yourTurn) }, status, ' ', joining),
      h('ul', { class: 'seats' }, seatLine)),
    d.status === 'active' && !seated ? h('p', { class: 'muted' }, t('game.watching')) : ''];
}

/** The moves box: what the board does not take, as a list of sentences. */
function movesParts(ctx, n, mod, replaying, play, hint) {
  const rest = ctx.moves.filter((m) => !ctx.claimed.has(m));
  return [h('h2', { id: 'moves-h' }, t('game.moves')),
    // What this phase of the game asks, in a sentence (hints.js).
    hint ? h('p', { class: 'phase-hint', id: 'phase-hint' }, hint) : '',
    ctx.moves.length === 0 ? h('p', { class: 'muted' }, replaying ? t('game.replaying') : t('game.nothing')) : '',
    // "Or choose below" only where something is below.
    ctx.moves.length && rest.length < ctx.moves.length ? h('p', { class: 'muted', id: 'moves-hint' }, t(rest.length ? 'game.click' : 'game.click_board')) : '',
    rest.length ? h('ul', { class: 'move-list', id: 'move-list' }, rest.map((m) => h('li', {},
      h('button', { type: 'button', 'data-move': JSON.stringify(m.command), onclick: () => play(m) }, (mod && mod.describe ? mod.describe(m.command, n) : null) || describeMove(m.command, n))))) : ''];
}

/** The replay's slider and steps over the versions 1…`version`, at `at`. */
function replayParts(version, at, showAt, live) {
  const slider = h('input', { type: 'range', id: 'replay', min: 1, max: version, value: at, 'aria-valuetext': t('game.version_of', { at, of: version }) });
  const label = h('output', { for: 'replay', id: 'replay-at' }, t('game.version_of', { at, of: version }));
  let pending = null;
  slider.addEventListener('input', () => {
    label.textContent = t('game.version_of', { at: slider.value, of: version });
    clearTimeout(pending);
    pending = setTimeout(() => showAt(Number(slider.value)), 150);
  });
  return [h('h2', { id: 'replay-h' }, t('game.replay')),
    h('label', { for: 'replay' }, t('game.version')), slider, label,
    h('div', { class: 'row' },
      h('button', { type: 'button', onclick: () => showAt(Math.max(1, at - 1)) }, t('game.back_btn')),
      h('button', { type: 'button', onclick: () => showAt(Math.min(version, at + 1)) }, t('game.forward')),
      h('button', { type: 'button', id: 'live', onclick: live }, t('game.live')))];
}

/**
 * Follows the game through its event stream (read with fetch, the token in the Authorization
 * header, never in the URL): `refresh()` when the game went past what the page shows,
 * `changed()` when the stream opens or drops, the rest to the tables (chat). Returns the closer.
 */
function follow(id, st, { changed, refresh, tables }) {
  if (typeof ReadableStream === 'undefined' || typeof TextDecoderStream === 'undefined') return null;
  const headers = session.token ? { Authorization: `Bearer ${session.token}` } : {};
  return eventStream(`/v1/games/${id}/stream`, headers, {
    open: () => { tables.opened(); if (!st.stream) { st.stream = true; changed(); } },
    message: (m) => {
      if (m.event !== 'status' && m.event !== 'event') { tables.message(m); return; }
      // What the page shows already (its own move, taken from the command's answer) needs
      // no request; a seat's status carries its moves, which the next refresh uses.
      if (m.event === 'status') {
        try { const s = JSON.parse(m.data); if (s.moves) st.streamMoves = { version: s.version, moves: s.moves }; } catch { /* a refresh reads them */ }
      }
      if (st.detail && m.id !== null && Number(m.id) <= st.detail.version) return;
      // While a command is out its answer will show the board: remember how far the stream
      // got, and read the game only if it went past that answer.
      if (st.sending) { st.heard = Math.max(st.heard || 0, Number(m.id) || Infinity); return; }
      refresh();
    },
    dropped: () => { if (st.stream) { st.stream = false; changed(); } },
    closed: () => { if (st.stream) { st.stream = false; changed(); } },
  });
}

/** The page's parts, empty until the game is read. */
function layout(id) {
  const parts = {
    head: h('section', { class: 'game-head', 'aria-live': 'polite' }),
    board: h('section', { class: 'board', 'aria-label': t('game.board') }),
    movesBox: h('section', { class: 'moves', 'aria-labelledby': 'moves-h' }),
    replayBox: h('section', { class: 'replay', 'aria-labelledby': 'replay-h' }),
    logBox: h('section', { class: 'log', 'aria-labelledby': 'log-h' }),
    // How the page stays live and the audit: for the curious, folded away (kept across
    // redraws, so an opened disclosure stays open).
    advancedBody: h('div', {}),
  };
  const advanced = h('details', { class: 'advanced', id: 'advanced' }, h('summary', {}, t('game.advanced')), parts.advancedBody);
  parts.root = h('div', { class: 'game', 'data-game-page': id }, parts.head,
    h('div', { class: 'play' }, parts.board, h('div', { class: 'side' }, parts.movesBox, parts.replayBox)), parts.logBox, advanced);
  return parts;
}

/** Whether the seat of `d` is to act now. */
function mayAct(d) {
  const seat = d.your_seat;
  return seat !== null && seat !== undefined && d.status === 'active' && d.to_act.includes(seat);
}

/** Says once when it becomes the player's turn, and names it in the tab's title. */
function announce(st, d) {
  const myTurn = mayAct(d);
  if (myTurn && !st.wasMyTurn) {
    notice(t('game.your_turn_notice', { id: st.id }));
    document.title = t('game.title_turn', { id: st.id });
  } else if (!myTurn) {
    document.title = t('game.title', { id: st.id });
    if (st.wasMyTurn) notice(null);
  }
  st.wasMyTurn = myTurn;
}

/**
 * Events appended to the log, each version once: a command's answer and a read of the log may
 * both bring the same versions (the answer may have added them while the read was under way).
 */
function addToLog(st, events) {
  const last = st.log.length ? st.log[st.log.length - 1].version : null;
  st.log.push(...events.filter((e) => last === null || e.version > last));
}

/** Reads the log's new pages; a finished game's whole log again once it ends. */
async function loadLog(st, d) {
  let after = st.log.length ? st.log[st.log.length - 1].version : 0;
  if (d.status === 'finished' && !st.logWhole) { st.log = []; after = 0; st.logWhole = true; }
  for (;;) {
    const page = await get(`/v1/games/${st.id}/events?after=${after}&limit=500`);
    addToLog(st, page.events);
    if (page.next_after === null || page.next_after === undefined || !page.events.length) break;
    after = page.next_after;
  }
}

/**
 * Reads the game, its log and (where the seat acts) its moves into `st`. False when nothing
 * changed or a newer state is held already.
 */
async function readGame(st) {
  const r = await api('GET', `/v1/games/${st.id}`, undefined, { etag: st.etag });
  if (r.status === 304) return false;
  const d = r.data;
  await loadKind(d.kind);
  const acts = mayAct(d);
  // The stream's status names this seat's moves at its version: no request for them then.
  // Otherwise they are asked for at this read's version or later, which the server answers
  // from memory when it holds the game there.
  const streamed = acts && st.streamMoves && st.streamMoves.version === d.version ? { moves: st.streamMoves.moves } : null;
  const [m] = await Promise.all([acts && !streamed ? get(`/v1/games/${st.id}/moves?min_version=${d.version}`) : streamed, loadLog(st, d)]);
  // A command's answer adopted meanwhile is newer than what this read saw: keep it.
  if (st.detail && d.version < st.detail.version) return false;
  // The view and its moves change together: a tap meanwhile sends a move as it was listed
  // with the view it was shown with (pinned to its version when only this seat acts).
  st.detail = d;
  st.etag = r.etag;
  st.moves = m ? m.moves : [];
  st.movesAnswer = m;
  announce(st, d);
  return true;
}

/**
 * The answer to a command sent with `Prefer: return=representation` holds the new board and
 * moves: where it follows on from the page's board (nobody else moved in between, the game
 * goes on), the page takes them from it and asks nothing more. False where it must read again.
 */
function adoptAnswer(st, a) {
  const d = st.detail;
  const follows = a && a.board && d && !a.finished && a.board.version === a.version
    && a.events.length > 0 && a.events[0].version === d.version + 1;
  if (!follows) return false;
  st.detail = { ...d, version: a.version, to_act: a.to_act, view: a.board.view, head: a.board.head };
  st.etag = null;
  addToLog(st, a.events);
  st.moves = a.board.moves;
  st.movesAnswer = a.board;
  announce(st, st.detail);
  return true;
}

/** Sends a move; its answer, or null after saying why it was refused. */
async function send(st, move) {
  try {
    // Where several seats act at once, a version pin would lose every race to the others:
    // let the server decide the command on the newest state (the rules allow it).
    const body = st.detail && st.detail.to_act.length > 1 ? { command: move.command } : move;
    return await post(`/v1/games/${st.id}/commands`, body, { prefer: 'return=representation' });
  } catch (e) {
    // A rule of this kind refused it: say which in the page's language (the server's `detail`
    // is English).
    const own = e.code && st.detail ? `rule.${st.detail.kind}.${e.code}` : null;
    if (own && has(own)) e.message = t(own);
    problem(e);
    return null;
  }
}

/** `run` one at a time: a call while it runs makes it go round once more when it ends. */
function oneAtATime(run, alive) {
  let running = null;
  let again = false;
  return () => {
    if (running) { again = true; return running; }
    running = (async () => {
      do { again = false; await run(); } while (again && alive());
      running = null;
    })();
    return running;
  };
}

/** A finished game's audit, read once into `st.audit` (shown under "Advanced"). */
function readAudit(st, render) {
  st.audit = 'pending';
  get(`/v1/games/${st.id}/audit`).then((a) => { st.audit = a; render(); }).catch((e) => { st.audit = { error: e.message }; render(); });
}

/** The board as the kind's module draws `view` (with the moves of `ctx`), or why there is none. */
function drawBoard(board, mod, view, ctx, d, replayAt) {
  board.replaceChildren();
  viewMode(ctx.replaying ? 'replay' : 'live');
  if (view && mod) {
    try { board.append(mod.render(view, ctx)); } catch (e) { board.append(h('p', {}, t('game.board_broken', { error: e.message }))); console.error(e); }
  } else if (!view) board.append(h('p', {}, d.status === 'open' ? t('game.board_later') : t('game.no_board')));
  if (ctx.replaying) board.prepend(h('p', { class: 'replay-note', 'data-at': replayAt }, t('game.replay_note', { at: replayAt, of: d.version })));
}

/** What a page for an unknown game says. */
function goneNotice(id) {
  return h('div', { class: 'game', 'data-missing': id },
    h('h1', {}, t('game.none')),
    h('p', {}, t('game.none_text', { id }), h('a', { href: '#/' }, t('game.back')), '.'));
}

export function showGame(main, id) {
  const st = { id, detail: null, etag: null, moves: [], log: [], replayAt: null, replayView: null, sending: false, wasMyTurn: false, audit: null, stream: false };
  let alive = true;
  let timer = null;
  const { root, head, board, movesBox, replayBox, logBox, advancedBody } = layout(id);
  main.replaceChildren(root);
  const unskip = movesSkip(movesBox);
  const tables = tablesGame(id, main, () => refresh());
  const names = () => seatNames(st.detail ? st.detail.seats : []);

  // Polls, stream messages and own moves all ask for a refresh.
  const refresh = oneAtATime(() => refreshOnce(), () => alive);

  async function refreshOnce() {
    if (!alive) return;
    try {
      if (!(await readGame(st))) return;
      if (st.detail.status === 'finished' && !st.audit) readAudit(st, render);
      render();
    } catch (e) {
      // No such game: say so once and stop asking (it will not appear by waiting).
      if (e.status === 404 && !st.detail) return gone();
      problem(e);
    }
  }

  function gone() {
    alive = false;
    clearTimeout(timer);
    if (st.closeStream) st.closeStream();
    main.replaceChildren(goneNotice(id));
  }

  async function play(move) {
    if (st.sending) return;
    st.sending = true;
    problem(null);
    movesBox.setAttribute('aria-busy', 'true');
    try {
      // Still sending until the page shows what the move did: a tap on the old board meanwhile
      // would send a move of a version that has passed.
      const adopted = adoptAnswer(st, await send(st, move));
      if (adopted) render();
      if (!adopted || (st.heard && st.heard > st.detail.version)) await refresh();
    } finally {
      st.heard = 0;
      st.sending = false;
      movesBox.removeAttribute('aria-busy');
    }
  }

  function render() {
    const key = focusKey(main);
    draw();
    restoreFocus(main, key);
  }

  function draw() {
    const d = st.detail;
    if (!d) return;
    const n = names();
    const mod = BOARDS[d.kind];
    const seat = d.your_seat;
    head.replaceChildren(...gameHead(d, n, mod, st.kinds, async () => { try { await post(`/v1/games/${id}/join`); } catch (e) { problem(e); } await refresh(); }));
    head.setAttribute('data-live', st.stream ? 'stream' : 'poll');
    root.setAttribute('data-version', d.version);
    advancedBody.replaceChildren(h('p', { class: 'muted small', id: 'live-mode' }, t(st.stream ? 'game.live_stream' : 'game.live_poll')), auditLine(st.audit));

    const replaying = st.replayAt !== null && st.replayView;
    const view = replaying ? st.replayView : d.view;
    // The newest events first (up to the version shown), taken-back ones left out: the board
    // marks the last move of the kind it draws. The whole log, not its tail: a run of hand moves
    // (Mauerbauer's card swaps) may stand between now and the last wall built.
    const recent = st.log.filter((e) => !e.taken_back && (!replaying || e.version <= st.replayAt)).reverse().map((e) => e.event || {});
    const ctx = { seat, names: n, moves: replaying ? [] : st.moves, play, claimed: new Set(), status: d.status, replaying, rerender: render, recent };
    drawBoard(board, mod, view, ctx, d, st.replayAt);

    // Only a seated player has moves; a spectator gets no box for them.
    movesBox.hidden = seat === null || seat === undefined;
    movesBox.replaceChildren(...movesParts(ctx, n, mod, replaying, play, view && d.status === 'active' ? phaseHint(d.kind, view, seat) : ''));
    replayBox.replaceChildren(...(d.version ? replayParts(d.version, st.replayAt ?? d.version, showAt, () => { st.replayAt = null; st.replayView = null; render(); }) : []));
    const { items, cut } = logItems(d.kind, st.log, n);
    logBox.replaceChildren(h('h2', { id: 'log-h' }, t(cut ? 'game.log_cut' : 'game.log')), h('ul', { class: 'log-list' }, items));
    tables.update(st);
  }

  async function showAt(at) {
    try {
      const r = await get(`/v1/games/${id}/replay?at=${at}`);
      st.replayAt = r.at;
      st.replayView = r.view;
      render();
      const s = document.getElementById('replay');
      if (s) s.focus();
    } catch (e) { problem(e); }
  }

  // Live: the event stream when the server has it; polling with If-None-Match otherwise (and as
  // a slow safety net beside the stream).
  function poll() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!alive) return;
      if (!document.hidden || !st.stream) await refresh();
      poll();
    }, st.stream ? POLL_MS * 10 : POLL_MS);
  }

  // The kinds' titles first (cached after the first page), so the header names the game.
  kinds().catch(() => null).then((ks) => { st.kinds = ks; return refresh(); })
    .then(() => { if (alive) { poll(); st.closeStream = follow(id, st, { changed: render, refresh, tables }); } });
  document.addEventListener('visibilitychange', refresh);
  return () => {
    alive = false;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', refresh);
    if (st.closeStream) st.closeStream();
    unskip();
    tables.leave();
    notice(null);
    document.title = t('page.title');
  };
}
