// What the create form adds beside the kind's options: who may see the game (open or private),
// whether it is rated, and bots in any seat but the creator's (each at its own level); and
// "Play against bots", one click to a game of the player against bots of one level.

import { post, kinds } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { botLevels, levelName } from './bots.js';

/**
 * Adds the fields to the lobby's create `form` (before its submit button), following its
 * `kind` and `seats` selects. Returns a function giving the fields to add to the request body.
 */
export function extendCreate(form, kindSelect, seatsSelect) {
  const visibility = h('select', { id: 'visibility', name: 'visibility', 'aria-describedby': 'visibility-help' },
    h('option', { value: 'open' }, t('tables.create.open')),
    h('option', { value: 'private' }, t('tables.create.private')));
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated', checked: true, 'aria-describedby': 'rated-help' });
  const ratedHelp = h('small', { class: 'muted', id: 'rated-help' }, t('tables.create.rated_help'));
  // A private game is never rated: a rating is public, and its change would tell strangers how
  // the game went.
  let ratedOpen = true;
  visibility.addEventListener('change', () => {
    const secret = visibility.value === 'private';
    if (secret && !rated.disabled) ratedOpen = rated.checked;
    rated.checked = secret ? false : ratedOpen;
    rated.disabled = secret;
    ratedHelp.textContent = t(secret ? 'tables.create.rated_private' : 'tables.create.rated_help');
  });
  const botBox = h('fieldset', { class: 'bot-seats', id: 'bot-seats' });
  let levels = ['random', 'greedy', 'strong'];
  function seatsChanged() {
    const n = Number(seatsSelect.value) || 0;
    const before = Object.fromEntries([...botBox.querySelectorAll('select')].map((s) => [s.dataset.seat, s.value]));
    botBox.replaceChildren(h('legend', {}, t('tables.create.seats_legend')),
      h('small', { class: 'muted' }, t('tables.create.seats_help')),
      ...Array.from({ length: Math.max(0, n - 1) }, (_, i) => {
        const seat = i + 1;
        const id = `bot-seat-${seat}`;
        const sel = h('select', { id, name: id, 'data-seat': seat },
          h('option', { value: '' }, t('tables.create.person')),
          levels.map((l) => h('option', { value: l }, t('tables.create.bot_at', { level: levelName(l) }))));
        if (before[seat] !== undefined) sel.value = before[seat];
        return h('div', { class: 'field' }, h('label', { for: id }, t('tables.create.seat', { n: seat + 1 })), sel);
      }));
  }
  // A game against bots is practice unless the player asks for a rated one (as the server
  // defaults): "rated" follows the seats until the player sets it.
  let ratedChosen = false;
  rated.addEventListener('change', () => { ratedChosen = true; });
  botBox.addEventListener('change', () => {
    if (!ratedChosen) rated.checked = ![...botBox.querySelectorAll('select')].some((sel) => sel.value);
  });
  botLevels().then((l) => { levels = l; seatsChanged(); });
  kindSelect.addEventListener('change', seatsChanged);
  seatsSelect.addEventListener('change', seatsChanged);
  seatsChanged();
  const fields = h('div', { class: 'tables-create' },
    h('div', { class: 'field' }, h('label', { for: 'visibility' }, t('tables.create.visibility')), visibility,
      h('small', { class: 'muted', id: 'visibility-help' }, t('tables.create.visibility_help'))),
    h('div', { class: 'field check' }, rated, h('label', { for: 'rated' }, t('tables.create.rated')), ratedHelp),
    botBox);
  const submit = form.querySelector('button[type=submit]');
  form.insertBefore(fields, submit);
  return () => {
    const bots = [...botBox.querySelectorAll('select')].filter((s) => s.value).map((s) => ({ seat: Number(s.dataset.seat), level: s.value }));
    return { visibility: visibility.value, rated: rated.checked, ...(bots.length ? { bots } : {}) };
  };
}

/** "Play against bots": the kind, how many bots, their level, and one button. */
export async function playAgainstBots(section, onError) {
  const [list, levels] = await Promise.all([kinds(), botLevels()]);
  const kind = h('select', { id: 'vs-kind', name: 'vs-kind' }, list.map((k) => h('option', { value: k.kind }, k.title)));
  const count = h('select', { id: 'vs-bots', name: 'vs-bots' });
  const level = h('select', { id: 'vs-level', name: 'vs-level' }, levels.map((l) => h('option', { value: l }, levelName(l))));
  function update() {
    const k = list.find((x) => x.kind === kind.value);
    const from = Math.max(1, k.min_seats - 1);
    count.replaceChildren(...Array.from({ length: k.max_seats - from }, (_, i) => h('option', { value: from + i }, t('tables.vs.bots_n', { n: from + i }))));
  }
  kind.addEventListener('change', update);
  update();
  const form = h('form', { class: 'card', id: 'vs-bots-form', onsubmit: async (e) => {
    e.preventDefault();
    const n = Number(count.value);
    try {
      const g = await post('/v1/games', { kind: kind.value, seats: n + 1, bots: Array.from({ length: n }, (_, i) => ({ seat: i + 1, level: level.value })) });
      location.hash = `#/game/${g.id}`;
    } catch (err) { onError(err); }
  } },
  h('p', { class: 'muted' }, t('tables.vs.intro')),
  h('div', { class: 'field' }, h('label', { for: 'vs-kind' }, t('tables.vs.game')), kind),
  h('div', { class: 'field' }, h('label', { for: 'vs-bots' }, t('tables.vs.count')), count),
  h('div', { class: 'field' }, h('label', { for: 'vs-level' }, t('tables.bot.level')), level),
  h('button', { type: 'submit', id: 'vs-start' }, t('tables.vs.start')));
  section.replaceChildren(h('h2', { id: 'vs-h' }, t('tables.vs.title')), form);
}
