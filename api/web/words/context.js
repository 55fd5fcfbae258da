// The helpers every sentence gets, apart from the tables of sentences: a board that writes a
// sentence (Wettstreit's card names) uses them without loading every kind's words.

import { translate, lang } from '../i18n/index.js';

/** The helpers every sentence gets: names for seats, lists joined as the language does. */
export function context(names, code = lang()) {
  const t = (key, params) => translate(code, key, params);
  // Seats count from 1 for people (the API's seat 0 is the first seat at the table).
  const name = (seat) => (names && names[seat]) || t('seat', { n: seat + 1 });
  const list = (items) => {
    const xs = items.map(String);
    if (xs.length <= 1) return xs.join('');
    return `${xs.slice(0, -1).join(', ')} ${t('and')} ${xs[xs.length - 1]}`;
  };
  // A moment (ms since the epoch) as the time of day to the second, as the language writes it.
  const time = (ms) => (Number.isFinite(ms) ? new Intl.DateTimeFormat(code, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(ms)) : '?');
  return { t, name, list, time, names: (seats) => (seats.length ? list(seats.map(name)) : t('nobody')), s: (type, params) => t(`ev.${type}`, params) };
}
