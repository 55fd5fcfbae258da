// The tables people gather at, hooked into the lobby, the game page and the router with one
// call each: private games and invitations, bots, rematches, the chat, reports, profiles,
// leaderboards, undo and the moderators' page. Each part lives in its own module beside this one.

import { session, problem } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { extendCreate, playAgainstBots } from './create.js';
import { linkNames, botSeats, profileHref } from './bots.js';
import { invitationsBox, myInvitations, showInvite, pendingInvite } from './invitations.js';
import { rematchLinks, rematchState } from './rematch.js';
import { chatPanel } from './chat.js';
import { showProfile } from './profile.js';
import { showLeaderboard } from './leaderboard.js';
import { undoState } from './undo.js';
import { showModeration } from './moderation.js';

export { extendCreate, linkNames };

/** The pages of their own: `#/invite/GAME/CODE`, `#/player/NAME`, `#/leaderboard[/KIND[/OFFSET]]`, `#/moderation`. */
export function tablesRoute(main, hash) {
  let m = hash.match(/^#\/invite\/(\d+)\/([^/?#]+)(?:\?(.*))?$/);
  if (m) { showInvite(main, Number(m[1]), decodeURIComponent(m[2]), problem, new URLSearchParams(m[3] || '')).catch(problem); return () => {}; }
  m = hash.match(/^#\/player\/([^/?#]+)$/);
  if (m) return showProfile(main, decodeURIComponent(m[1]), problem);
  m = hash.match(/^#\/leaderboard(?:\/([a-z0-9-]+)(?:\/(\d+))?)?$/);
  if (m) return showLeaderboard(main, m[1] || null, Number(m[2] || 0), problem);
  if (hash === '#/moderation') return showModeration(main, problem);
  return null;
}

/** The lobby's part: back to an invitation link after signing in, "My invitations", "Play against bots", links. */
export function tablesLobby(main) {
  const back = pendingInvite();
  if (back) { location.hash = back; return () => {}; }
  const lobby = main.querySelector('.lobby');
  if (!lobby || !session.token) return () => {};
  const invitations = h('section', { 'aria-labelledby': 'invitations-h', id: 'invitations' });
  const vs = h('section', { 'aria-labelledby': 'vs-h', id: 'vs-section' });
  const links = h('nav', { class: 'tables-links row', 'aria-label': t('tables.links') },
    h('a', { href: profileHref(session.name), id: 'my-profile', class: 'button secondary' }, t('tables.my_profile')),
    h('a', { href: '#/leaderboard', id: 'leaderboards', class: 'button secondary' }, t('tables.leaderboards')));
  lobby.prepend(invitations);
  lobby.before(links);
  const create = lobby.querySelector('[aria-labelledby="create-h"]');
  if (create) create.after(vs); else lobby.append(vs);
  playAgainstBots(vs, problem).catch(problem);
  return myInvitations(invitations, problem);
}

/** The game page's part, in its side column; `refresh()` reads the game again. */
export function tablesGame(id, main, refresh) {
  const panel = h('div', { class: 'tables-panel' });
  const top = h('div', { class: 'tables-top' });
  const chat = chatPanel(id, problem);
  panel.append(top, chat.el);
  const side = main.querySelector('.side');
  (side || main).append(panel);
  const codes = new Map();
  let rematch = null;
  let last = { invite: null, bots: null, rematch: null, undo: null };
  let game = null;
  const parts = { undo: h('div'), bots: h('div'), invite: h('div'), rematch: h('div') };
  top.append(parts.undo, parts.bots, parts.invite, parts.rematch);
  const undo = undoState(id, refresh, problem);

  function draw() {
    const d = game.detail;
    const replaying = game.replayAt !== null && game.replayAt !== undefined;
    const seated = d.your_seat !== null && d.your_seat !== undefined;
    // Each part is drawn again only when what it shows changed, so a half-typed name stays.
    const key = (part, k, make) => {
      const s = JSON.stringify(k);
      if (last[part] === s) return;
      last[part] = s;
      Promise.resolve(make()).then((el) => { if (last[part] === s) parts[part].replaceChildren(el || ''); });
    };
    key('undo', [d.version, undo.can, replaying], () => undo.button(d, replaying));
    key('bots', [d.status, d.seats.length, d.your_seat], () => (d.status === 'open' && d.your_seat === 0 ? botSeats(d, refresh, problem) : ''));
    key('invite', [d.status, seated], () => (d.status === 'open' && seated ? invitationsBox(d, codes, problem) : ''));
    if (d.status === 'finished' && seated && session.token) {
      if (!rematch) {
        rematch = rematchState(id, session.name, (started) => { last.rematch = null; draw(); if (started) refresh(); }, problem);
        rematch.start(!!d.rematch || !!d.rematch_open);
      }
      key('rematch', [JSON.stringify(rematch.proposal ?? null)], () => rematch.box());
    } else key('rematch', [null], () => '');
    // The seats' names link to profiles and say which seats are bots; the rematch links.
    const seats = main.querySelector('.game-head .seats');
    linkNames(seats, d.seats);
    const head = main.querySelector('.game-head');
    if (head) {
      for (const old of head.querySelectorAll('.rematch-link')) old.remove();
      head.append(...rematchLinks(d, rematch && rematch.proposal).filter(Boolean));
    }
  }

  return {
    update(st) {
      if (!st.detail) return;
      game = st;
      undo.update(st, () => draw());
      chat.update(st.detail, st.replayAt);
      draw();
    },
    message: (m) => chat.message(m),
    opened: () => chat.opened(),
    leave() { chat.leave(); if (rematch) rematch.leave(); },
  };
}
