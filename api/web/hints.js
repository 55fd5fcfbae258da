// One sentence beside the board on what the game waits for now, in the page's language: a
// function per kind from the view (and the viewer's seat) to that sentence; '' when there is
// nothing to say. Whose turn it is stands in the status line above; this says what the step is.

import { t, has } from './i18n/index.js';

const key = (kind, step) => `hint.${kind}.${step}`;
const say = (kind, step, params) => (has(key(kind, step)) ? t(key(kind, step), params) : '');

const HINTS = {
  burgbaumeister: (v) => say('burgbaumeister', v.phase, { n: v.turned_up ? v.turned_up.card : '' }),
  wettstreit: (v) => (v.final_round && v.phase === 'build' ? say('wettstreit', 'final_round') : say('wettstreit', v.phase)),
  'space-builder': (v, seat) => {
    if (v.phase !== 'building') return say('space-builder', v.phase);
    const me = (v.players || []).find((p) => p.seat === seat);
    if (!me) return say('space-builder', 'building');
    if (me.finished || me.stopped) return say('space-builder', 'done');
    if (v.timing === 'elapsed' && !me.looked_at_blueprint) return say('space-builder', 'look');
    return say('space-builder', 'building');
  },
  mauerbauer: (v) => say('mauerbauer', v.phase),
  carcassonne: (v) => say('carcassonne', v.phase),
};

/** The hint for a game of `kind` whose view is `view`, seen from `seat` (null: watching). */
export function phaseHint(kind, view, seat) {
  const f = HINTS[kind];
  if (!f || !view) return '';
  try { return f(view, seat); } catch { return ''; }
}
