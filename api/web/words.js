// The log and the moves in words: a command or event type becomes a phrase and its fields
// follow, with seats named by their players. A command the catalogue has a sentence for
// (`mv.<Type>`) reads as that sentence in the page's language.

import { t, has } from './i18n/index.js';

export function humanize(type) {
  return type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

function value(k, v, names) {
  if (v === null || v === undefined) return null;
  if ((k === 'seat' || k.endsWith('_seat') || k === 'winner' || k === 'from' || k === 'auctioneer' || k === 'bidder' || k === 'high_bidder') && Number.isInteger(v)) return seatName(v, names);
  if ((k === 'winners' || k === 'seats' || k === 'order') && Array.isArray(v) && v.every(Number.isInteger)) return v.map((x) => seatName(x, names)).join(', ');
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    if (v.length > 8) return t('words.entries', { n: v.length });
    return v.map((x) => (typeof x === 'object' && x !== null ? brief(x, names) : String(x))).join(', ');
  }
  if (typeof v === 'object') return brief(v, names);
  if (typeof v === 'boolean') return t(v ? 'words.yes' : 'words.no');
  if (PLACE_FIELDS.has(k) && Number.isInteger(v)) return String(place(v));
  return String(v).replace(/_/g, ' ');
}

function brief(obj, names) {
  const parts = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'type') continue;
    const text = value(k, v, names);
    if (text !== null && text !== '') parts.push(`${k.replace(/_/g, ' ')} ${text}`);
    if (parts.length >= 6) break;
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

/**
 * A place a person reads (a slot of the display, a place in a wall or a city, a wall line, a
 * corner, a field, a closed city, a part of a tile): counted from 1, as a player at the table
 * counts, where the API counts from 0. Display only: commands and data attributes keep the API's.
 */
export function place(i) {
  return Number.isInteger(i) ? i + 1 : i;
}
// The fields of commands and events that are such places (0-based in the API).
export const PLACE_FIELDS = new Set(['slot', 'position', 'line', 'city', 'with', 'segment', 'field', 'vertex']);

export function seatName(seat, names) {
  const n = names && names[seat];
  // Seats count from 1 for people (the API's seat 0 is the first seat at the table).
  return n ? t('seat_named', { name: n, n: seat + 1 }) : t('seat', { n: seat + 1 });
}

const SKIP = new Set(['type', 'catalogue', 'segments', 'store', 'board', 'cards_by_kind', 'guild_cards', 'draw_pile_cards']);

function fields(obj, names) {
  const parts = [];
  for (const [k, v] of Object.entries(obj)) {
    if (SKIP.has(k)) continue;
    const text = value(k, v, names);
    if (text === null || text === '') continue;
    parts.push(`${k.replace(/_/g, ' ')}: ${text}`);
  }
  return parts.join('; ');
}

/** One log entry in words. */
export function describeEvent(entry, names) {
  const e = entry.event || {};
  const who = entry.seat === null || entry.seat === undefined ? '' : `${seatName(entry.seat, names)} — `;
  const shown = { ...e };
  if (shown.seat === entry.seat) delete shown.seat;
  const rest = fields(shown, names);
  return `${who}${humanize(e.type || 'event')}${rest ? ': ' + rest : ''}`;
}

/** A command's fields as a sentence's parameters: seats named, cards, stacks and figures in words. */
function moveParams(command, names) {
  const one = (k, v) => {
    if ((k === 'target' || k === 'from' || k === 'seat') && Number.isInteger(v)) return seatName(v, names);
    if (k === 'stack') return t(`ws.stack.${v}`);
    if (k === 'figure') return t(`cc.figure.${v}`);
    if (typeof v === 'string' && has(`mb.guild.${v}`)) return t(`mb.guild.${v}`);
    if (PLACE_FIELDS.has(k) && Number.isInteger(v)) return place(v);
    return v;
  };
  const out = {};
  for (const [k, v] of Object.entries(command)) {
    out[k] = Array.isArray(v) ? list(v.map((x) => one(k, x))) : one(k, v);
  }
  if (Number.isInteger(command.rotation)) out.deg = command.rotation * 90;
  return out;
}

/** "a, b and c" in the page's language. */
export function list(items) {
  const xs = items.map(String);
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${t('and')} ${xs[xs.length - 1]}`;
}

/** A legal move in words (the command without its type and version). */
export function describeMove(command, names) {
  if (has(`mv.${command.type}`)) return t(`mv.${command.type}`, moveParams(command, names));
  const rest = fields(command, names);
  return `${humanize(command.type)}${rest ? ' — ' + rest : ''}`;
}

/**
 * "1 point", "2 points": a count with its noun, singular for one, in the page's language when
 * the catalogue has the noun (`count.<noun>`, e.g. `{n:point|points}`).
 */
export function count(n, one, many = `${one}s`) {
  if (has(`count.${one}`)) return t(`count.${one}`, { n });
  return `${n} ${n === 1 ? one : many}`;
}

// A player's name as the page shows it. A bot's account (`bot-greedy`, `bot-random-2`) reads
// as its level in the page's language ("Greedy bot", "Zufallsbot 2"); a person's name as it is.
// Links and the API keep the account's name.
const BOT = /^bot-(random|greedy|strong)(?:-(\d+))?$/;

/** `bot`: whether the seat or row says it is a bot (the name's shape alone when unknown). */
export function shownName(name, bot) {
  if (typeof name !== 'string') return name;
  const m = bot === false ? null : BOT.exec(name);
  if (!m) return name;
  const level = t(`name.bot.${m[1]}`);
  return m[2] ? t('name.bot_numbered', { bot: level, n: m[2] }) : level;
}

/** The seats' names as shown, by seat number (what the log's sentences and boards take). */
export function seatNames(seats) {
  return Object.fromEntries((seats || []).filter((s) => s.player).map((s) => [s.seat, shownName(s.player, s.bot)]));
}
