// The page's language: English or German, from `navigator.languages` unless the player chose one
// in the page (remembered in localStorage). `t(key, params)` fills `{name}` placeholders.

import en from './en.js';
import de from './de.js';

export const CATALOGUES = { en, de };
export const LANGUAGES = [['en', 'English'], ['de', 'Deutsch']];
const KEY = 'baumeister.lang';

function stored() {
  try { return globalThis.localStorage ? localStorage.getItem(KEY) : null; } catch { return null; }
}

/** The first of the browser's languages we have, else English. */
export function pickLanguage(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (CATALOGUES[base]) return base;
  }
  return 'en';
}

let current = CATALOGUES[stored()] ? stored() : pickLanguage(globalThis.navigator && navigator.languages);

export function lang() { return current; }

export function setLang(code) {
  if (!CATALOGUES[code]) return;
  current = code;
  try { localStorage.setItem(KEY, code); } catch { /* private mode: only for this page */ }
  if (globalThis.document) document.documentElement.lang = code;
}

/** A string of the catalogue `code` (default: the page's), English when the key is missing. */
export function translate(code, key, params = {}) {
  const text = CATALOGUES[code][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

export function t(key, params) { return translate(current, key, params); }
