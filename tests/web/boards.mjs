// Boards a player can read and touch, every kind on a phone (390 × 844), at the view the board
// opens with (no zoom button tapped first), in English and in German: no visible text under
// 12 px, every move target at least 44 × 44 px, every text at WCAG AA contrast against what is
// drawn under it, the last move marked on the board, no emoji, few tab stops from the top of the
// page to the first move, the whole board one tap away; Carcassonne's map zooms and pans (buttons, wheel, drag, pinch, keys)
// and still takes a move afterwards. Each game is set up through the API (random legal moves up
// to a point where the page's player acts). Screenshots of every kind at phone and desktop size
// go to target/web-screenshots/boards-*.png. Usage: BASE_URL=http://127.0.0.1:PORT node boards.mjs [kind…]

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { client } from './client.mjs';
import { watchConsole } from './console.mjs';
import { texts, targets, symbols, clipped } from './measure.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SHOTS || new URL('../../target/web-screenshots/', import.meta.url).pathname;
const RUN = Date.now().toString(36).slice(-5);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
mkdirSync(SHOTS, { recursive: true });
const api = client(BASE);

// Each kind: seats, options, how many random moves before looking, and which moves the looking
// player must then have (so that the board shows targets).
const KINDS = {
  burgbaumeister: { seats: 3, options: { variant: true }, moves: 14, wants: ['TurnUpCard', 'AddCardToWall'] },
  wettstreit: { seats: 3, options: {}, moves: 40, wants: ['BuildCard', 'FoundCity', 'AuctionTopCard', 'RollIncomeDie'] },
  'space-builder': { seats: 2, options: { timing: 'elapsed' }, moves: 3, wants: ['PlaceBuildingCard', 'MoveBuildingCard', 'LookAtBlueprint'] },
  mauerbauer: { seats: 3, options: {}, moves: 12, wants: ['BuildWall', 'PlaceTowers', 'PlaceHouses'] },
  carcassonne: { seats: 5, options: { mage_and_witch: true, gold_mines: true }, moves: 30, wants: ['PlaceTile'] },
};

// The moves that stay in the list beside the board: declarations and choices with no place on
// the table (passing, finishing). Every other move is made on the board; the sets of cards laid
// at once (founding a city, laying guild cards) and a card released are on the board and in the
// list as well.
const LIST_ONLY = {
  burgbaumeister: ['DeclineCannon'],
  wettstreit: ['PassBid', 'FinishBuildStep', 'PayToKeepBuilding', 'LetBuildingFall'],
  'space-builder': ['DeclareCityFinished', 'StopBuilding'],
  mauerbauer: ['JoinCities', 'KeepCitiesApart', 'FinishCardSwap', 'PassFinalScoring'],
  carcassonne: ['SkipFollower'],
};
export const BOARD_AND_LIST = { wettstreit: ['FoundCity'], mauerbauer: ['LayGuildCards'], 'space-builder': ['ReleaseBuildingCard'] };

let games = 0;
/** A game of `kind` played at random until the player to act has one of the wanted moves. */
async function setUp(kind) {
  const spec = KINDS[kind];
  const accounts = [];
  games += 1;
  for (let i = 0; i < spec.seats; i++) accounts.push(await api.account(`bd${kind.slice(0, 4)}${i}${RUN}${games}`));
  const id = await api.game(kind, accounts, spec.options);
  const seatOf = (d, seat) => accounts.find((a) => d.seats.some((s) => s.seat === seat && s.player === a.name));
  for (let i = 0; i < spec.moves + 400; i++) {
    const d = await api.call('GET', `/v1/games/${id}`, undefined, accounts[0].token);
    assert.equal(d.status, 'active', `${kind}: the game ended while being set up`);
    for (const seat of d.to_act) {
      const who = seatOf(d, seat);
      const { moves } = await api.call('GET', `/v1/games/${id}/moves`, undefined, who.token);
      if (i >= spec.moves && moves.some((m) => spec.wants.includes(m.command.type))) return { id, who, accounts };
    }
    const who = seatOf(d, d.to_act[0]);
    const { moves } = await api.call('GET', `/v1/games/${id}/moves`, undefined, who.token);
    // Keep the game going: no move that would end it early where another is offered.
    const m = moves[Math.floor(Math.random() * moves.length)];
    await api.call('POST', `/v1/games/${id}/commands`, { command: m.command }, who.token).catch(() => {});
  }
  throw new Error(`${kind}: no position with ${spec.wants.join(' or ')} reached`);
}

const tally = {};
async function open(browser, account, viewport, touch = false, lang = 'en') {
  const ctx = await browser.newContext({ viewport, hasTouch: touch });
  await ctx.addInitScript(([name, token, lang]) => {
    localStorage.setItem('baumeister.name', name);
    localStorage.setItem('baumeister.token', token);
    localStorage.setItem('baumeister.poll_ms', '60000');
    localStorage.setItem('baumeister.lang', lang);
  }, [account.name, account.token, lang]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { tally.pageErrors = (tally.pageErrors || 0) + 1; console.error(`page error: ${e.message}`); });
  watchConsole(page, account.name, tally);
  return page;
}

async function gamePage(browser, g, viewport, touch, lang) {
  const page = await open(browser, g.who, viewport, touch, lang);
  await page.goto(`${BASE}/#/game/${g.id}`);
  await page.waitForSelector('#status[data-your-turn="true"]', { timeout: 15000 });
  await page.waitForSelector('.board svg');
  await page.waitForTimeout(200);
  return page;
}

/** Tab presses from the top of the page until a move has the focus (Enter on "Skip to your moves"). */
async function tabsToFirstMove(page) {
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const isMove = () => page.evaluate(() => {
    const el = document.activeElement;
    return !!el && (el.matches('[data-move], [data-place], [data-spot]'));
  });
  for (let tabs = 1; tabs <= 40; tabs++) {
    await page.keyboard.press('Tab');
    if (await isMove()) return tabs;
    if (await page.evaluate(() => document.activeElement?.id === 'skip-moves')) {
      await page.keyboard.press('Enter');
      assert.ok(await isMove(), '"Skip to your moves" puts the focus on a move');
      return tabs;
    }
  }
  return Infinity;
}

/** How much of the board's width the window shows (1: the whole width). */
const widthShown = (page) => page.evaluate(() => {
  const view = document.querySelector('.board .zoom-view').getBoundingClientRect();
  const layer = document.querySelector('.board .zoom-layer').getBoundingClientRect();
  return Math.min(1, view.width / layer.width);
});

/**
 * Text and targets as the board opens, before any tap on the zoom buttons: no visible text under
 * 12 px, every text at WCAG AA contrast, the board offering moves, every target 44 × 44 px.
 */
async function readableAsOpened(page, kind, lang) {
  const shown = await page.evaluate(texts);
  const small = shown.filter((t) => t.size < 12);
  assert.deepEqual(small, [], `${kind} (${lang}): text under 12 px as the board opens`);
  const faint = shown.filter((t) => t.contrast < (t.large ? 3 : 4.5));
  assert.deepEqual(faint, [], `${kind} (${lang}): text under WCAG AA contrast`);
  const tg = await page.evaluate(targets);
  assert.ok(tg.some((t) => t.board), `${kind} (${lang}): the board offers moves`);
  const tiny = tg.filter((t) => t.w < 44 || t.h < 44);
  assert.deepEqual(tiny, [], `${kind} (${lang}): targets under 44 × 44 px as the board opens`);
  return { shown, tg };
}

async function measure(page, kind) {
  // Measured at the view the board opens with: a board wider than the phone opens at its
  // readable scale, panned to the moves, not shrunk to the phone's width.
  const { shown, tg } = await readableAsOpened(page, kind, 'en');
  assert.deepEqual(await page.evaluate(symbols), [], `${kind}: emoji or symbols as text`);
  const listed = await page.$$eval('#move-list [data-move]', (els) => els.map((e) => JSON.parse(e.dataset.move).type));
  const boardTypes = await page.$$eval('.board [data-move]', (els) => els.map((e) => JSON.parse(e.dataset.move).type));
  const both = BOARD_AND_LIST[kind] || [];
  assert.deepEqual(listed.filter((type) => !LIST_ONLY[kind].includes(type) && !(both.includes(type) && boardTypes.includes(type))), [], `${kind}: moves only in the list`);
  const last = await page.evaluate(() => [...document.querySelectorAll('.board .zoom-layer .last-move')].filter((e) => e.getBoundingClientRect().width > 0).length);
  assert.ok(last > 0, `${kind}: the last move is marked on the board`);
  const tabs = await tabsToFirstMove(page);
  assert.ok(tabs <= 5, `${kind}: ${tabs} tab stops to the first move`);
  // The board's targets are one tab stop: the arrows go from one to the next.
  // Which target has the focus: its place among the board's targets (two targets may start alike).
  const onBoard = () => page.evaluate(() => {
    const el = document.activeElement;
    return el && el.closest('.board svg') ? `${[...document.querySelectorAll('.board svg .target')].indexOf(el)}: ${el.outerHTML.slice(0, 120)}` : null;
  });
  const first = await onBoard();
  if (first && (await page.locator('.board svg .target').count()) > 1) {
    assert.equal(await page.locator('.board svg .target[tabindex="0"]').count(), 1, `${kind}: one board target is in the tab order`);
    let moved = false;
    for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
      await page.keyboard.press(key);
      const now = await onBoard();
      assert.ok(now, `${kind}: ${key} keeps the focus on the board`);
      if (now !== first) { moved = true; break; }
    }
    assert.ok(moved, `${kind}: the arrow keys move between the board's targets`);
  }
  // The whole board is one tap away ("Whole board" shows its whole width), and "Actual size"
  // brings it back to where its text is readable.
  await page.click('[data-zoom="fit"]');
  assert.ok(await widthShown(page) > 0.97, `${kind}: "Whole board" shows the board's whole width`);
  await page.click('[data-zoom="actual"]');
  const actual = (await page.evaluate(texts)).filter((t) => t.size < 12);
  assert.deepEqual(actual, [], `${kind}: text under 12 px after "Actual size"`);
  const minSize = Math.min(...shown.map((t) => t.size));
  const minContrast = Math.min(...shown.map((t) => t.contrast));
  const minTarget = tg.reduce((m, t) => Math.min(m, t.w, t.h), Infinity);
  return { texts: shown.length, minSize, minContrast, targets: tg.length, minTarget, tabs };
}

const transform = (page) => page.getAttribute('.board .zoom-layer', 'transform');

/** Carcassonne: buttons, wheel, drag, pinch and keys change the map's transform; a move still works. */
async function zoomAndPlay(browser, g) {
  const page = await gamePage(browser, g, PHONE, true);
  const t0 = await transform(page);
  await page.click('[data-zoom="out"]');
  const t1 = await transform(page);
  assert.notEqual(t1, t0, 'zoom out changes the transform');
  await page.click('[data-zoom="in"]');
  await page.click('[data-zoom="in"]');
  const t2 = await transform(page);
  assert.notEqual(t2, t1, 'zoom in changes the transform');
  await page.evaluate(() => document.querySelector('.board .zoom-view').scrollIntoView({ block: 'start' }));
  const box = await page.locator('.board .zoom-view').boundingBox();
  const [cx, cy] = [box.x + box.width / 2, Math.min(box.y + box.height / 2, PHONE.height - 120)];
  // A one-finger drag pans (touch events through the DevTools protocol).
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
  await touch('touchStart', [[cx, cy]]);
  for (let i = 1; i <= 5; i++) await touch('touchMove', [[cx - i * 12, cy - i * 8]]);
  await touch('touchEnd', []);
  const t3 = await transform(page);
  assert.notEqual(t3, t2, 'a drag pans the map');
  // Two fingers apart zoom in.
  await touch('touchStart', [[cx - 20, cy], [cx + 20, cy]]);
  for (let i = 1; i <= 5; i++) await touch('touchMove', [[cx - 20 - i * 10, cy], [cx + 20 + i * 10, cy]]);
  await touch('touchEnd', []);
  const t4 = await transform(page);
  assert.notEqual(t4, t3, 'a pinch zooms the map');
  // The keyboard: "-" on the board zooms out, "0" shows the whole map.
  await page.locator('.board [data-place]').first().focus();
  await page.keyboard.press('-');
  const t5 = await transform(page);
  assert.notEqual(t5, t4, 'the "-" key zooms out');
  await page.keyboard.press('0');
  await page.screenshot({ path: `${SHOTS}boards-carcassonne-zoomed-phone.png` });
  await page.context().close();

  // With a mouse: the wheel zooms, a drag pans, and a place on the map still takes the tile.
  const desk = await gamePage(browser, g, DESKTOP);
  const d0 = await transform(desk);
  await desk.evaluate(() => document.querySelector('.board .zoom-view').scrollIntoView({ block: 'start' }));
  const dbox = await desk.locator('.board .zoom-view').boundingBox();
  await desk.mouse.move(dbox.x + dbox.width / 2, dbox.y + dbox.height / 2);
  await desk.mouse.wheel(0, -400);
  await desk.waitForTimeout(100);
  const d1 = await transform(desk);
  assert.notEqual(d1, d0, 'the wheel zooms');
  await desk.mouse.down();
  await desk.mouse.move(dbox.x + dbox.width / 2 + 60, dbox.y + dbox.height / 2 + 30, { steps: 6 });
  await desk.mouse.up();
  const d2 = await transform(desk);
  assert.notEqual(d2, d1, 'a mouse drag pans');
  // The place targets now in view, at least 44 px at this zoom; one of them takes the tile.
  const inView = () => desk.evaluate(() => {
    const b = document.querySelector('.board .zoom-view').getBoundingClientRect();
    return [...document.querySelectorAll('.board [data-place]')].map((el) => {
      const r = el.getBoundingClientRect();
      return { at: el.dataset.place, w: r.width, h: r.height, in: r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom };
    }).filter((p) => p.in);
  });
  let shown = await inView();
  if (!shown.length) { await desk.click('[data-zoom="fit"]'); shown = await inView(); }
  assert.ok(shown.length > 0, 'a free place shows on the map');
  for (const p of shown) assert.ok(p.w >= 44 && p.h >= 44, `a free place is ${p.w}×${p.h} px at this zoom`);
  const place = desk.locator(`.board [data-place="${shown[0].at}"]`);
  const before = await desk.getAttribute('[data-game-page]', 'data-version');
  await place.click();
  await desk.locator('button.rotation').first().click();
  await desk.waitForFunction((b) => document.querySelector('[data-game-page]')?.dataset.version !== b, before, { timeout: 10000 });
  assert.ok(await desk.locator('.board .zoom-layer .last-move').count() > 0, 'the tile just placed is marked');
  // Where the tile has room for a follower, the picker shows it large: no label cut off there.
  if (await desk.locator('.c-zoom svg').count()) {
    await desk.locator('.c-zoom').screenshot({ path: `${SHOTS}boards-carcassonne-picker.png` });
    assert.deepEqual(await desk.evaluate(clipped), [], 'carcassonne: text cut off in the follower picker');
  }
  await desk.context().close();
}

/**
 * Carcassonne's picker (a follower, the mage or the witch on a feature) labels each target with
 * the feature's name: every such name, in either language, must fit the target in the fonts this
 * browser has. Measured directly, because a random game shows the picker only now and then.
 */
function pickLabelsOverflow(page) {
  return page.evaluate(async () => {
    const { PICK_WIDTH } = await import('/web/games/carcassonne/board.js');
    const NS = 'http://www.w3.org/2000/svg';
    const keys = ['cc.label.city', 'cc.label.road', 'cc.label.field', 'cc.label.cloister', 'boards.c.mage', 'boards.c.witch'];
    const found = [];
    for (const lang of ['en', 'de']) {
      const words = (await import(`/web/i18n/${lang}.js`)).default;
      for (const key of keys) {
        const svg = document.createElementNS(NS, 'svg');
        const g = document.createElementNS(NS, 'g');
        g.setAttribute('class', 'c-pick');
        const text = document.createElementNS(NS, 'text');
        text.textContent = words[key];
        g.append(text);
        svg.append(g);
        document.body.append(svg);
        const width = text.getBBox().width;
        svg.remove();
        if (!(width > 0) || width > PICK_WIDTH - 2) found.push(`${lang} ${key}: "${words[key]}" is ${width.toFixed(1)} wide, the target ${PICK_WIDTH}`);
      }
    }
    return found;
  });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
let failed = 0;
try {
  const kinds = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(KINDS);
  for (const kind of kinds) {
    try {
      const before = { ...tally };
      const g = await setUp(kind);
      const phone = await gamePage(browser, g, PHONE, true);
      await phone.screenshot({ path: `${SHOTS}boards-${kind}-phone.png`, fullPage: true });
      await phone.locator('.board').screenshot({ path: `${SHOTS}boards-${kind}-phone-board.png` });
      const m = await measure(phone, kind);
      assert.deepEqual(await phone.evaluate(clipped), [], `${kind}: text cut off on a phone in English`);
      if (kind === 'carcassonne') assert.deepEqual(await pickLabelsOverflow(phone), [], 'carcassonne: a label is wider than its target in the picker');
      await phone.context().close();
      // The same board in German (its words are longer), at the size it opens with.
      const german = await gamePage(browser, g, PHONE, true, 'de');
      await german.screenshot({ path: `${SHOTS}boards-${kind}-phone-de.png`, fullPage: true });
      await readableAsOpened(german, kind, 'de');
      assert.deepEqual(await german.evaluate(clipped), [], `${kind}: text cut off on a phone in German`);
      await german.context().close();
      const desk = await gamePage(browser, g, DESKTOP);
      await desk.screenshot({ path: `${SHOTS}boards-${kind}-desktop.png`, fullPage: true });
      await desk.context().close();
      if (kind === 'carcassonne') await zoomAndPlay(browser, g);
      assert.equal(tally.consoleErrors || 0, before.consoleErrors || 0, 'console errors');
      assert.equal(tally.pageErrors || 0, before.pageErrors || 0, 'the page threw');
      console.log(`ok: ${kind} on a phone: ${m.texts} texts, smallest ${m.minSize} px, lowest contrast ${m.minContrast}; ${m.targets} targets, smallest side ${m.minTarget} px; ${m.tabs} tab stops to the first move`);
    } catch (e) {
      failed++;
      console.error(`FAILED: ${kind}: ${e.stack || e}`);
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
