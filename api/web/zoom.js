// Zoom and pan for a board larger than its window (Carcassonne's map; any wide board on a
// phone): pinch and drag on touch, wheel and drag with a mouse, buttons (in, out, whole board),
// and keys on the board (+, -, 0; Shift+arrows move the view). A board opens at its readable
// scale (`minScale`, CSS px per board unit: its text at least 12 px, its targets at least 44 px),
// never smaller: where its whole width fits the window at that scale (a desktop) it shows whole;
// where it does not (Wettstreit's rows, Burgbaumeister's display on a phone) it opens centred on
// `focus` or else on the move targets (on the last move, or the top left, where the seat has
// none), to be panned. Shrinking it to the window's width would make its text and targets too
// small to read and tap. A map that grows without end (Carcassonne: `open: 'fill'`) opens larger
// than that where the whole map fits the window. "Whole board" shows all of a board (the
// overview), "Actual size" the readable scale around the moves again. The view a player chose
// (scale and centre) lives on across redraws, per board.

import { h, s } from './svg.js';
import { t } from './i18n/index.js';

const views = new Map();
const DRAG_PX = 6;
// A pointer pressed this recently (ms) focuses what it pressed: no panning to it then, or the
// release would land beside the target and the tap be lost.
const POINTER_FOCUS_MS = 800;
// With a mouse a board may open this much smaller than its readable scale to show all it must.
const SMALLEST = 0.65;

// The replay and the live board keep views of their own: a small early board in the replay must
// not move the live one's.
let mode = 'live';
export function viewMode(m) { mode = m; }

/** The union of boxes ([x0, y0, x1, y1]; nulls left out), null when none. */
function union(...boxes) {
  const bs = boxes.filter(Boolean);
  if (!bs.length) return null;
  return [Math.min(...bs.map((b) => b[0])), Math.min(...bs.map((b) => b[1])), Math.max(...bs.map((b) => b[2])), Math.max(...bs.map((b) => b[3]))];
}

/**
 * The view of one board: its scale `v.k` (CSS px per board unit) and centre (`v.cx`, `v.cy`, in
 * board units), kept per board in `views`, and the window's size (`vw`, `vh`). Its methods move
 * the view; every move ends in `apply`, which keeps the board in the window and draws it.
 */
class Camera {
  constructor(svg, layer, { key, size: [W, H], origin: [ox, oy], focus, minScale }) {
    Object.assign(this, { svg, layer, key, W, H, ox, oy, focus, minScale });
    this.v = views.get(key) || null;
    this.vw = 0;
    this.vh = 0;
  }

  fitScale() { return Math.min(this.vw / this.W, this.vh / this.H); }

  limits() {
    return [Math.min(this.fitScale(), this.minScale) * 0.9, Math.max(this.fitScale(), this.minScale) * 4];
  }

  apply() {
    const { v, vw, vh } = this;
    if (!v || !vw) return;
    const [lo, hi] = this.limits();
    v.k = Math.min(hi, Math.max(lo, v.k));
    // The board fills the window where it is larger, and is centred where it is smaller: it
    // cannot be lost off the window.
    const keep = (c, o, size, win) => (size * v.k <= win ? o + size / 2 : Math.min(o + size - win / 2 / v.k, Math.max(o + win / 2 / v.k, c)));
    v.cx = keep(v.cx, this.ox, this.W, vw);
    v.cy = keep(v.cy, this.oy, this.H, vh);
    const tx = vw / 2 - (v.cx - this.ox) * v.k;
    const ty = vh / 2 - (v.cy - this.oy) * v.k;
    this.layer.setAttribute('transform', `translate(${tx.toFixed(1)},${ty.toFixed(1)}) scale(${v.k.toFixed(4)})`);
    views.set(this.key, v);
  }

  fitted() { return { k: this.fitScale(), cx: this.ox + this.W / 2, cy: this.oy + this.H / 2 }; }

  fit() {
    this.v = { ...this.fitted(), sig: this.v && this.v.sig };
    this.apply();
  }

  targetsSignature() {
    return [...this.layer.querySelectorAll('.target')].map((el) => el.getAttribute('data-move') || el.getAttribute('data-place') || el.getAttribute('data-spot') || el.getAttribute('aria-label')).sort().join('|');
  }

  /** Scales by `f` keeping the board point under window point (px, py) where it is. */
  zoomAt(f, px = this.vw / 2, py = this.vh / 2) {
    const { v, vw, vh } = this;
    const wx = v.cx + (px - vw / 2) / v.k;
    const wy = v.cy + (py - vh / 2) / v.k;
    const [lo, hi] = this.limits();
    v.k = Math.min(hi, Math.max(lo, v.k * f));
    v.cx = wx - (px - vw / 2) / v.k;
    v.cy = wy - (py - vh / 2) / v.k;
    this.apply();
  }

  pan(dx, dy) { this.v.cx -= dx / this.v.k; this.v.cy -= dy / this.v.k; this.apply(); }

  /** Each element `sel` picks with `f(element, matrix to board units)`, as the layer is drawn now. */
  eachIn(sel, f) {
    const inv = this.layer.getCTM() && this.layer.getCTM().inverse();
    if (!inv) return false;
    for (const el of this.layer.querySelectorAll(sel)) {
      const b = el.getBBox();
      if (b.width) f(b, inv.multiply(el.getCTM()));
    }
    return true;
  }

  /** The box of what `sel` picks (the move targets, the last move) in board units (null: none). */
  boxOf(sel) {
    const pts = [];
    this.eachIn(sel, (b, m) => {
      for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y + b.height]]) pts.push([m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    });
    if (!pts.length) return null;
    return [Math.min(...pts.map((p) => p[0])), Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[1]))];
  }

  /** The view at scale k around a box (board units): its middle where it fits in the window, else the window from its top left. */
  around(box, k) {
    // Where the box lies within the board's first window-width (or height) from its edge, the
    // view starts at that edge: nothing left of it is cut off for nothing.
    const along = (lo, hi, win) => ((hi - lo) * k <= win ? (hi <= win / k - 8 ? win / 2 / k : (lo + hi) / 2) : lo - 8 + win / 2 / k);
    return { k, cx: this.ox + along(box[0], box[2], this.vw), cy: this.oy + along(box[1], box[3], this.vh) };
  }

  /** The readable scale, around the move targets where they fit in the window (else from their top left). */
  actualSize() {
    const box = this.boxOf('.target');
    this.v = { ...(box ? this.around(box, this.minScale) : { ...this.v, k: this.minScale }), sig: this.v.sig };
    this.apply();
  }

  /**
   * The first view (null: the whole board). Every move target and the player's own area
   * (`.own-area`) in the window: at the readable scale where they fit; with a mouse smaller, down
   * to SMALLEST of it (a pointer aims finer than a finger; the text still legible), and the whole board where that shows it;
   * on a touch screen at the readable scale around the targets and the own area, else the
   * targets alone, else from their top left. Without targets: around the last move.
   */
  opening(k) {
    const { vw, vh } = this;
    const fine = !matchMedia('(pointer: coarse)').matches;
    if (k <= this.fitScale() + 1e-9 || (fine && this.fitScale() >= k * SMALLEST)) return null;
    const targets = this.boxOf('.target');
    const own = this.boxOf('.own-area');
    const fits = (b, kk) => b && (b[2] - b[0]) * kk <= vw - 8 && (b[3] - b[1]) * kk <= vh - 8;
    const both = union(targets, own);
    if (fine && targets) {
      const kk = Math.max(k * SMALLEST, Math.min(k, (vw - 16) / Math.max(1, both[2] - both[0]), (vh - 16) / Math.max(1, both[3] - both[1])));
      return this.around(both, kk);
    }
    // No target on the board (a bid is made beside it): what happened last, where it is marked.
    const focus = this.focus;
    const box = targets ? (fits(both, k) ? both : targets)
      : (focus ? [focus[0], focus[1], focus[0], focus[1]] : null) || this.boxOf('.last-move') || own || [0, 0, 0, 0];
    return this.around(box, k);
  }

  /** Whether the view shows the middle of every move target (none: it does). */
  showsTargets() {
    this.apply();
    const { v, vw, vh, ox, oy } = this;
    const [x0, x1] = [v.cx - vw / 2 / v.k, v.cx + vw / 2 / v.k];
    const [y0, y1] = [v.cy - vh / 2 / v.k, v.cy + vh / 2 / v.k];
    let all = true;
    this.eachIn('.target', (b, m) => {
      const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
      const [bx, by] = [ox + m.a * x + m.c * y + m.e, oy + m.b * x + m.d * y + m.f];
      if (bx < x0 || bx > x1 || by < y0 || by > y1) all = false;
    });
    return all;
  }
}

/**
 * Wraps `svg` (made by svgRoot, with a viewBox in board units) into a window that zooms and
 * pans. `key` names the board (its view is kept), `origin` is where board unit 0,0 lies in a
 * frame that stays put while the board grows (Carcassonne's map grows to the left and up), and
 * `focus` the board point to show first.
 */
export function zoomable(svg, { key: board, origin = [0, 0], focus = null, minScale = 1, open = 'readable' }) {
  const [, , W, H] = svg.getAttribute('viewBox').split(/[ ,]+/).map(Number);
  svg.removeAttribute('viewBox');
  // The board's size in its own units, for what measures it (text past its edge is cut off).
  svg.dataset.boardWidth = W;
  svg.classList.add('zoom-view');
  const layer = s('g', { class: 'zoom-layer' });
  layer.append(...[...svg.childNodes].filter((c) => c.nodeName !== 'title'));
  svg.append(layer);
  // Per board and page (the route names the game): another game opens at its own view.
  const key = `${location.hash}|${mode}|${board}`;
  const cam = new Camera(svg, layer, { key, size: [W, H], origin, focus, minScale });
  fitToWindow(cam, open);
  const pointers = followPointers(cam);
  // A target reached by keyboard comes into view (one pressed by a pointer is in view already).
  svg.addEventListener('focusin', (e) => {
    if (!cam.v || pointers.busy()) return;
    const r = e.target.getBoundingClientRect();
    const b = svg.getBoundingClientRect();
    const [x, y] = [(r.left + r.right) / 2 - b.left, (r.top + r.bottom) / 2 - b.top];
    if (x < 0 || y < 0 || x > cam.vw || y > cam.vh) cam.pan(cam.vw / 2 - x, cam.vh / 2 - y);
  });
  return withTools(cam);
}

/**
 * Sizes the window as the page allows (as wide as it is, as high as the board at its opening
 * scale, never more than most of the screen), and opens the view: the one kept from before while
 * it still shows every target, else around them.
 */
function fitToWindow(cam, open) {
  const { svg, W, H, minScale } = cam;
  // The opening scale: the readable one (never smaller, whatever the window's width; a board
  // never opens larger than meant either), or larger for a growing map where all of it fits.
  const openScale = (w, maxH) => (open === 'fill' ? Math.max(Math.min(w / W, maxH / H), minScale) : minScale);
  new ResizeObserver(() => {
    const w = svg.clientWidth;
    if (!w) return;
    const maxH = Math.max(240, Math.round(window.innerHeight * 0.72));
    const k = openScale(w, maxH);
    const height = Math.round(Math.min(maxH, H * k) + 2);
    if (Math.abs(height - svg.clientHeight) > 1) svg.style.height = `${height}px`;
    cam.vw = w;
    cam.vh = height;
    // A view kept from before (the player's, or the last turn's) stays while the targets are
    // the same, and where it shows every new target; where it does not (a new turn's targets lie
    // elsewhere) the board opens around them again.
    const sig = cam.targetsSignature();
    if (cam.v && cam.v.sig !== sig && !cam.showsTargets()) cam.v = null;
    if (!cam.v) cam.v = cam.opening(k) || cam.fitted();
    cam.v.sig = sig;
    cam.apply();
  }).observe(svg);
}

/**
 * Pointers and the wheel: one pointer drags, two pinch, the wheel zooms where it points. A drag is
 * not a click on what lies under it. `busy()`: a pointer is down, or was pressed a moment ago.
 */
function followPointers(cam) {
  const { svg } = cam;
  const pointers = new Map();
  let gesture = null;
  let dragged = false;
  let pressed = 0;
  const local = (e) => { const r = svg.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  const begin = () => {
    const ps = [...pointers.values()];
    const { v, vw, vh } = cam;
    if (ps.length === 1) gesture = { x: ps[0][0], y: ps[0][1], cx: v.cx, cy: v.cy, moving: false };
    else if (ps.length === 2) {
      const [a, b] = ps;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      gesture = { pinch: true, d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, k: v.k, wx: v.cx + (mid[0] - vw / 2) / v.k, wy: v.cy + (mid[1] - vh / 2) / v.k };
    }
  };
  svg.addEventListener('pointerdown', (e) => {
    pressed = Date.now();
    if (!cam.v || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pointers.set(e.pointerId, local(e));
    dragged = false;
    begin();
  });
  svg.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    pointers.set(e.pointerId, local(e));
    const ps = [...pointers.values()];
    const { v, vw, vh } = cam;
    if (gesture.pinch && ps.length >= 2) {
      const [a, b] = ps;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const [lo, hi] = cam.limits();
      v.k = Math.min(hi, Math.max(lo, gesture.k * (Math.hypot(a[0] - b[0], a[1] - b[1]) / gesture.d)));
      v.cx = gesture.wx - (mid[0] - vw / 2) / v.k;
      v.cy = gesture.wy - (mid[1] - vh / 2) / v.k;
      dragged = true;
      cam.apply();
    } else if (!gesture.pinch) {
      const [x, y] = ps[0];
      if (!gesture.moving && Math.hypot(x - gesture.x, y - gesture.y) < DRAG_PX) return;
      if (!gesture.moving) { gesture.moving = true; dragged = true; svg.setPointerCapture(e.pointerId); svg.classList.add('dragging'); }
      v.cx = gesture.cx - (x - gesture.x) / v.k;
      v.cy = gesture.cy - (y - gesture.y) / v.k;
      cam.apply();
    }
  });
  const end = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    svg.classList.remove('dragging');
    gesture = null;
    if (pointers.size) begin();
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  svg.addEventListener('click', (e) => { if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; } }, true);
  svg.addEventListener('wheel', (e) => {
    if (!cam.v) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? cam.vh : 1;
    const [px, py] = local(e);
    cam.zoomAt(Math.exp(-e.deltaY * unit * 0.0015), px, py);
  }, { passive: false });
  return { busy: () => pointers.size > 0 || Date.now() - pressed < POINTER_FOCUS_MS };
}

/** The buttons above the board (in, out, whole board, actual size) and the keys on it. */
function withTools(cam) {
  const act = (what) => {
    if (!cam.v) return;
    if (what === 'in') cam.zoomAt(1.25);
    else if (what === 'out') cam.zoomAt(0.8);
    else if (what === 'actual') cam.actualSize();
    else cam.fit();
  };
  const tools = h('div', { class: 'zoom-tools', role: 'group', 'aria-label': t('boards.zoom') },
    h('button', { type: 'button', 'data-zoom': 'in', 'aria-label': t('boards.zoom_in'), title: t('boards.zoom_in'), onclick: () => act('in') }, '+'),
    h('button', { type: 'button', 'data-zoom': 'out', 'aria-label': t('boards.zoom_out'), title: t('boards.zoom_out'), onclick: () => act('out') }, '-'),
    h('button', { type: 'button', 'data-zoom': 'fit', onclick: () => act('fit') }, t('boards.zoom_fit')),
    h('button', { type: 'button', 'data-zoom': 'actual', onclick: () => act('actual') }, t('boards.zoom_actual')),
    h('span', { class: 'zoom-hint' }, t('boards.zoom_hint')));
  const box = h('div', { class: 'zoom' }, tools, cam.svg);
  box.addEventListener('keydown', (e) => {
    if (!cam.v || e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const step = 60;
    const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (e.key === '+' || e.key === '=') act('in');
    else if (e.key === '-' || e.key === '_') act('out');
    else if (e.key === '0') act('fit');
    else if (e.shiftKey && moves[e.key]) cam.pan(...moves[e.key]);
    else return;
    e.preventDefault();
    e.stopPropagation();
  });
  return box;
}
