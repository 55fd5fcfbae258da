// The page's language, seen from the test: the catalogues' words, and a look at a page for
// English interface words where it should speak German.

import en from '../../api/web/i18n/en.js';
import de from '../../api/web/i18n/de.js';
import { translate, loadLanguage } from '../../api/web/i18n/index.js';

// The page loads only its own language; the tests read both.
await loadLanguage('en');
await loadLanguage('de');

export const CATALOGUES = { en, de };
/** The browser locale that makes the page choose each language by itself. */
export const LOCALES = { en: 'en-GB', de: 'de-DE' };

/** A catalogue string with its placeholders filled, as the page writes it. */
export const say = (lang, key, params) => translate(lang, key, params);

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What gives English away on a German page: for every key whose English differs from its German,
 * the English as a whole-text pattern (placeholders match anything) and its literal pieces of two
 * words or more that the German does not also contain.
 */
function englishMarks() {
  const marks = [];
  // Every word the German catalogue writes: an English count's word that German writes too
  // ("bot", German for "bid") gives nothing away.
  const germanWords = new Set(Object.values(de).flatMap((t) => t.split(/\{[^}]*\}|[^\p{L}]+/u)));
  for (const [key, text] of Object.entries(en)) {
    const german = de[key];
    if (german === text) continue;
    const parts = text.split(/\{[^}]*\}/);
    const pattern = new RegExp(`^${parts.map(escape).join('.+?')}$`, 's');
    const germanPattern = new RegExp(`^${german.split(/\{[^}]*\}/).map(escape).join('.+?')}$`, 's');
    const pieces = parts.map((p) => p.trim()).filter((p) => p.length >= 6 && /[a-z]{2,} [a-z]{2,}/i.test(p) && !german.includes(p));
    // A count's English forms ("{n:point|points}") give it away as "3 points".
    const forms = [...text.matchAll(/\{\w+:([^|}]*)\|([^}]*)\}/g)].flatMap((m) => [m[1], m[2]])
      .filter((w) => /[a-z]{3,}/i.test(w) && !german.includes(w) && !germanWords.has(w))
      .map((w) => new RegExp(`(^|\\s)\\d+ ${escape(w)}\\b`));
    // A pattern with no words of its own ("{colour} {shape}") would match anything.
    const whole = /[a-z]{3,}/i.test(parts.join('')) ? pattern : null;
    marks.push({ key, whole, germanPattern, pieces, forms });
  }
  return marks;
}
export const ENGLISH = englishMarks();

/**
 * Every text a player meets on the page, in the page: visible text nodes, and the labels a
 * screen reader reads (aria-label, title elements of targets, placeholders).
 */
export function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => {
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
        if (e.hidden || e.getAttribute('aria-hidden') === 'true') return false;
        const cs = getComputedStyle(e);
        if (cs.display === 'none' || cs.visibility === 'hidden') return false;
      }
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName)) continue;
      // The server's own words (a refusal's detail) and player names are not the page's.
      if (el.closest('#problem, [data-me]')) continue;
      if (el.tagName === 'title' && el.parentElement && el.parentElement.getAttribute('aria-label')) continue;
      if (el.tagName !== 'title' && !shown(el)) continue;
      out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder]')) {
      if (el.closest('[hidden]')) continue;
      for (const a of ['aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a).trim());
    }
    return out;
  });
}

/** The English interface words on a page that should be German: `["text" (key)]`, empty when none. */
export async function englishOn(page) {
  const found = new Set();
  for (const text of await visibleTexts(page)) {
    for (const m of ENGLISH) {
      if (m.whole && m.whole.test(text) && !m.germanPattern.test(text)) found.add(`"${text}" (${m.key})`);
      for (const p of m.pieces) if (text.includes(p)) found.add(`"${text}" (${m.key}: "${p}")`);
      for (const f of m.forms) if (f.test(text)) found.add(`"${text}" (${m.key}: ${f})`);
    }
  }
  return [...found];
}
