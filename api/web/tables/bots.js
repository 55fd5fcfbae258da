// Bots at the table: the marker that tells a bot's seat from a person's wherever a name is
// shown, the links from names to profiles, and the creator's control that fills a waiting
// game's empty seats with bots (`POST /v1/games/{id}/bots`).

import { post, kinds } from '../api.js';
import { h, s } from '../svg.js';
import { t } from '../i18n/index.js';
import { shownName } from '../words.js';

/** The levels the server's bots play: those the turn clock's bot (`clock_bot`, an option of every kind) may take. */
export async function botLevels() {
  try {
    for (const k of await kinds()) {
      const options = (k.options_schemas || {})[k.options_schema] || {};
      const levels = ((options.properties || {}).clock_bot || {}).enum;
      if (Array.isArray(levels) && levels.some((l) => l !== null)) return levels.filter((l) => l !== null);
    }
  } catch { /* the kinds are only for the labels' order */ }
  return ['random', 'greedy', 'strong'];
}

export const levelName = (level) => t(`tables.bot.level.${level}`) === `tables.bot.level.${level}` ? level : t(`tables.bot.level.${level}`);

/** The marker beside a bot's name: a picture and words, not the name alone. */
export function botMark(seat) {
  const level = seat.bot_level ? levelName(seat.bot_level) : '';
  const label = level ? t('tables.bot.mark_level', { level }) : t('tables.bot.mark');
  return h('span', { class: 'bot-mark', title: label, 'data-bot': seat.player },
    robot(), h('span', { class: 'bot-word' }, t('tables.bot.word')),
    h('span', { class: 'visually-hidden' }, ` (${label})`));
}

/** The marker beside a person's name while the turn clock's bot plays for them (`clock_bot`). */
export function clockBotMark(seat) {
  const label = t('tables.bot.clock_mark', { level: levelName(seat.clock_bot) });
  return h('span', { class: 'bot-mark clock-bot', title: label, 'data-clock-bot': seat.player },
    robot(), h('span', { class: 'bot-word' }, t('tables.bot.clock_word')),
    h('span', { class: 'visually-hidden' }, ` (${label})`));
}

/** A player's name as a link to the profile, with the bot marker after a bot's (one flat list, for `h`). */
export function playerName(x, name = x.player) {
  const link = h('a', { href: profileHref(name), class: 'player-link' }, shownName(name, x.bot));
  return x.bot ? [link, ' ', botMark({ ...x, player: name })] : [link];
}

// A robot's head drawn in SVG (an emoji would depend on the device's fonts).
function robot() {
  return s('svg', { viewBox: '0 0 16 16', 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 7, y: 0.5, width: 2, height: 3 }),
    s('path', { 'fill-rule': 'evenodd', d: 'M3 4h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM5 7.2a1.3 1.3 0 1 0 0 2.6a1.3 1.3 0 1 0 0-2.6zM11 7.2a1.3 1.3 0 1 0 0 2.6a1.3 1.3 0 1 0 0-2.6zM5 11.3v1h6v-1z' }));
}

export const profileHref = (name) => `#/player/${encodeURIComponent(name)}`;

/**
 * Turns the players' names written in `el` (as the lobby's rows and the game's seat list word
 * them, in whatever language) into links to their profiles, with the bot marker after a bot's
 * name. Text inside links and buttons stays as it is.
 */
export function linkNames(el, seats) {
  if (!el || !seats || !seats.length) return el;
  // Keyed by the name as shown (a bot's in the page's language); the link goes to the account.
  const bySeatName = new Map(seats.filter((s) => s.player).map((s) => [shownName(s.player, s.bot), s]));
  const names = [...bySeatName.keys()].sort((a, b) => b.length - a.length);
  if (!names.length) return el;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Whole names only: a player called "at" leaves the "at" in other words alone.
  const re = new RegExp(`(?<![\\p{L}\\p{N}_.-])(${escaped.join('|')})(?![\\p{L}\\p{N}_-])`, 'gu');
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest('a, button, .bot-mark, .player-link') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
  for (const node of texts) {
    const parts = node.data.split(re);
    if (parts.length === 1) continue;
    const frag = document.createDocumentFragment();
    parts.forEach((part, i) => {
      if (i % 2 === 0) { if (part) frag.append(part); return; }
      const seat = bySeatName.get(part);
      const account = seat ? seat.player : part;
      frag.append(h('a', { class: 'player-link', href: profileHref(account), 'data-player': account }, part));
      if (seat && seat.bot) frag.append(' ', botMark(seat));
      else if (seat && seat.clock_bot) frag.append(' ', clockBotMark(seat));
    });
    node.replaceWith(frag);
  }
  return el;
}

/**
 * For the creator of a game that waits for players: a level and a button per empty seat.
 * `done()` reads the game again (the last seat starts it).
 */
export async function botSeats(d, done, onError) {
  const levels = await botLevels();
  const taken = new Set(d.seats.map((s) => s.seat));
  const free = Array.from({ length: d.seat_count }, (_, i) => i).filter((i) => !taken.has(i));
  if (!free.length) return '';
  const level = h('select', { id: 'bot-level', name: 'bot-level' }, levels.map((l) => h('option', { value: l }, levelName(l))));
  const status = h('p', { class: 'tables-status', role: 'status' });
  async function seat(s) {
    try {
      await post(`/v1/games/${d.id}/bots`, { seat: s, level: level.value });
      status.textContent = '';
    } catch (e) { onError(e); }
    await done();
  }
  return h('section', { class: 'tables-box bots-box', 'aria-labelledby': 'bots-h' },
    h('h2', { id: 'bots-h' }, t('tables.bot.fill_title')),
    h('div', { class: 'field' }, h('label', { for: 'bot-level' }, t('tables.bot.level')), level),
    h('div', { class: 'row' }, free.map((s) => h('button', { type: 'button', 'data-bot-seat': s, onclick: () => seat(s) }, t('tables.bot.fill_seat', { n: s + 1 })))),
    h('button', { type: 'button', id: 'bots-fill-all', onclick: async () => {
      try { await post(`/v1/games/${d.id}/bots`, { seat: free[0], level: level.value }); } catch (e) { onError(e); await done(); return; }
      for (const s of free.slice(1)) {
        try { await post(`/v1/games/${d.id}/bots`, { seat: s, level: level.value }); } catch (e) { onError(e); break; }
      }
      await done();
    } }, t('tables.bot.fill_all')),
    status);
}
