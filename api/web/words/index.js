// The log in words: one table per kind, `{EventType: (event, ctx) => sentence}`, the sentences
// themselves in the language catalogues (`ev.<EventType>`). An event no table knows still reads
// as a phrase with its fields, seats named by their players.

import { lang } from '../i18n/index.js';
import { GAMES } from '../games/index.js';
import { context } from './context.js';
import { place, PLACE_FIELDS } from '../words.js';
import every from './every.js';

export { context };

export const KINDS = Object.keys(GAMES);
/** The tables loaded so far. */
export const TABLES = { every };

/** Loads the sentences of `kind` (once). */
export async function loadWords(kind) {
  if (GAMES[kind] && !TABLES[kind]) TABLES[kind] = (await GAMES[kind].words()).default;
}


function humanize(type) {
  return type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

/** Any event in words: its type as a phrase and its plain fields (no nested objects, no times). */
export function fallback(e, c) {
  const parts = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || k.endsWith('_ms') || v === null || typeof v === 'object') continue;
    const val = (k === 'seat' || k.endsWith('_seat')) && Number.isInteger(v) ? c.name(v)
      : PLACE_FIELDS.has(k) && Number.isInteger(v) ? String(place(v)) : String(v).replace(/_/g, ' ');
    parts.push(`${k.replace(/_/g, ' ')} ${val}`);
  }
  return `${humanize(e.type || 'event')}${parts.length ? ` (${parts.join(', ')})` : ''}.`;
}

/** One event of a game of `kind` as a sentence. */
export function sentence(kind, event, names, code) {
  const c = context(names, code);
  const all = TABLES[kind] || {};
  const f = all[event.type] || Object.values(TABLES).find((tb) => tb[event.type])?.[event.type];
  try { return f ? f(event, c) : fallback(event, c); } catch { return fallback(event, c); }
}

/** The final scores of an ended game as rows of a table: `[name, score, won]`, best first. */
export function results(event, names, code) {
  if (!Array.isArray(event.scores) || !Array.isArray(event.winners)) return null;
  const c = context(names, code);
  const rows = event.scores.map((s, i) => (typeof s === 'object' && s !== null
    ? { seat: s.seat ?? i, score: s.total ?? Object.entries(s).filter(([k, v]) => k !== 'seat' && typeof v === 'number').reduce((a, [, v]) => a + v, 0) }
    : { seat: i, score: s }));
  // Best first; on equal points the winners (the rules' tie-break decided) before the others.
  const won = (r) => (event.winners.includes(r.seat) ? 0 : 1);
  rows.sort((a, b) => b.score - a.score || won(a) - won(b));
  return rows.map((r) => [c.name(r.seat), r.score, event.winners.includes(r.seat)]);
}

// The log as lines a player reads: a long run of one seat's steps (a bot laying and moving its
// cards 200 times in a round of Space Builder) becomes one line that opens to show them all.
/** Runs at least this long of one seat's consecutive steps are folded into one line. */
export const FOLD = 8;

/** The entries (oldest first) as runs: `[entry]` alone, or a longer run of one seat's. */
export function runs(entries) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length >= FOLD) out.push(run);
    else for (const e of run) out.push([e]);
    run = [];
  };
  for (const e of entries) {
    const seat = e.seat ?? null;
    if (seat === null || (run.length && run[0].seat !== seat)) flush();
    if (seat === null) out.push([e]);
    else run.push(e);
  }
  flush();
  return out;
}
