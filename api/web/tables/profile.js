// A player's profile, `#/player/NAME`: member since, per kind the games played, won and
// running and the rating, and the recent finished games with every seat's place and score; a
// signed-in visitor can report the player to the moderators.

import { session, get, kinds } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { botMark, playerName } from './bots.js';
import { shownName } from '../words.js';
import { when } from './invitations.js';
import { reportButton } from './report.js';

export const rating = (r) => (r ? `${Math.round(r.rating)} ± ${Math.round(2 * r.deviation)}` : '—');

export function showProfile(main, name, onError) {
  let alive = true;
  main.replaceChildren(h('p', {}, t('tables.loading')));
  Promise.all([get(`/v1/players/${encodeURIComponent(name)}`), kinds().catch(() => [])]).then(([p, ks]) => {
    if (!alive) return;
    const title = (k) => (ks.find((x) => x.kind === k) || {}).title || k;
    const kindsTable = p.kinds.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'tables-table', id: 'profile-kinds' },
      h('caption', {}, t('tables.profile.per_kind')),
      h('thead', {}, h('tr', {}, ['tables.profile.kind', 'tables.profile.played', 'tables.profile.won', 'tables.profile.running', 'tables.profile.rating'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, p.kinds.map((k) => h('tr', { 'data-kind': k.kind },
        h('th', { scope: 'row' }, h('a', { href: `#/leaderboard/${k.kind}` }, title(k.kind))),
        h('td', { 'data-played': k.played }, String(k.played)), h('td', { 'data-won': k.won }, String(k.won)), h('td', {}, String(k.running)),
        h('td', { 'data-rating': k.rating ? Math.round(k.rating.rating) : '' }, rating(k.rating))))))) : h('p', { class: 'muted' }, t('tables.profile.no_games'));
    const recent = p.recent.length ? h('ol', { class: 'recent', id: 'profile-recent' }, p.recent.map((g) => h('li', { 'data-game': g.id, 'data-won': String(g.won) },
      h('a', { href: `#/game/${g.id}` }, `#${g.id} ${title(g.kind)}`), ' ',
      h('strong', {}, g.won ? t('tables.profile.won_game') : t('tables.profile.place', { n: g.place })), ' ',
      h('span', { class: 'muted small' }, when(g.finished_at)),
      g.rated && g.rating_before !== null && g.rating_before !== undefined && g.rating_after !== null && g.rating_after !== undefined
        ? h('span', { class: 'small' }, ` ${t('tables.profile.rating_change', { before: Math.round(g.rating_before), after: Math.round(g.rating_after) })}`)
        : h('span', { class: 'muted small' }, ` ${t('tables.profile.unrated')}`),
      h('ul', { class: 'recent-seats' }, g.seats.map((s) => h('li', {},
        t('tables.profile.seat_place', { n: s.place }), ' ', playerName(s),
        s.score !== null && s.score !== undefined ? ` — ${t('tables.profile.score', { n: s.score })}` : '')))))) : h('p', { class: 'muted' }, t('tables.profile.no_recent'));
    main.replaceChildren(h('div', { class: 'tables-page profile', 'data-profile': p.name },
      h('h1', {}, shownName(p.name, p.bot), p.bot ? [' ', botMark({ ...p, player: p.name })] : ''),
      h('p', { class: 'muted' }, t('tables.profile.since', { at: when(p.member_since) })),
      session.token && !p.bot && p.name !== session.name ? h('p', {}, reportButton({ player: p.name }, p.name, t('report.player_button'))) : '',
      kindsTable,
      h('h2', {}, t('tables.profile.recent')), recent,
      h('p', {}, h('a', { href: '#/' }, t('game.back')))));
  }).catch((e) => {
    if (!alive) return;
    if (e.status === 404) {
      main.replaceChildren(h('div', { class: 'tables-page', 'data-missing-player': name }, h('h1', {}, t('tables.profile.none')),
        h('p', {}, t('tables.profile.none_text', { name })), h('p', {}, h('a', { href: '#/' }, t('game.back')))));
    } else onError(e);
  });
  return () => { alive = false; };
}
