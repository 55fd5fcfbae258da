// The players' colours and Mauerbauer's five building colours, without a browser: every pair
// stays apart under simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and
// Fernandes 2009, severity 1, on linear RGB; distance CIE76 in CIELAB), and every player and
// every building colour has its own shape as well.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SEAT_COLOURS, SEAT_SHAPES, SEAT_COLOUR_NAMES } from '../../api/web/svg.js';
import { HOUSE, HOUSE_SHAPE } from '../../api/web/games/mauerbauer/board.js';

const MACHADO = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
  'normal vision': [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
};
// Least CIE76 distance between any two colours: 20 reads as clearly different at a glance.
const MIN_DISTANCE = { players: 20, buildings: 15 };

const linear = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const rgb = (hex) => [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16)));
function lab([r, g, b]) {
  const clamp = (v) => Math.min(1, Math.max(0, v));
  [r, g, b] = [r, g, b].map(clamp);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const simulate = (hex, m) => { const c = rgb(hex); return m.map((row) => row[0] * c[0] + row[1] * c[1] + row[2] * c[2]); };
const distance = (a, b, m) => { const [p, q] = [lab(simulate(a, m)), lab(simulate(b, m))]; return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]); };

function closest(colours, m) {
  let best = { d: Infinity };
  for (let i = 0; i < colours.length; i++) {
    for (let j = i + 1; j < colours.length; j++) {
      const d = distance(colours[i], colours[j], m);
      if (d < best.d) best = { d, pair: [colours[i], colours[j]] };
    }
  }
  return best;
}

test('a simulation leaves grey grey and tells red from green apart only with colour vision', () => {
  for (const m of Object.values(MACHADO)) assert.ok(distance('#808080', '#808080', m) < 1e-9);
  // The classic confusion: a red and a green of equal lightness nearly meet under deuteranopia.
  assert.ok(distance('#c0392b', '#7a8a00', MACHADO.deuteranopia) < distance('#c0392b', '#7a8a00', MACHADO['normal vision']) / 2);
});

for (const [what, colours, shapes, min] of [
  ['players', SEAT_COLOURS, SEAT_SHAPES, MIN_DISTANCE.players],
  ['buildings', Object.values(HOUSE), Object.values(HOUSE_SHAPE), MIN_DISTANCE.buildings],
]) {
  test(`the ${what}' colours stay apart under every colour-vision deficiency`, () => {
    for (const [name, m] of Object.entries(MACHADO)) {
      const { d, pair } = closest(colours, m);
      assert.ok(d >= min, `${what} under ${name}: ${pair.join(' and ')} are only ${d.toFixed(1)} apart (at least ${min})`);
    }
  });
  test(`every one of the ${what} has its own shape`, () => {
    assert.equal(shapes.length, colours.length);
    assert.equal(new Set(shapes).size, shapes.length);
  });
}

test('the players\' colours have names for the key', () => {
  assert.equal(SEAT_COLOUR_NAMES.length, SEAT_COLOURS.length);
});
