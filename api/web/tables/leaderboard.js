// A kind's leaderboard, `#/leaderboard/KIND` (`…/OFFSET` pages on; no kind: the first): rank, player, rating, rated
// and finished games; a choice of kind; pages of 25.

import { get, kinds } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { playerName } from './bots.js';

const SIZE = 25;

export function showLeaderboard(main, chosen, offset, onError) {
  let alive = true;
  let kind = chosen;
  main.replaceChildren(h('p', {}, t('tables.loading')));
  // No kind in the address: the first the server lists.
  kinds().then((ks) => {
    kind = kind || (ks[0] && ks[0].kind);
    return Promise.all([ks, get(`/v1/kinds/${encodeURIComponent(kind)}/leaderboard?limit=${SIZE}&offset=${offset}`)]);
  }).then(([ks, page]) => {
    if (!alive) return;
    const pick = h('select', { id: 'board-kind', name: 'board-kind' }, ks.map((k) => h('option', { value: k.kind, ...(k.kind === kind ? { selected: true } : {}) }, k.title)));
    pick.addEventListener('change', () => { location.hash = `#/leaderboard/${pick.value}`; });
    const title = (ks.find((k) => k.kind === kind) || {}).title || kind;
    const rows = page.players.map((p) => h('tr', { 'data-player': p.player },
      h('td', {}, String(p.rank)), h('th', { scope: 'row' }, playerName(p)),
      h('td', { 'data-rating': Math.round(p.rating) }, `${Math.round(p.rating)} ± ${Math.round(2 * p.deviation)}`),
      h('td', {}, String(p.rated_games)), h('td', {}, String(p.played))));
    main.replaceChildren(h('div', { class: 'tables-page leaderboard', 'data-leaderboard': kind },
      h('h1', {}, t('tables.board.title', { kind: title })),
      h('div', { class: 'field' }, h('label', { for: 'board-kind' }, t('tables.board.kind')), pick),
      rows.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'tables-table', id: 'leaderboard' },
        h('thead', {}, h('tr', {}, ['tables.board.rank', 'tables.board.player', 'tables.board.rating', 'tables.board.rated', 'tables.board.played'].map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, rows))) : h('p', { class: 'muted' }, t('tables.board.empty')),
      h('nav', { class: 'row pager', 'aria-label': t('tables.board.pages') },
        offset > 0 ? h('a', { class: 'button secondary', id: 'board-prev', href: `#/leaderboard/${kind}/${Math.max(0, offset - SIZE)}` }, t('tables.board.prev')) : '',
        page.next_offset !== null && page.next_offset !== undefined ? h('a', { class: 'button secondary', id: 'board-next', href: `#/leaderboard/${kind}/${page.next_offset}` }, t('tables.board.next')) : ''),
      h('p', { class: 'muted small' }, t('tables.board.note')),
      h('p', {}, h('a', { href: '#/' }, t('game.back')))));
  }).catch((e) => { if (alive) onError(e); });
  return () => { alive = false; };
}
