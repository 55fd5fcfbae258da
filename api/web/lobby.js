// Sign-in, the player's games (their turn first), open games to join, every game to watch, and
// the create form built from `GET /v1/kinds` and the options' schemas in the published spec.

import { session, get, post, api, openapi, kinds } from './api.js';
import { h } from './svg.js';
import { problem, renderAccount, route } from './app.js';
import { t } from './i18n/index.js';

export function showLobby(main) {
  let alive = true;
  const mine = h('section', { 'aria-labelledby': 'mine-h' });
  const open = h('section', { 'aria-labelledby': 'open-h' });
  const all = h('section', { 'aria-labelledby': 'all-h' });
  const create = h('section', { 'aria-labelledby': 'create-h' });
  main.replaceChildren(session.token ? '' : signIn(), h('div', { class: 'lobby' }, mine, create, open, all));

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
  return () => { alive = false; clearInterval(timer); };
}

function signIn() {
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, maxlength: 64 });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  async function go(register) {
    problem(null);
    try {
      if (!name.value || !password.value) throw new Error('Enter a name and a password.');
      if (register) await post('/v1/accounts', { name: name.value, password: password.value }, { auth: false });
      const t = await post('/v1/tokens', { name: name.value, password: password.value }, { auth: false });
      session.set(t.name || name.value.trim(), t.token);
      renderAccount();
      route();
    } catch (e) { problem(e); }
  }
  const form = h('form', { class: 'card signin', onsubmit: (e) => { e.preventDefault(); go(false); } },
    h('h1', {}, 'Play builder games by web'),
    h('p', {}, 'Sign in to play, or just watch any game below.'),
    h('label', { for: 'name' }, 'Name'), name,
    h('label', { for: 'password' }, 'Password'), password,
    h('div', { class: 'row' },
      h('button', { type: 'submit', id: 'login' }, 'Sign in'),
      h('button', { type: 'button', id: 'register', onclick: () => go(true) }, 'Register')));
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
  const players = game.seats.map((s) => s.player).join(', ') || '—';
  return h('li', { class: myTurn ? 'game your-turn' : 'game', 'data-game': game.id },
    h('a', { href: `#/game/${game.id}` }, `#${game.id} ${TITLES[game.kind] || game.kind}`),
    ' ', h('span', { class: 'muted' }, `${game.status}, ${game.seats.length}/${game.seat_count} seats: ${players}`),
    myTurn ? h('strong', { class: 'badge' }, 'your turn') : '',
    game.status === 'finished' && game.winners && game.winners.length ? h('span', { class: 'muted' }, ` — won by ${game.winners.map((w) => (game.seats.find((s) => s.seat === w) || {}).player).join(', ')}`) : '',
    extra || '');
}

const lastShown = new WeakMap();
function changed(section, games) {
  const key = JSON.stringify(games.map((g) => [g.id, g.status, g.version, g.seats.length, g.to_act]));
  if (lastShown.get(section) === key) return false;
  lastShown.set(section, key);
  return true;
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
  const turn = (g) => (g.your_turn === true || (g.status === 'active' && g.to_act.includes(seatOf(g))) ? 0 : g.status === 'finished' ? 2 : 1);
  // Stable: within each group the server's order (most recently active first) stays.
  games.sort((a, b) => turn(a) - turn(b));
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'mine-h' }, 'My games'),
    h('p', {}, h('a', { href: '#/notices', id: 'notices-link' }, t('notices.link'))),
    games.length ? h('ul', { class: 'games', id: 'my-games' }, games.map((g) => gameRow(g))) : h('p', {}, 'No games yet: create one or join one.'));
}

async function openGames(section) {
  const games = (await get('/v1/games?status=open&limit=50')).games;
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'open-h' }, 'Open games'),
    games.length ? h('ul', { class: 'games', id: 'open-games' }, games.map((g) => gameRow(g,
      session.token && seatOf(g) === null ? h('button', { type: 'button', class: 'join', 'data-join': g.id, onclick: async () => {
        try { await post(`/v1/games/${g.id}/join`); location.hash = `#/game/${g.id}`; } catch (e) { problem(e); }
      } }, 'Join') : ''))) : h('p', {}, 'No game is waiting for players.'));
}

async function allGames(section) {
  const games = (await get('/v1/games?limit=20')).games;
  if (!changed(section, games)) return;
  section.replaceChildren(h('h2', { id: 'all-h' }, 'Watch'),
    h('ul', { class: 'games' }, games.map((g) => gameRow(g))));
}

// The options' names as a player reads them; an option not listed here is named from its key.
const LABELS = {
  move_minutes: 'Turn clock (minutes per move)',
  deadline_minutes: 'Round deadline (minutes)',
  variant: 'Variant for experienced builders',
  timing: 'Finishing order',
  mage_and_witch: 'Magier & Hexe (the mage and the witch)',
  gold_mines: 'Die Goldminen (gold mines)',
};
// Help in a player's words where the schema's speaks to client authors.
const HELP = {
  move_minutes: 'If a player has not moved within this many minutes (time on vacation not counted), the server makes a default move for them. Leave it empty for no turn clock.',
};
const VALUES = { arrival: 'By arrival', elapsed: 'By time taken' };

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

function optionInput(name, prop, def, spec) {
  let p = prop;
  if (p.oneOf) {
    const ref = p.oneOf.find((x) => x.$ref);
    if (ref) p = { ...spec.components.schemas[ref.$ref.split('/').pop()], ...p };
  }
  const id = `opt-${name}`;
  const label = h('label', { for: id }, LABELS[name] || humanName(name));
  const text = HELP[name] || helpText(p.description, types(p));
  const help = text ? h('small', { class: 'muted', id: `${id}-help` }, text) : '';
  const typeList = types(p);
  const described = help ? `${id}-help` : undefined;
  if (p.enum) {
    return { el: h('div', { class: 'field' }, label, h('select', { id, name, 'aria-describedby': described }, p.enum.map((v) => h('option', { value: v, selected: v === def }, VALUES[v] || humanName(v)))), help),
      read: (f) => f.querySelector(`#${id}`).value };
  }
  if (typeList.includes('boolean')) {
    return { el: h('div', { class: 'field check' }, h('input', { type: 'checkbox', id, name, checked: def === true, 'aria-describedby': described }), label, help),
      read: (f) => f.querySelector(`#${id}`).checked };
  }
  if (typeList.includes('integer')) {
    return { el: h('div', { class: 'field' }, label, h('input', { type: 'number', id, name, min: p.minimum, max: p.maximum, value: def ?? '', placeholder: typeList.includes('null') ? 'none' : '', 'aria-describedby': described }), help),
      read: (f) => { const v = f.querySelector(`#${id}`).value; return v === '' ? null : Number(v); } };
  }
  return { el: h('div', { class: 'field' }, label, h('input', { id, name, value: def ?? '', 'aria-describedby': described }), help),
    read: (f) => f.querySelector(`#${id}`).value || null };
}

async function createForm(section) {
  const [list, spec] = await Promise.all([kinds(), openapi()]);
  const kind = h('select', { id: 'kind', name: 'kind' }, list.map((k) => h('option', { value: k.kind }, k.title)));
  const seats = h('select', { id: 'seats', name: 'seats' });
  const opts = h('div', { class: 'options' });
  const rules = h('a', { target: '_blank', rel: 'noopener' }, 'rules');
  let readers = [];
  function update() {
    const k = list.find((x) => x.kind === kind.value);
    seats.replaceChildren(...Array.from({ length: k.max_seats - k.min_seats + 1 }, (_, i) => h('option', { value: k.min_seats + i }, `${k.min_seats + i} players`)));
    const schema = spec.components.schemas[k.options_schema] || {};
    const props = schema.properties || {};
    readers = [];
    opts.replaceChildren(...Object.entries(props).map(([n, p]) => {
      const r = optionInput(n, p, (k.default_options || {})[n], spec);
      readers.push([n, r.read]);
      return r.el;
    }));
    rules.href = k.rules || `/v1/kinds/${k.kind}/rules`;
    rules.textContent = `Rules of ${k.title}`;
  }
  kind.addEventListener('change', update);
  const form = h('form', { class: 'card', id: 'create', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    const options = {};
    for (const [n, read] of readers) options[n] = read(form);
    try {
      const g = await post('/v1/games', { kind: kind.value, seats: Number(seats.value), options });
      location.hash = `#/game/${g.id}`;
    } catch (err) { problem(err); }
  } },
  h('label', { for: 'kind' }, 'Game'), kind,
  h('label', { for: 'seats' }, 'Seats'), seats, opts, h('p', {}, rules),
  h('button', { type: 'submit' }, 'Create game'));
  update();
  section.replaceChildren(h('h2', { id: 'create-h' }, 'New game'), form);
}

export { seatOf };
void api;
