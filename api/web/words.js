// The log and the moves in words: a command or event type becomes a phrase and its fields
// follow, with seats named by their players.

export function humanize(type) {
  return type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

function value(k, v, names) {
  if (v === null || v === undefined) return null;
  if ((k === 'seat' || k.endsWith('_seat') || k === 'winner' || k === 'from' || k === 'auctioneer' || k === 'bidder' || k === 'high_bidder') && Number.isInteger(v)) return seatName(v, names);
  if ((k === 'winners' || k === 'seats' || k === 'order') && Array.isArray(v) && v.every(Number.isInteger)) return v.map((x) => seatName(x, names)).join(', ');
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    if (v.length > 8) return `${v.length} entries`;
    return v.map((x) => (typeof x === 'object' && x !== null ? brief(x, names) : String(x))).join(', ');
  }
  if (typeof v === 'object') return brief(v, names);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v).replace(/_/g, ' ');
}

function brief(obj, names) {
  const parts = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'type') continue;
    const t = value(k, v, names);
    if (t !== null && t !== '') parts.push(`${k.replace(/_/g, ' ')} ${t}`);
    if (parts.length >= 6) break;
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

export function seatName(seat, names) {
  const n = names && names[seat];
  return n ? `${n} (seat ${seat})` : `seat ${seat}`;
}

const SKIP = new Set(['type', 'catalogue', 'segments', 'store', 'board', 'cards_by_kind', 'guild_cards', 'draw_pile_cards']);

function fields(obj, names) {
  const parts = [];
  for (const [k, v] of Object.entries(obj)) {
    if (SKIP.has(k)) continue;
    const t = value(k, v, names);
    if (t === null || t === '') continue;
    parts.push(`${k.replace(/_/g, ' ')}: ${t}`);
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

/** A legal move in words (the command without its type and version). */
export function describeMove(command, names) {
  const rest = fields(command, names);
  return `${humanize(command.type)}${rest ? ' — ' + rest : ''}`;
}

/** "1 point", "2 points": a count with its noun, singular for one. */
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
