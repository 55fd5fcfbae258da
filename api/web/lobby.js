// Sign-in, the player's games (their turn first), open games to join, every game to watch, and
// the create form built from `GET /v1/kinds` and the options' schemas each kind carries.

import { session, get, post, api, kinds, problem, SIGNED_IN } from './api.js';
import { forgotPassword } from './account.js';
import { h } from './svg.js';
import { t, has, when } from './i18n/index.js';
import { showRules } from './rules.js';
import { tablesLobby, extendCreate, linkNames } from './tables/index.js';
import { shownName } from './words.js';

export function showLobby(main) {
  let alive = true;
  const mine = h('section', { 'aria-labelledby': 'mine-h' });
  const open = h('section', { 'aria-labelledby': 'open-h' });
  const all = h('section', { 'aria-labelledby': 'all-h' });
  const create = h('section', { 'aria-labelledby': 'create-h' });
  main.replaceChildren(session.token ? jumps() : signIn(), h('div', { class: 'lobby' }, mine, create, open, all));

  async function refresh() {
    try {
      if (session.token) await myGames(mine);
      else mine.replaceChildren();
      await openGames(open);
      await allGames(all);
    } catch (e) { problem(e); }
  }
  if (session.token) createForm(create).catch(problem);
  // The games' titles first, so the rows name the games as the create form does.
  kinds().then((ks) => { for (const k of ks) TITLES[k.kind] = k.title; }).catch(() => {}).then(refresh);
  const timer = setInterval(() => { if (alive && !document.hidden) refresh(); }, 5000);
  const leaveTables = tablesLobby(main);
  return () => { alive = false; clearInterval(timer); leaveTables(); };
}

/**
 * The lobby's main actions at the top of a phone's screen, above the one-click game against
 * bots: jumps to the player's games and the create form (the sections lie below one another).
 */
function jumps() {
  const to = (selector) => () => { const el = document.querySelector(selector); if (el) { el.scrollIntoView({ block: 'start' }); const f = el.querySelector('select, button'); if (f) f.focus({ preventScroll: true }); } };
  return h('nav', { class: 'lobby-jump', 'aria-label': t('lobby.jump') },
    h('button', { type: 'button', class: 'secondary', id: 'jump-mine', onclick: to('[aria-labelledby="mine-h"]') }, t('lobby.mine')),
    h('button', { type: 'button', class: 'secondary', id: 'jump-create', onclick: to('[aria-labelledby="create-h"]') }, t('lobby.new_game')));
}

function signIn() {
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, maxlength: 64 });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  async function go(register) {
    problem(null);
    try {
      if (!name.value || !password.value) throw new Error(t('lobby.enter'));
      if (register) await post('/v1/accounts', { name: name.value, password: password.value }, { auth: false });
      const tok = await post('/v1/tokens', { name: name.value, password: password.value }, { auth: false });
      session.set(tok.name || name.value.trim(), tok.token);
      document.dispatchEvent(new Event(SIGNED_IN));
    } catch (e) { problem(e); }
  }
  const form = h('form', { class: 'card signin', onsubmit: (e) => { e.preventDefault(); go(false); } },
    h('h1', {}, t('lobby.title')),
    h('p', {}, t('lobby.intro')),
    h('label', { for: 'name' }, t('lobby.name')), name,
    h('label', { for: 'password' }, t('lobby.password')), password,
    h('div', { class: 'row' },
      h('button', { type: 'submit', id: 'login' }, t('lobby.sign_in')),
      h('button', { type: 'button', id: 'register', onclick: () => go(true) }, t('lobby.register'))),
    forgotPassword());
  return form;
}

const TITLES = {};

function seatOf(game) {
  if (Number.isInteger(game.your_seat)) return game.your_seat;
  const s = game.seats.find((x) => x.player === session.name);
  return s ? s.seat : null;
}

/**
 * A row of `GET /v1/me/games` in the shape of `GET /v1/games`' rows: its `to_act` lists
 * `{seat, player}` (not seat numbers) and it has no `winners` or `scores`.
 */
function fromMine(g) {
  return { ...g, to_act: g.to_act.map((x) => (typeof x === 'object' && x !== null ? x.seat : x)), winners: g.winners || [] };
}

function gameRow(game, extra) {
  const seat = seatOf(game);
  const myTurn = game.your_turn === true || (seat !== null && game.status === 'active' && game.to_act.includes(seat));
  const players = game.seats.map((s) => shownName(s.player, s.bot)).join(', ') || '—';
  return linkNames(h('li', { class: myTurn ? 'game your-turn' : 'game', 'data-game': game.id },
    h('a', { href: `#/game/${game.id}` }, `#${game.id} ${TITLES[game.kind] || game.kind}`),
    ' ', h('span', { class: 'muted' }, t('lobby.row', { status: t(`status.${game.status}`), n: game.seats.length, of: game.seat_count, players })),
    game.updated_at || game.last_activity ? h('span', { class: 'muted small' }, ` · ${t('lobby.changed', { at: when(game.updated_at || game.last_activity) })}`) : '',
    game.deadline ? h('span', { class: 'muted small' }, ` · ${t('lobby.deadline', { at: when(game.deadline) })}`) : '',
    myTurn ? h('strong', { class: 'badge' }, t('lobby.your_turn')) : '',
    game.status === 'finished' && game.winners && game.winners.length ? h('span', { class: 'muted' }, ` — ${t('lobby.won_by', { who: game.winners.map((w) => { const s = game.seats.find((x) => x.seat === w) || {}; return shownName(s.player, s.bot); }).join(', ') })}`) : '',
    extra || ''), game.seats);
}

const lastShown = new WeakMap();
function changed(section, games) {
  const key = JSON.stringify(games.map((g) => [g.id, g.status, g.version, g.seats.length, g.to_act]));
  if (lastShown.get(section) === key) return false;
  lastShown.set(section, key);
  return true;
}

// The winners of finished games (`GET /v1/me/games` does not name them): read once per game,
// from the lobby's list of the player's finished games; a finished game's winners never change.
const WINNERS = new Map();
async function withWinners(games) {
  const missing = games.filter((g) => g.status === 'finished' && !(g.winners && g.winners.length) && !WINNERS.has(g.id));
  if (missing.length) {
    try {
      const done = (await get('/v1/games?mine=true&status=finished&limit=100')).games;
      for (const g of done) WINNERS.set(g.id, g.winners || []);
    } catch { /* the rows without their winners */ }
    for (const g of missing) if (!WINNERS.has(g.id)) WINNERS.set(g.id, []);
  }
  return games.map((g) => (g.status === 'finished' && !(g.winners && g.winners.length) ? { ...g, winners: WINNERS.get(g.id) || [] } : g));
}

async function myGames(section) {
  // `GET /v1/me/games` when the server has it; else the lobby filtered to my seats.
  let games;
  try {
    const r = await get('/v1/me/games');
    games = Array.isArray(r) ? r : r.games;
    if (!Array.isArray(games) || games.some((g) => !Array.isArray(g.seats) || !Array.isArray(g.to_act))) games = null;
    else games = games.map(fromMine);
  } catch (e) {
    if (e.status !== 404 && e.status !== 405) throw e;
  }
  if (!games) games = (await get('/v1/games?mine=true&limit=100')).games;
  games = await withWinners(games);
  const turn = (g) => (g.your_turn === true || (g.status === 'active' && g.to_act.includes(seatOf(g))) ? 0 : g.status === 'finished' ? 2 : 1);
  // Stable: within each group the server's order (most recently active first) stays.
  games.sort((a, b) => turn(a) - turn(b));
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'mine-h' }, t('lobby.mine')),
    h('p', {}, h('a', { href: '#/notices', id: 'notices-link' }, t('notices.link'))),
    games.length ? h('ul', { class: 'games', id: 'my-games' }, games.map((g) => gameRow(g))) : h('p', {}, t('lobby.none_mine')));
}

async function openGames(section) {
  const games = (await get('/v1/games?status=open&limit=50')).games;
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'open-h' }, t('lobby.open')),
    games.length ? h('ul', { class: 'games', id: 'open-games' }, games.map((g) => gameRow(g,
      session.token && seatOf(g) === null ? h('button', { type: 'button', class: 'join', 'data-join': g.id, onclick: async () => {
        try { await post(`/v1/games/${g.id}/join`); location.hash = `#/game/${g.id}`; } catch (e) { problem(e); }
      } }, t('lobby.join')) : ''))) : h('p', {}, t('lobby.none_open')));
}

async function allGames(section) {
  // To watch: the others' running and finished games (the player's own and the open ones are
  // listed above).
  const games = (await get('/v1/games?limit=40')).games.filter((g) => seatOf(g) === null && g.status !== 'open').slice(0, 20);
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'all-h' }, t('lobby.watch')),
    h('ul', { class: 'games' }, games.map((g) => gameRow(g))));
}

// The options' names and help as a player reads them, from the catalogue: `opt.<kind>.<name>`
// (then `opt.<name>`, shared by every kind, e.g. the turn clock); an option no catalogue names
// yet is named from its key, its help from the schema's description.
function optText(kind, name, suffix = '') {
  for (const key of [`opt.${kind}.${name}${suffix}`, `opt.${name}${suffix}`]) if (has(key)) return t(key);
  return null;
}

function humanName(key) {
  const t = String(key).replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const types = (p) => [].concat(p.type || []);

/**
 * An option's description as help for a player: the schema's wording for an absent or null
 * value ("Absent or null: no turn clock.") becomes what leaving the field empty does, and
 * notes for client authors (ranges, cross-references) are left out.
 */
function helpText(description, typeList) {
  if (!description) return '';
  let t = description.replace(/\s+/g, ' ').trim()
    .replace(/\s*\([^)]*(?:\.\.=|rules document|see )[^)]*\)/g, '');
  const nullable = typeList.includes('null');
  t = t.replace(/\s*Absent(?: or null)?: ([^.]*)\./, (_, what) => (nullable ? ` Leave it empty for ${what}.` : ''));
  return t.trim();
}

function optionInput(name, prop, def, spec, kind) {
  let p = prop;
  if (p.oneOf) {
    const ref = p.oneOf.find((x) => x.$ref);
    if (ref) p = { ...spec.components.schemas[ref.$ref.split('/').pop()], ...p };
  }
  const id = `opt-${name}`;
  const label = h('label', { for: id }, optText(kind, name) || humanName(name));
  const text = optText(kind, name, '.help') || helpText(p.description, types(p));
  const help = text ? h('small', { class: 'muted', id: `${id}-help` }, text) : '';
  const typeList = types(p);
  const described = help ? `${id}-help` : undefined;
  if (p.enum) {
    // A nullable choice (the turn clock's bot) offers "none" first, chosen unless a default is set.
    const none = typeList.includes('null') || p.enum.includes(null)
      ? [h('option', { value: '', selected: def === null || def === undefined }, optText(kind, `${name}.null`) || t('opt.none'))] : [];
    return { el: h('div', { class: 'field' }, label, h('select', { id, name, 'aria-describedby': described }, none, p.enum.filter((v) => v !== null).map((v) => h('option', { value: v, selected: v === def }, optText(kind, `${name}.${v}`) || (has(`opt.value.${v}`) ? t(`opt.value.${v}`) : humanName(v))))), help),
      read: (f) => f.querySelector(`#${id}`).value || (none.length ? null : '') };
  }
  if (typeList.includes('boolean')) {
    return { el: h('div', { class: 'field check' }, h('input', { type: 'checkbox', id, name, checked: def === true, 'aria-describedby': described }), label, help),
      read: (f) => f.querySelector(`#${id}`).checked };
  }
  if (typeList.includes('integer')) {
    return { el: h('div', { class: 'field' }, label, h('input', { type: 'number', id, name, min: p.minimum, max: p.maximum, value: def ?? '', placeholder: typeList.includes('null') ? t('opt.none') : '', 'aria-describedby': described }), help),
      read: (f) => { const v = f.querySelector(`#${id}`).value; return v === '' ? null : Number(v); } };
  }
  return { el: h('div', { class: 'field' }, label, h('input', { id, name, value: def ?? '', 'aria-describedby': described }), help),
    read: (f) => f.querySelector(`#${id}`).value || null };
}

// An option that only matters with another comes right after it: the turn clock's bot after
// the turn clock.
const AFTER = { clock_bot: 'move_minutes' };
function inOrder(entries) {
  const out = entries.filter(([n]) => !AFTER[n] || !entries.some(([m]) => m === AFTER[n]));
  for (const [n, p] of entries) {
    if (out.some(([m]) => m === n)) continue;
    out.splice(out.findIndex(([m]) => m === AFTER[n]) + 1, 0, [n, p]);
  }
  return out;
}

async function createForm(section) {
  const list = await kinds();
  // Each kind carries its options' schemas (`options_schemas`): the form needs no spec.
  const spec = { components: { schemas: Object.assign({}, ...list.map((k) => k.options_schemas || {})) } };
  const kind = h('select', { id: 'kind', name: 'kind' }, list.map((k) => h('option', { value: k.kind }, k.title)));
  const seats = h('select', { id: 'seats', name: 'seats' });
  const opts = h('div', { class: 'options' });
  const rules = h('a', { onclick: (e) => { e.preventDefault(); const k = list.find((x) => x.kind === kind.value); showRules(k.kind, k.title).catch(problem); } }, t('game.rules'));
  let readers = [];
  function update() {
    const k = list.find((x) => x.kind === kind.value);
    seats.replaceChildren(...Array.from({ length: k.max_seats - k.min_seats + 1 }, (_, i) => h('option', { value: k.min_seats + i }, t('lobby.players', { n: k.min_seats + i }))));
    const schema = spec.components.schemas[k.options_schema] || {};
    const props = schema.properties || {};
    readers = [];
    opts.replaceChildren(...inOrder(Object.entries(props)).map(([n, p]) => {
      const r = optionInput(n, p, (k.default_options || {})[n], spec, k.kind);
      readers.push([n, r.read]);
      return r.el;
    }));
    rules.href = `#/rules/${k.kind}`;
    rules.textContent = t('lobby.rules_of', { title: k.title });
  }
  kind.addEventListener('change', update);
  const form = h('form', { class: 'card', id: 'create', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    const options = {};
    for (const [n, read] of readers) options[n] = read(form);
    try {
      const g = await post('/v1/games', { kind: kind.value, seats: Number(seats.value), options, ...extras() });
      location.hash = `#/game/${g.id}`;
    } catch (err) { problem(err); }
  } },
  h('label', { for: 'kind' }, t('lobby.game')), kind,
  h('label', { for: 'seats' }, t('lobby.seats')), seats, opts, h('p', {}, rules),
  h('button', { type: 'submit' }, t('lobby.create')));
  update();
  const extras = extendCreate(form, kind, seats);
  section.replaceChildren(h('h2', { id: 'create-h' }, t('lobby.new_game')), form);
}

export { seatOf };
void api;
