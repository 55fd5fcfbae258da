// Rematch: on a finished game its players propose one, the others see the proposal and accept
// or decline (`event: rematch` on `/v1/me/stream` keeps it current); the page links to the
// rematch, and a rematch to the game it repeats.

import { get, post } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { followMe } from './live.js';
import { botMark } from './bots.js';
import { shownName } from '../words.js';

/** The links both ways, for everybody who sees the game (`proposal`: the new game may be newer than `d`). */
export function rematchLinks(d, proposal) {
  const next = d.rematch || (proposal && proposal.new_game);
  return [
    d.rematch_of ? h('p', { class: 'rematch-link', id: 'rematch-of' }, t('tables.rematch.of'), ' ', h('a', { href: `#/game/${d.rematch_of}` }, `#${d.rematch_of}`)) : '',
    next ? h('p', { class: 'rematch-link', id: 'rematch-next' }, t('tables.rematch.next'), ' ', h('a', { href: `#/game/${next}` }, `#${next}`)) : '',
  ];
}

/**
 * The proposal box of a finished game, for its players: kept in `st` across redraws and updated
 * from the stream. `changed()` redraws the page (and reads the game again when the rematch has
 * begun, so that its link appears). The proposal is read only where one is known to exist (the
 * game links to its rematch, a proposal was refused as existing, the stream spoke of it): the
 * server answers "none yet" with a 404, which a browser logs as a failed request on every
 * finished game otherwise. Proposals made while the page is open come by the stream.
 */
export function rematchState(id, me, changed, onError) {
  const st = { proposal: undefined, loading: false, stop: null };
  async function load() {
    if (st.loading || st.proposal === null) return;
    st.loading = true;
    try {
      st.proposal = await get(`/v1/games/${id}/rematch`);
    } catch (e) {
      // No proposal yet is an answer, not a problem.
      if (e.status === 404 && e.code === 'no_rematch') st.proposal = null;
      else onError(e);
    }
    st.loading = false;
    changed(st.proposal && st.proposal.new_game);
  }
  st.start = (known) => {
    if (st.stop) return;
    st.stop = followMe((m) => {
      if (m.event === 'rematch' && m.data && m.data.game_id === id) { st.proposal = m.data; changed(!!m.data.new_game); }
      else if ((m.event === 'resync' || m.event === 'open') && st.proposal) reload();
    });
    if (known) reload();
    else { st.proposal = null; changed(false); }
  };
  const reload = () => { st.proposal = st.proposal || undefined; return load(); };
  st.leave = () => { if (st.stop) st.stop(); st.stop = null; };
  st.box = () => {
    const p = st.proposal;
    if (p === undefined) return '';
    const act = (path) => async () => {
      try {
        st.proposal = await post(`/v1/games/${id}/rematch${path}`);
        changed(!!st.proposal.new_game);
      } catch (e) {
        // Proposed meanwhile by another player (before this page listened): show that one.
        if (e.code === 'rematch_exists') await reload();
        else onError(e);
      }
    };
    const children = [h('h2', { id: 'rematch-h' }, t('tables.rematch.title'))];
    if (!p || p.state === 'declined' || p.state === 'expired') {
      if (p) children.push(h('p', { class: 'muted' }, t(`tables.rematch.was_${p.state}`)));
      children.push(h('button', { type: 'button', id: 'rematch-propose', onclick: act('') }, t('tables.rematch.propose')));
    } else {
      children.push(h('p', { 'data-rematch-state': p.state }, t(`tables.rematch.state_${p.state}`, { by: p.proposed_by })));
      children.push(h('ul', { class: 'rematch-players' }, p.players.map((x) => h('li', { 'data-rematch-player': x.player },
        t('tables.rematch.player', { name: shownName(x.player, x.bot), seat: x.new_seat + 1 }), ' ', x.bot ? [botMark(x), ' '] : '',
        h('strong', {}, x.answer ? t(`tables.rematch.answer_${x.answer}`) === `tables.rematch.answer_${x.answer}` ? x.answer : t(`tables.rematch.answer_${x.answer}`) : t('tables.rematch.no_answer'))))));
      const mine = p.players.find((x) => x.player === me);
      if (p.state === 'open' && mine && !mine.answer) {
        children.push(h('div', { class: 'row' },
          h('button', { type: 'button', id: 'rematch-accept', onclick: act('/accept') }, t('tables.rematch.accept')),
          h('button', { type: 'button', class: 'secondary', id: 'rematch-decline', onclick: act('/decline') }, t('tables.rematch.decline'))));
      }
      if (p.new_game) children.push(h('p', {}, h('a', { href: `#/game/${p.new_game}`, id: 'rematch-go', class: 'button' }, t('tables.rematch.go', { id: p.new_game }))));
    }
    return h('section', { class: 'tables-box rematch-box', 'aria-labelledby': 'rematch-h' }, children);
  };
  return st;
}
