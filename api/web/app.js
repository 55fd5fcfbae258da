// The page's router: `#/` the lobby, `#/game/ID` a game. Hash routes keep every server path
// (`/v1`, `/docs`, …) untouched.

import { session, api } from './api.js';
import { h } from './svg.js';
import { showLobby } from './lobby.js';
import { showGame } from './game.js';

const main = document.getElementById('main');
let leave = null;

export function problem(err) {
  const box = document.getElementById('problem');
  if (!err) { box.hidden = true; box.textContent = ''; return; }
  box.hidden = false;
  box.replaceChildren(h('strong', {}, 'Not done: '), err.message || String(err), ' ',
    h('button', { type: 'button', class: 'link', onclick: () => problem(null) }, 'Dismiss'));
}

export function notice(text) {
  const box = document.getElementById('notice');
  if (!text) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(text, ' ', h('button', { type: 'button', class: 'link', onclick: () => notice(null) }, 'OK'));
}

export function renderAccount() {
  const nav = document.getElementById('account');
  if (session.token) {
    nav.replaceChildren(
      h('span', { class: 'me', 'data-me': session.name }, `Signed in as ${session.name}`), ' ',
      h('button', { type: 'button', onclick: () => { session.clear(); renderAccount(); route(); } }, 'Sign out'),
      ' ',
      h('button', { type: 'button', title: 'Refuse every token of this account, on every device', onclick: async () => {
        try { await api('DELETE', '/v1/tokens'); } catch (e) { problem(e); }
        session.clear(); renderAccount(); route();
      } }, 'Sign out everywhere'));
  } else {
    nav.replaceChildren(h('a', { href: '#/' }, 'Sign in or register'));
  }
}

export function route() {
  if (leave) { leave(); leave = null; }
  problem(null);
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/game\/(\d+)/);
  main.replaceChildren();
  if (m) leave = showGame(main, Number(m[1]));
  else leave = showLobby(main);
}

// "Skip to content" moves the focus to the page's main part; following its `#main` would be a
// route change here and leave the game.
document.getElementById('skip').addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});

window.addEventListener('hashchange', route);
renderAccount();
route();
