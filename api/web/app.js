// The page's router: `#/` the lobby, `#/game/ID` a game, `#/notices` the notification settings. Hash routes keep every server path
// (`/v1`, `/docs`, …) untouched.

import { session, api } from './api.js';
import { h } from './svg.js';
import { showLobby } from './lobby.js';
import { showGame } from './game.js';
import { tablesRoute } from './tables/index.js';
import { showNotices } from './notices.js';
import { showRulesPage } from './rules.js';
import { t, lang, setLang, loadLanguage, LANGUAGES } from './i18n/index.js';

const main = document.getElementById('main');
let leave = null;

export function problem(err) {
  const box = document.getElementById('problem');
  if (!err) { box.hidden = true; box.textContent = ''; return; }
  box.hidden = false;
  box.replaceChildren(h('strong', {}, t('not_done')), err.message || String(err), ' ',
    h('button', { type: 'button', class: 'link', onclick: () => problem(null) }, t('dismiss')));
}

export function notice(text) {
  const box = document.getElementById('notice');
  if (!text) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(text, ' ', h('button', { type: 'button', class: 'link', onclick: () => notice(null) }, t('ok')));
}

// The language switch: remembered, and the page drawn again in the chosen language.
function languageSwitch() {
  const select = h('select', { id: 'lang', 'aria-label': t('lang.label') },
    LANGUAGES.map(([code, label]) => h('option', { value: code, ...(code === lang() ? { selected: true } : {}) }, label)));
  select.addEventListener('change', async () => {
    try { await loadLanguage(select.value); } catch (e) { problem(e); return; }
    setLang(select.value); renderAccount(); route();
  });
  return select;
}

export function renderAccount() {
  document.documentElement.lang = lang();
  document.getElementById('skip').textContent = t('skip');
  document.getElementById('api-link').textContent = t('footer.api');
  const nav = document.getElementById('account');
  nav.setAttribute('aria-label', t('account.label'));
  if (session.token) {
    nav.replaceChildren(
      h('span', { class: 'me', 'data-me': session.name }, t('signed_in_as', { name: session.name })), ' ',
      h('button', { type: 'button', onclick: () => { session.clear(); renderAccount(); route(); } }, t('sign_out')),
      ' ',
      h('button', { type: 'button', title: t('sign_out_everywhere.title'), onclick: async () => {
        try { await api('DELETE', '/v1/tokens'); } catch (e) { problem(e); }
        session.clear(); renderAccount(); route();
      } }, t('sign_out_everywhere')), ' ', languageSwitch());
  } else {
    nav.replaceChildren(h('a', { href: '#/' }, t('sign_in_or_register')), ' ', languageSwitch());
  }
}

export function route() {
  if (leave) { leave(); leave = null; }
  document.title = t('page.title');
  problem(null);
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/game\/(\d+)/);
  main.replaceChildren();
  if (m) leave = showGame(main, Number(m[1]));
  else if (hash.startsWith('#/notices') && session.token) leave = showNotices(main);
  else if (hash.match(/^#\/rules\/[\w-]+$/)) leave = showRulesPage(main, hash.slice('#/rules/'.length));
  else leave = tablesRoute(main, hash) || showLobby(main);
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
