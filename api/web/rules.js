// A game's rules for players, in the page's language: how to play, what the board shows and how
// points are counted, with small drawings of the board's parts. Each kind's text lives in its own
// module (`games/<kind>/rules.js`, both languages side by side), loaded when its rules are first
// opened. The rules as the server plays them, written for programmers, stay with the API
// (`/v1/kinds/{kind}/rules`, linked from `/docs`).
//
// A kind's module exports `{ en, de, drawings }`: each language `{ intro, sections }`, a section
// `{ title, blocks }`, a block a paragraph (a string), a list (an array of strings) or a drawing
// (`{ draw: name, caption }`, `drawings[name]()` making the SVG).

import { h } from './svg.js';
import { t, lang } from './i18n/index.js';
import { GAMES } from './games/index.js';

/** The kinds with rules for players. */
export const RULE_KINDS = Object.keys(GAMES);

/** The rules of `kind` for players as elements, in language `code`; null for a kind without. */
export async function rulesContent(kind, code = lang()) {
  if (!GAMES[kind]) return null;
  const mod = (await GAMES[kind].rules()).default;
  const text = mod[code] || mod.en;
  const block = (b) => {
    if (typeof b === 'string') return h('p', {}, b);
    if (Array.isArray(b)) return h('ul', {}, b.map((item) => h('li', {}, item)));
    const art = mod.drawings[b.draw]();
    art.setAttribute('role', 'img');
    art.setAttribute('aria-label', b.caption);
    art.classList.add('rules-drawing');
    return h('figure', { class: 'rules-figure', 'data-drawing': b.draw }, art, h('figcaption', {}, b.caption));
  };
  return [
    h('p', { class: 'rules-intro' }, text.intro),
    ...text.sections.map((sec) => h('section', { class: 'rules-section' }, h('h3', {}, sec.title), sec.blocks.map(block))),
  ];
}

/** Shows the rules of `kind` in a dialog, in the page's language. */
export async function showRules(kind, title) {
  const content = await rulesContent(kind);
  if (!content) throw new Error(t('rules.unavailable', { title }));
  const close = h('button', { type: 'button', id: 'rules-close' }, t('dismiss'));
  const dialog = h('dialog', { class: 'rules', id: 'rules', 'aria-label': t('lobby.rules_of', { title }), lang: lang() },
    h('div', { class: 'row' }, h('h2', {}, t('lobby.rules_of', { title })), close), ...content);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}

/** The rules of `kind` as a page of their own (`#/rules/KIND`), for a link to keep or share. */
export function showRulesPage(main, kind) {
  const box = h('article', { class: 'rules-page', 'data-rules': kind, lang: lang() });
  main.replaceChildren(box);
  rulesContent(kind).then((content) => {
    if (!content) { box.replaceChildren(h('p', {}, t('rules.unavailable', { title: kind }))); return; }
    box.replaceChildren(h('p', {}, h('a', { href: '#/' }, t('rules.back'))), h('h1', {}, t(`rules.title.${kind}`)), ...content);
  }).catch(() => box.replaceChildren(h('p', {}, t('rules.unavailable', { title: kind }))));
  return null;
}
