// The undo button: shown only while `GET /v1/games/{id}/moves` says `can_undo: true` for the
// caller's seat, it posts `POST /v1/games/{id}/undo`; a refusal (422 with its code) is shown as
// every refusal is. A server without undo answers no `can_undo`: then no button, and the page
// stops asking.

import { get, post } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';

export function undoState(id, refresh, onError) {
  const st = { version: null, can: false, supported: true, asking: null, busy: false };

  /** From the game page's state: its detail and, when it read them, its moves. */
  st.update = (game, redraw) => {
    const d = game.detail;
    const seated = d && d.your_seat !== null && d.your_seat !== undefined;
    if (!d || !seated || d.status !== 'active') { st.can = false; return; }
    if (game.movesAnswer && game.movesAnswer.version === d.version) {
      st.version = d.version;
      st.supported = 'can_undo' in game.movesAnswer;
      st.can = game.movesAnswer.can_undo === true;
      return;
    }
    // Not this seat's turn: the page did not read the moves, but the last command may still
    // be taken back. Once per version, and only from a server that says.
    if (!st.supported || st.version === d.version || st.asking === d.version) return;
    st.asking = d.version;
    get(`/v1/games/${id}/moves?min_version=${d.version}`).then((m) => {
      st.asking = null;
      st.version = d.version;
      st.supported = 'can_undo' in m;
      const can = m.can_undo === true;
      if (can !== st.can) { st.can = can; redraw(); }
    }).catch(() => { st.asking = null; });
  };

  st.button = (d, replaying) => {
    if (!st.can || replaying) return '';
    const button = h('button', { type: 'button', id: 'undo', onclick: async () => {
      if (st.busy) return;
      st.busy = true;
      button.disabled = true;
      try {
        await post(`/v1/games/${id}/undo`, { expected_version: d.version });
        st.can = false;
      } catch (err) { onError(err); }
      st.busy = false;
      button.disabled = false;
      await refresh();
    } }, t('tables.undo.button'));
    return h('div', { class: 'tables-box undo-box' }, button, h('small', { class: 'muted' }, t('tables.undo.help')));
  };
  return st;
}
