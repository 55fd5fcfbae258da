// The page's language: English or German, from `navigator.languages` unless the player chose one
// in the page (remembered in localStorage). `t(key, params)` fills `{name}` placeholders.
// Only the page's catalogue is loaded (each is a large module): this module waits for it before
// any module that imports it runs, and another is loaded when the player switches.

/** The catalogues there are, each loaded when first needed. */
const LOADERS = { en: () => import('./en.js'), de: () => import('./de.js') };
/** The catalogues loaded so far. */
export const CATALOGUES = {};
export const LANGUAGES = [['en', 'English'], ['de', 'Deutsch']];
const KEY = 'baumeister.lang';

function stored() {
  try { return globalThis.localStorage ? localStorage.getItem(KEY) : null; } catch { return null; }
}

/** The first of the browser's languages we have, else English. */
export function pickLanguage(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LOADERS[base]) return base;
  }
  return 'en';
}

let current = LOADERS[stored()] ? stored() : pickLanguage(globalThis.navigator && navigator.languages);

/** Loads the catalogue `code` (once); resolves when `setLang(code)` and `translate(code, …)` may use it. */
export async function loadLanguage(code) {
  if (LOADERS[code] && !CATALOGUES[code]) CATALOGUES[code] = (await LOADERS[code]()).default;
}

await loadLanguage(current);

export function lang() { return current; }

/** Switches the page to `code`, whose catalogue must have been loaded (`loadLanguage`). */
export function setLang(code) {
  if (!CATALOGUES[code]) return;
  current = code;
  try { localStorage.setItem(KEY, code); } catch { /* private mode: only for this page */ }
  if (globalThis.document) document.documentElement.lang = code;
}

/**
 * A string of the catalogue `code` (default: the page's), English when the key is missing.
 * `{name}` is the parameter; `{name:one|other}` the number with the word in its form
 * ("1 point", "3 points"; "1 Punkt", "3 Punkte").
 */
export function translate(code, key, params = {}) {
  const text = (CATALOGUES[code] || CATALOGUES[current])[key] ?? CATALOGUES.en?.[key] ?? key;
  return text.replace(/\{(\w+)(?::([^|}]*)\|([^}]*))?\}/g, (m, k, one, other) => {
    const v = params[k];
    if (v === undefined || v === null) return m;
    if (one === undefined) return String(v);
    return `${v} ${Number(v) === 1 ? one : other}`;
  });
}

export function t(key, params) { return translate(current, key, params); }

/** Whether the page's catalogue (or the English one) has `key`: for keys built from data. */
export function has(key) { return key in CATALOGUES[current] || key in (CATALOGUES.en || {}); }

/** A number as the page's language writes it ("1,234" or "1.234"). */
export function num(n) {
  return typeof n === 'number' ? new Intl.NumberFormat(current).format(n) : String(n);
}

/** A moment (an RFC 3339 string or milliseconds) as the page's language writes date and time. */
export function when(at) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
