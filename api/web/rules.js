// A game's rules in the page's language: `GET /v1/kinds/{kind}/rules` asked with the page's
// `Accept-Language` (a plain link cannot send it), its Markdown drawn as headings, paragraphs,
// lists and tables in a dialog. Only text nodes are made: nothing in the document is run.

import { h } from './svg.js';
import { t, lang } from './i18n/index.js';

/** `**bold**`, `*emphasis*`, `` `code` `` and `[text](url)` (the text only) as nodes. */
function inline(text) {
  const out = [];
  const re = /\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\([^)]*\)/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(h('strong', {}, m[1]));
    else if (m[2] !== undefined) out.push(h('em', {}, m[2]));
    else if (m[3] !== undefined) out.push(h('code', {}, m[3]));
    else out.push(m[4]);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

/** Markdown as the rules documents write it, as elements. */
export function markdown(source) {
  const out = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) out.push(h('p', {}, inline(para.join(' '))));
    para = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const head = line.match(/^(#{1,4})\s+(.*)$/);
    const item = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
    if (!line.trim()) { flush(); continue; }
    if (head) { flush(); out.push(h(`h${Math.min(6, head[1].length + 1)}`, {}, inline(head[2]))); continue; }
    if (line.trim().startsWith('|')) {
      flush();
      const rows = [];
      for (; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(lines[i]);
      i--;
      const body = rows.filter((r, n) => !(n === 1 && /^[\s|:-]+$/.test(r)));
      out.push(h('table', { class: 'rules-table' },
        h('thead', {}, h('tr', {}, cells(body[0]).map((c) => h('th', {}, inline(c))))),
        h('tbody', {}, body.slice(1).map((r) => h('tr', {}, cells(r).map((c) => h('td', {}, inline(c))))))));
      continue;
    }
    if (item) {
      if (para.length) { out.push(h('p', {}, inline(para.join(' ')))); para = []; }
      if (!list) { list = h(/^\s*\d+\./.test(line) ? 'ol' : 'ul', {}); out.push(list); }
      list.append(h('li', {}, inline(item[1])));
      continue;
    }
    // A continued list item (indented) or a paragraph's next line.
    if (list && /^\s+\S/.test(line) && list.lastChild) list.lastChild.append(' ', ...inline(line.trim()));
    else { list = null; para.push(line.trim()); }
  }
  flush();
  return out;
}

/** Shows the rules of `kind` in a dialog, fetched in the page's language. */
export async function showRules(kind, title) {
  const res = await fetch(`/v1/kinds/${encodeURIComponent(kind)}/rules`, { headers: { Accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1', 'Accept-Language': lang() } });
  if (!res.ok) throw new Error(t('rules.unavailable', { title }));
  const text = await res.text();
  const close = h('button', { type: 'button', id: 'rules-close' }, t('dismiss'));
  const dialog = h('dialog', { class: 'rules', id: 'rules', 'aria-label': t('lobby.rules_of', { title }), lang: res.headers.get('Content-Language') || undefined },
    h('div', { class: 'row' }, close), ...markdown(text));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}
