// "Skip to your moves": the second link at the top of a game's page, so that a keyboard player
// reaches the moves in two tab stops. It puts the focus on the board's move targets (one tab
// stop, arrows between them) or, where the board offers none, on the list of moves.

import { h } from './svg.js';
import { t } from './i18n/index.js';

/**
 * Adds the link after "Skip to content", shown while `movesBox` is (a spectator has no moves);
 * the function returned removes it again.
 */
export function movesSkip(movesBox) {
  const link = h('a', { class: 'skip', id: 'skip-moves', href: '#moves-h' }, t('boards.skip_moves'));
  const follow = () => { link.hidden = movesBox.hidden; };
  const watch = new MutationObserver(follow);
  watch.observe(movesBox, { attributes: true, attributeFilter: ['hidden'] });
  follow();
  link.addEventListener('click', (e) => {
    e.preventDefault();
    const target = document.querySelector('.board .target[tabindex="0"]')
      || document.querySelector('.board [data-move], #move-list button')
      || document.getElementById('moves-h');
    if (!target) return;
    if (target.id === 'moves-h') target.setAttribute('tabindex', '-1');
    target.focus();
  });
  const first = document.getElementById('skip');
  if (first) first.after(link); else document.body.prepend(link);
  return () => { watch.disconnect(); link.remove(); };
}
