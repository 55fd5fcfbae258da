// The page's router: `#/` the lobby, `#/game/ID` a game, `#/notices` the notification settings,
// `#/account` the account page, `#/reset/TOKEN` a password reset mail's page, `#/moderation` the
// moderators' page (tables/). Hash routes keep every server path
// (`/v1`, `/docs`, …) untouched.

import { session, api, get, problem, notice, SIGNED_IN } from './api.js';
import { h } from './svg.js';
import { showLobby } from './lobby.js';
import { showGame } from './game.js';
import { tablesRoute } from './tables/index.js';
import { showNotices } from './notices.js';
import { showAccount, showReset } from './account.js';
import { showRulesPage } from './rules.js';
import { t, lang, setLang, loadLanguage, LANGUAGES, when } from './i18n/index.js';

const main = document.getElementById('main');
let leave = null;

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
    // The account's actions in a menu: the bar stays one short line on a phone.
    const menu = h('details', { class: 'menu', id: 'menu' },
      h('summary', { 'aria-label': t('menu.label', { name: session.name }) }, h('span', { class: 'me', 'data-me': session.name }, session.name), h('span', { 'aria-hidden': 'true' }, ' ☰')),
      h('div', { class: 'menu-items' },
        h('p', { class: 'muted small' }, t('signed_in_as', { name: session.name })),
        h('a', { href: '#/notices', class: 'menu-link' }, t('notices.link')),
        h('a', { href: '#/account', class: 'menu-link', id: 'account-link' }, t('account.link')),
        h('a', { href: `#/player/${encodeURIComponent(session.name)}`, class: 'menu-link' }, t('menu.profile')),
        h('button', { type: 'button', id: 'sign-out', onclick: () => { session.clear(); renderAccount(); route(); } }, t('sign_out')),
        h('button', { type: 'button', class: 'secondary', title: t('sign_out_everywhere.title'), onclick: async () => {
          try { await api('DELETE', '/v1/tokens'); } catch (e) { problem(e); }
          session.clear(); renderAccount(); route();
        } }, t('sign_out_everywhere'))));
    // Chosen or left: the menu closes (a click on its links, elsewhere, or a new page).
    menu.addEventListener('click', (e) => { if (e.target.closest('.menu-items a, .menu-items button')) menu.open = false; });
    nav.replaceChildren(languageSwitch(), menu);
    showStanding();
  } else {
    nav.replaceChildren(h('a', { href: '#/', class: 'top-link' }, t('sign_in_or_register')), languageSwitch());
  }
}

// The account's standing (`GET /v1/me/standing`): a suspension is said at the top of the page,
// until when and why, so the player knows before a refusal says it; a moderator gets the link to
// the moderators' page in the menu.
async function showStanding() {
  try {
    const standing = await get('/v1/me/standing');
    const items = document.querySelector('#menu .menu-items');
    if (standing.moderator && items && !items.querySelector('#moderation-link')) {
      items.insertBefore(h('a', { href: '#/moderation', id: 'moderation-link', class: 'menu-link' }, t('mod.link')), items.querySelector('#sign-out'));
    }
    if (standing.suspension) notice(t('standing.suspended', { until: when(standing.suspension.until), reason: standing.suspension.reason }));
  } catch { /* the page works without it */ }
}

// A click outside the open menu closes it.
document.addEventListener('click', (e) => {
  const menu = document.getElementById('menu');
  if (menu && menu.open && !menu.contains(e.target)) menu.open = false;
});

export function route() {
  if (leave) { leave(); leave = null; }
  const menu = document.getElementById('menu');
  if (menu) menu.open = false;
  document.title = t('page.title');
  problem(null);
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/game\/(\d+)/);
  main.replaceChildren();
  if (m) leave = showGame(main, Number(m[1]));
  else if (hash.startsWith('#/notices') && session.token) leave = showNotices(main);
  else if (hash === '#/account' && session.token) leave = showAccount(main);
  else if (hash.match(/^#\/reset\/[0-9a-f]+$/)) leave = showReset(main, hash.slice('#/reset/'.length));
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
// Signing in (the lobby's form) changes the header and the page.
document.addEventListener(SIGNED_IN, () => { renderAccount(); route(); });
renderAccount();
route();
