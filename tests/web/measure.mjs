// What a player sees, measured in the page: every visible text's rendered font size and its
// contrast against what is drawn under it, the size of every move target, and the tab stops from
// the top of the page to the first move. Each function runs inside the page (page.evaluate).

/** Every visible text of the page: its rendered size, colours, contrast and whether it is large. */
export function texts() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  // The colour an element paints with, its opacity folded in (null: paints nothing there).
  const paint = (el) => {
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') return null;
    let c;
    let op = Number(cs.opacity);
    if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) {
      if (['text', 'tspan', 'title', 'line', 'g', 'use'].includes(el.tagName)) return null;
      c = parse(cs.fill);
      op *= Number(cs.fillOpacity);
    } else c = parse(cs.backgroundColor);
    if (!c) return null;
    c[3] *= op;
    return c[3] > 0.01 ? c : null;
  };
  const background = (x, y, self) => {
    const layers = [];
    for (const el of document.elementsFromPoint(x, y)) {
      if (el !== self && self.contains(el)) continue;
      const c = paint(el);
      if (!c) continue;
      layers.push(c);
      if (c[3] >= 0.999) break;
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  // Where a board is zoomed, only what shows in its window counts.
  const clip = (el, r) => {
    const box = el.closest('.zoom-view');
    if (!box) return r;
    const b = box.getBoundingClientRect();
    const x1 = Math.max(r.left, b.left); const y1 = Math.max(r.top, b.top);
    const x2 = Math.min(r.right, b.right); const y2 = Math.min(r.bottom, b.bottom);
    return x2 - x1 > 1 && y2 - y1 > 1 ? { left: x1, top: y1, right: x2, bottom: y2 } : null;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || el.closest('title, option, script, style, noscript, [hidden], .skip')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    // Inside a closed <details> (content-visibility: hidden) nothing is drawn.
    if (el.checkVisibility && !el.checkVisibility({ checkVisibilityCSS: true })) continue;
    const svg = el instanceof SVGElement;
    let r;
    if (svg) r = el.getBoundingClientRect();
    else { const range = document.createRange(); range.selectNodeContents(n); r = range.getBoundingClientRect(); }
    if (r.width < 1 || r.height < 1) continue;
    const seen = clip(el, r);
    if (!seen) continue;
    let size = parseFloat(cs.fontSize);
    if (svg) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    const fg = parse(svg ? cs.fill : cs.color);
    if (!fg) continue;
    // The page scrolls: look at the text where it is, then read what lies under it.
    const cx = (seen.left + seen.right) / 2;
    const cy = (seen.top + seen.bottom) / 2;
    window.scrollTo(0, Math.max(0, cy + window.scrollY - innerHeight / 2));
    const now = svg ? el.getBoundingClientRect() : (() => { const range = document.createRange(); range.selectNodeContents(n); return range.getBoundingClientRect(); })();
    const nowSeen = clip(el, now) || now;
    const bg = background((nowSeen.left + nowSeen.right) / 2, (nowSeen.top + nowSeen.bottom) / 2, el);
    const ink = over(fg, bg);
    const [a, b] = [lum(ink), lum(bg)];
    const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const weight = Number(cs.fontWeight) || 400;
    const large = size >= 24 || (size >= 18.66 && weight >= 700);
    out.push({ text: text.slice(0, 40), size: Math.round(size * 10) / 10, contrast: Math.round(contrast * 100) / 100, large, fg: fg.join(','), bg: bg.map(Math.round).join(','), tag: el.tagName, cls: String(el.getAttribute('class') || '') });
  }
  window.scrollTo(0, 0);
  return out;
}

/** Every move target shown (on the board and in the list): its size in CSS px. */
export function targets() {
  const sel = '[data-move], [data-place], [data-spot], [data-pick-colour], [data-pick-card], [data-pick-hand], .zoom-tools button';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden]') || el.disabled) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    // On a zoomed board: the targets whose middle shows in the window.
    const box = el.closest('.zoom-view');
    if (box) {
      const b = box.getBoundingClientRect();
      const [cx, cy] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      if (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) continue;
    }
    out.push({ w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10, board: !!el.closest('svg'), what: el.getAttribute('data-move') || el.getAttribute('data-place') || el.getAttribute('data-spot') || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30) });
  }
  return out;
}

/** Text nodes with emoji (drawn as boxes without an emoji font), and symbols in board text. */
export function symbols() {
  const emoji = /\p{Emoji_Presentation}|\uFE0F/u;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent;
    if (emoji.test(t)) found.push(`emoji: ${t.trim().slice(0, 40)}`);
    else if (n.parentElement && n.parentElement.closest('.board svg') && /[^\P{So}°]/u.test(t)) found.push(`symbol in the board: ${t.trim().slice(0, 40)}`);
  }
  return found;
}

/**
 * Text cut off: an HTML element whose text is wider than its box where the box hides the rest
 * (overflow not visible), and an SVG text wider than the card or frame it is drawn in (the nearest
 * group with a rect of its own) or reaching past the board's edges (`data-board-width`).
 */
export function clipped() {
  const out = [];
  const shown = (el) => !el.closest('[hidden], .skip, title, option, script, style') && (!el.checkVisibility || el.checkVisibility({ checkVisibilityCSS: true }));
  for (const el of document.body.querySelectorAll('*')) {
    if (el instanceof SVGElement || !shown(el)) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const cs = getComputedStyle(el);
    const hides = (v) => v !== 'visible';
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && (hides(cs.overflowX) || cs.textOverflow === 'ellipsis')) {
      out.push({ text: el.textContent.trim().slice(0, 60), why: `${el.scrollWidth} px of text in a ${el.clientWidth} px box`, tag: el.tagName });
    }
  }
  for (const text of document.querySelectorAll('svg text')) {
    if (!shown(text) || !text.textContent.trim()) continue;
    const r = text.getBoundingClientRect();
    if (r.width < 1) continue;
    // The card or frame the text is written on: a rect drawn in the same group.
    const g = text.parentElement && text.parentElement.closest('g');
    const mid = (r.top + r.bottom) / 2;
    const frame = g && text.parentElement === g && !g.classList.contains('zoom-layer')
      && [...g.children].find((c) => c.tagName === 'rect' && (() => { const f = c.getBoundingClientRect(); return f.top <= mid && mid <= f.bottom; })());
    if (frame) {
      const f = frame.getBoundingClientRect();
      if (f.width > 1 && (r.left < f.left - 1 || r.right > f.right + 1)) {
        out.push({ text: text.textContent.trim().slice(0, 60), why: `${r.width.toFixed(0)} px of text on a ${f.width.toFixed(0)} px card`, tag: 'text' });
        continue;
      }
    }
    // The board's edges, in board units (the zoom layer's own coordinates).
    const svg = text.closest('svg');
    const layer = text.closest('.zoom-layer');
    const width = Number(svg && svg.dataset.boardWidth);
    if (layer && width) {
      const b = text.getBBox();
      const m = layer.getCTM().inverse().multiply(text.getCTM());
      const x1 = m.a * b.x + m.e;
      const x2 = m.a * (b.x + b.width) + m.e;
      if (Math.min(x1, x2) < -1 || Math.max(x1, x2) > width + 1) out.push({ text: text.textContent.trim().slice(0, 60), why: `reaches ${Math.max(x1, x2).toFixed(0)} of a board ${width} wide`, tag: 'text' });
    }
  }
  return out;
}
