// Plays a whole game of every kind through the web client only, each player in their own
// browser context, clicking what the page offers; checks that no page shows another player's
// secrets; saves a screenshot of each board mid-game. One player is on a desktop, the next on a
// phone (390×844); each kind is played in English and German, the page choosing its language from
// the browser's locale (desktop English and phone German, then the other way round, by turns);
// half-way every player switches the page to the other language, so that every kind is played in
// all four pairs of size and language. A German page must show no English interface words from
// the catalogue, and no page text may be cut off. Any console error,
// failed request or refused move fails the kind. Usage: BASE_URL=http://127.0.0.1:PORT
// node play.mjs [kind…]. CHROMIUM overrides the browser's path; SHOTS the screenshot folder.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { watchConsole } from './console.mjs';
import { LOCALES, say, englishOn } from './language.mjs';
import { clipped } from './measure.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SHOTS || new URL('../../target/web-screenshots/', import.meta.url).pathname;
const RUN = Date.now().toString(36).slice(-5);
mkdirSync(SHOTS, { recursive: true });

const pickType = (types) => (moves) => {
  for (const t of types) {
    const ms = moves.filter((m) => m.cmd.type === t);
    if (ms.length) return ms[Math.floor(Math.random() * ms.length)];
  }
  return moves[Math.floor(Math.random() * moves.length)];
};

// Each kind: seats, options to set in the form, how to choose among the offered moves, and the
// secrets to look for on every page after every move.
const KINDS = {
  burgbaumeister: { seats: 2, options: {}, shotAt: 16,
    // As a player would: remember where the cards turned up lie (the game is about that), turn
    // up a remembered card that fits where there is one, else one not seen yet; keep room in
    // the wall, and take a card that does not jump too far. Turning up cards at random made a
    // game 200 moves long on average and over 400 one time in twenty (mostly blocked in the
    // end, never showing a complete wall); remembering makes it about 50.
    memory: new Map(),
    choose: (moves, seen) => {
      const spec = KINDS.burgbaumeister;
      const { up, last, length } = seen.extra || {};
      const room = ((45 - last) / Math.max(1, 9 - length)) * 2;
      const add = moves.find((m) => m.cmd.type === 'AddCardToWall');
      // Take it when the jump leaves room for the cards still needed, or after a run of returns.
      if (add && (up === undefined || up - last <= room || spec.returns >= 6)) {
        spec.returns = 0;
        return add;
      }
      const turns = moves.filter((m) => m.cmd.type === 'TurnUpCard');
      if (turns.length) {
        const known = (m) => spec.memory.get(m.cmd.slot);
        const fits = turns.filter((m) => known(m) > last && known(m) - last <= room);
        if (fits.length) return fits.reduce((a, b) => (known(a) < known(b) ? a : b));
        const unseen = turns.filter((m) => known(m) === undefined);
        const pool = unseen.length ? unseen : turns;
        return pool[Math.floor(Math.random() * pool.length)];
      }
      const move = pickType(['ReturnCard'])(moves.filter((m) => m.cmd.type !== 'AddCardToWall' || moves.length === 1));
      if (move.cmd.type === 'ReturnCard') spec.returns = (spec.returns || 0) + 1;
      return move;
    },
    probe: () => {
      const me = document.querySelector('.seats li[data-you]');
      const seat = me ? me.dataset.seat : null;
      const wall = document.querySelector(`[data-wall="${seat}"]`);
      const card = document.querySelector('.card.turned-up');
      const up = card?.querySelector('.num');
      return { up: up ? Number(up.textContent) : undefined, slot: card ? Number(card.dataset.slot) : undefined, last: wall ? Number(wall.dataset.last) : 1, length: wall ? Number(wall.dataset.length) : 0 };
    },
    // What every player saw: the card turned up, where it lies (it keeps its slot until it
    // joins a wall, and then that slot is never offered again).
    remember(seen) {
      const { up, slot } = seen.extra || {};
      if (up !== undefined && slot !== undefined) KINDS.burgbaumeister.memory.set(slot, up);
    },
    async secrets(pages, seats, langs) {
      for (let i = 0; i < pages.length; i++) {
        const p = pages[i];
        assert.equal(await p.evaluate(() => document.querySelectorAll('.card.face-down .num').length), 0, 'a face-down card shows its number');
        // The display's places are counted from 1 for people (the API's slot 0 is place 1).
        const labels = await p.$$eval('[data-slot][data-move*="TurnUpCard"]', (els) => els.map((e) => [Number(e.dataset.slot), e.getAttribute('aria-label')]));
        for (const [slot, label] of labels) assert.equal(label, say(langs[i], 'bb.ui.turn_up', { slot: slot + 1 }), `burgbaumeister: slot ${slot} is labelled`);
      }
    } },
  wettstreit: { seats: 3, options: {}, shotAt: 60, boardAndList: ['FoundCity'],
    choose: (moves) => {
      const bid = moves.find((m) => m.cmd.type === 'MakeOpeningBid');
      if (bid) return bid;
      return pickType(['FoundCity', 'BuildCard', 'FinishBuildStep', 'RollIncomeDie', 'AuctionTopCard', 'PassBid', 'LetBuildingFall'])(moves);
    },
    async secrets(pages, seats, langs) {
      for (let i = 0; i < pages.length; i++) {
        const purses = await pages[i].$$eval('[data-purse]', (els) => els.map((e) => [Number(e.dataset.purse), e.textContent]));
        const own = new RegExp(`^${say(langs[i], 'ws.ui.purse', { n: 'N' }).replace('N', '\\d+')}$`);
        for (const [seat, text] of purses) {
          if (seat === seats[i]) assert.match(text, own, 'a player sees their own purse');
          else assert.equal(text, say(langs[i], 'ws.ui.purse_secret'), `seat ${seats[i]} sees the purse of seat ${seat}`);
        }
      }
    } },
  'space-builder': { seats: 2, options: { timing: 'elapsed' }, shotAt: 12, boardAndList: ['ReleaseBuildingCard'],
    choose: pickType(['ReleaseBuildingCard', 'LookAtBlueprint', 'DeclareCityFinished', 'PlaceBuildingCard']),
    async secrets(pages) {
      for (const p of pages) {
        const [mustLook, shown] = await p.evaluate(() => [document.querySelectorAll('[data-move*="LookAtBlueprint"]').length, document.querySelectorAll('[data-blueprint]').length]);
        if (mustLook) assert.equal(shown, 0, 'the blueprint shows before the player looked');
      }
    } },
  mauerbauer: { seats: 2, options: {}, shotAt: 30, boardAndList: ['LayGuildCards'], choose: pickType([]),
    // Towers and houses go on the board by tapping corners and fields: both must have happened.
    after(spec) {
      assert.ok((spec.taps?.corner || 0) > 0, 'mauerbauer: a tower was placed by tapping a corner');
      assert.ok((spec.taps?.field || 0) > 0, 'mauerbauer: a house was placed by tapping a field');
    },
    async secrets(pages, seats, langs) {
      for (let i = 0; i < pages.length; i++) {
        const hands = await pages[i].$$eval('[data-guild-hand]', (els) => els.map((e) => Number(e.dataset.guildHand)));
        for (const seat of hands) assert.equal(seat, seats[i], `seat ${seats[i]} sees the guild cards of seat ${seat}`);
        // Fields and closed cities are counted from 1 for people (the API's field 0 is field 1).
        const field = await pages[i].evaluate(() => document.querySelector('.mb-field[data-field="0"] title')?.textContent);
        assert.equal(field, say(langs[i], 'mb.ui.field', { id: 1, region: 'A' }), 'mauerbauer: field 0 is shown as field 1');
        const cities = await pages[i].$$eval('.city-label[data-city]', (els) => els.map((e) => [Number(e.dataset.city), e.querySelector('text').textContent]));
        for (const [city, text] of cities) assert.equal(text, say(langs[i], 'mb.ui.city', { id: city + 1 }), `mauerbauer: city ${city} is labelled`);
      }
    } },
  carcassonne: { seats: 2, options: { mage_and_witch: true, gold_mines: true }, shotAt: 50,
    choose: (moves) => (Math.random() < 0.4 ? pickType(['PlaceFollower', 'PlaceGoldIngot'])(moves) : pickType(['SkipFollower', 'PlaceGoldIngot'])(moves)),
    async secrets() {},
    // Before a move: the follower targets are apart, labelled and big enough to tap.
    async before(page, spec, lang) {
      const picks = await page.evaluate(() => [...document.querySelectorAll('[data-move*="PlaceFollower"]')].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height, text: (e.querySelector('text')?.textContent || '').trim(), kind: e.dataset.kind };
      }));
      if (!picks.length) return;
      spec.followerChecks = (spec.followerChecks || 0) + 1;
      const size = page.viewportSize().width < 500 ? 'phone' : 'desktop';
      if (!spec[`shot-${size}`]) {
        spec[`shot-${size}`] = true;
        await page.screenshot({ path: `${SHOTS}carcassonne-follower-${size}.png`, fullPage: size === 'phone' });
      }
      for (const p of picks) {
        assert.ok(p.w >= 44 && p.h >= 44, `carcassonne: a follower target is ${p.w.toFixed(0)}×${p.h.toFixed(0)} px, under 44`);
        assert.equal(p.text, say(lang, `cc.label.${p.kind}`), 'carcassonne: a follower target says which feature it is, in the page\'s language');
      }
      for (let i = 0; i < picks.length; i++) for (let j = i + 1; j < picks.length; j++) {
        const [a, b] = [picks[i], picks[j]];
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        assert.ok(apart, `carcassonne: the ${a.text} and ${b.text} targets overlap`);
      }
    },
    // Every so often: the key names each player with the colour and shape of their followers,
    // and no tile with a city on three sides is drawn as a whole city square.
    async look(page, spec, id) {
      const key = await page.evaluate(() => [...document.querySelectorAll('#key [data-key-seat]')].map((li) => {
        const mark = li.querySelector('svg path');
        return { seat: Number(li.dataset.keySeat), text: li.textContent, fill: mark?.getAttribute('fill'), shape: mark?.dataset.shape };
      }));
      const names = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.seats li')].map((li) => [li.dataset.seat, li.textContent])));
      assert.equal(key.length, Object.keys(names).length, 'carcassonne: the key lists every player');
      for (const k of key) assert.ok(names[k.seat].startsWith(k.text.split(/ \((?:seat|Sitzplatz) /)[0]), `carcassonne: the key names seat ${k.seat}`);
      const pieces = await page.evaluate(() => [...document.querySelectorAll('.c-follower')].map((e) => ({ seat: Number(e.dataset.seat), fill: e.getAttribute('fill'), shape: e.dataset.shape })));
      for (const p of pieces) {
        const k = key.find((x) => x.seat === p.seat);
        assert.ok(k && k.fill === p.fill && k.shape === p.shape, `carcassonne: a follower of seat ${p.seat} looks like its key`);
      }
      if (new Set(key.map((k) => `${k.fill} ${k.shape}`)).size !== key.length) assert.fail('carcassonne: two players look alike in the key');
      const view = await (await fetch(`${BASE}/v1/games/${id}`)).json();
      for (const t of view.view?.tiles || []) {
        const sides = Object.values(t.edges).filter((e) => e === 'city').length;
        if (sides !== 3) continue;
        spec.threeSided = (spec.threeSided || 0) + 1;
        const whole = await page.evaluate((at) => document.querySelectorAll(`[data-tile="${at}"] rect.c-city`).length, `${t.x},${t.y}`);
        assert.equal(whole, 0, `carcassonne: the three-sided city at ${t.x},${t.y} is drawn as a whole square`);
      }
    },
    after(spec) {
      assert.ok((spec.followerChecks || 0) > 0, 'carcassonne: follower targets were offered and checked');
    } },
};

const kind = (spec) => Object.keys(KINDS).find((k) => KINDS[k] === spec);

async function signUp(page, name) {
  await page.goto(BASE + '/');
  await page.evaluate(() => localStorage.setItem('baumeister.poll_ms', '250'));
  await page.fill('#name', name);
  await page.fill('#password', `secret-${name}-pw`);
  await page.click('#register');
  await page.waitForSelector(`[data-me="${name}"]`);
}

async function signature(page) {
  return page.evaluate(() => `${document.querySelector('[data-game-page]')?.dataset.version}|${document.querySelector('#status')?.textContent}|${document.querySelector('#problem')?.textContent}|${document.querySelectorAll('[data-move]').length}`);
}

/** What the page shows now, in one round trip. */
async function look(page, probe) {
  const extra = probe ? await page.evaluate(probe) : undefined;
  return page.evaluate((extra) => ({
    extra,
    turn: !!document.querySelector('#status[data-your-turn="true"]'),
    finished: !!document.querySelector('#status[data-status="finished"]'),
    notice: !!document.querySelector('#notice:not([hidden])')?.textContent,
    moves: [...document.querySelectorAll('[data-move]')].map((e, i) => ({ i, cmd: JSON.parse(e.dataset.move), board: !!e.closest('svg') || !!e.closest('.board') })),
    places: document.querySelectorAll('[data-place]').length,
    spots: document.querySelectorAll('[data-spot]').length,
  }), extra);
}

/** One move on this page, if it is this player's turn: returns whether it acted. */
async function act(page, spec, seen, lang) {
  if (!seen.turn) return false;
  if (seen.spots) return tap(page, spec);
  let moves = seen.moves;
  if (!moves.length) {
    // Carcassonne: a free place first, then its rotations appear.
    if (!seen.places) return false;
    await page.locator('[data-place]').nth(Math.floor(Math.random() * seen.places)).dispatchEvent('click');
    await page.waitForSelector('button.rotation');
    moves = (await look(page, spec.probe)).moves;
  }
  if (!moves.length) return false;
  if (spec.before) await spec.before(page, spec, lang);
  let move = spec.choose(moves, seen);
  // A set of cards laid at once or a card released: on the board as well as in the list, and
  // mostly made on the board.
  for (const type of spec.boardAndList || []) {
    if (!moves.some((m) => m.cmd.type === type)) continue;
    spec.offered = spec.offered || {};
    spec.offered[type] = (spec.offered[type] || 0) + 1;
    assert.ok(moves.some((m) => m.cmd.type === type && m.board), `${kind(spec)}: ${type} is offered in the list but not on the board`);
  }
  if ((spec.boardAndList || []).includes(move.cmd.type) && Math.random() < 0.8) move = moves.find((m) => m.board && m.cmd.type === move.cmd.type) || move;
  const before = await signature(page);
  const target = page.locator('[data-move]').nth(move.i);
  try {
    // Every tenth move by keyboard: board targets and buttons take focus and answer Enter.
    if ((spec.count || 0) % 10 === 9) {
      await target.focus({ timeout: 1500 });
      await page.keyboard.press('Enter');
      spec.keyboard = (spec.keyboard || 0) + 1;
    } else await target.click({ timeout: 1500 });
  } catch {
    // Covered by a figure drawn on top: click it as a keyboard would. Gone: the page redrew
    // (a poll came in) and the next look decides again.
    try { await target.dispatchEvent('click', undefined, { timeout: 1000 }); } catch { return false; }
  }
  await page.waitForFunction((b) => {
    const s = `${document.querySelector('[data-game-page]')?.dataset.version}|${document.querySelector('#status')?.textContent}|${document.querySelector('#problem')?.textContent}|${document.querySelectorAll('[data-move]').length}`;
    return s !== b;
  }, before, { timeout: 10000, polling: 25 }).catch(() => {});
  spec.count = (spec.count || 0) + 1;
  if (move.board) spec.boardClicks = (spec.boardClicks || 0) + 1;
  return true;
}

/** Mauerbauer's towers and houses: tap corners or fields (and a colour when asked, or "place
 * only this one" now and then when the move may stop there) until a move is sent. */
async function tap(page, spec) {
  const before = await signature(page);
  for (let i = 0; i < 8; i++) {
    const colours = page.locator('[data-pick-colour]');
    const spots = page.locator('[data-spot]');
    const done = page.locator('#place-done');
    const [nc, ns, nd] = [await colours.count(), await spots.count(), await done.count()];
    if (nc) await colours.nth(Math.floor(Math.random() * nc)).dispatchEvent('click').catch(() => {});
    else if (nd && (!ns || Math.random() < 0.5)) await done.dispatchEvent('click').catch(() => {});
    else if (ns) {
      const spot = spots.nth(Math.floor(Math.random() * ns));
      const what = ((await spot.getAttribute('data-spot').catch(() => '')) || '').split('-')[0];
      await spot.dispatchEvent('click').catch(() => {});
      spec.taps = spec.taps || {};
      spec.taps[what] = (spec.taps[what] || 0) + 1;
    } else break;
    // A move sent keeps the moves box busy until the page shows what it did.
    await page.waitForFunction(() => !document.querySelector('.moves[aria-busy]'), undefined, { timeout: 10000, polling: 25 }).catch(() => {});
    if ((await signature(page)) !== before) break;
  }
  spec.count = (spec.count || 0) + 1;
  spec.boardClicks = (spec.boardClicks || 0) + 1;
  return true;
}

/**
 * Counts what a page asked for and did not get: a request that failed (but one the page itself
 * broke off, as a stream closed on leaving a game), an answer of 400 or more, and above all a
 * move the server refused.
 */
function watchRequests(page, label, spec) {
  page.on('requestfailed', (r) => {
    if (/ERR_ABORTED/.test(r.failure()?.errorText || '')) return;
    spec.failedRequests = (spec.failedRequests || 0) + 1;
    console.error(`[${label}] request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', async (res) => {
    if (res.status() < 400) return;
    const req = res.request();
    const refused = req.method() === 'POST' && /\/commands$/.test(req.url());
    spec[refused ? 'refusedMoves' : 'failedRequests'] = (spec[refused ? 'refusedMoves' : 'failedRequests'] || 0) + 1;
    console.error(`[${label}] ${refused ? 'move refused' : 'request answered'} ${res.status()}: ${req.method()} ${req.url()} ${await res.text().catch(() => '')}`);
  });
}

/** A German page must not speak English: every visible text and label is checked. */
async function speaksOnly(page, lang, where) {
  if (lang !== 'de') return;
  const leaks = await englishOn(page);
  assert.deepEqual(leaks, [], `${where}: English words on a German page`);
}

async function playKind(browser, kind, round) {
  const spec = KINDS[kind];
  const started = Date.now();
  const contexts = [];
  const pages = [];
  const names = [];
  // The second player plays on a phone; desktop and phone speak different languages, swapped
  // from one kind to the next so that both sizes are played in both languages.
  const [desktopLang, phoneLang] = round % 2 === 0 ? ['en', 'de'] : ['de', 'en'];
  const langs = Array.from({ length: spec.seats }, (_, i) => (i === 1 ? phoneLang : desktopLang));
  const size = (i) => (i === 1 ? 'phone' : 'desktop');
  for (let i = 0; i < spec.seats; i++) {
    const ctx = await browser.newContext({ viewport: i === 1 ? { width: 390, height: 844 } : { width: 1280, height: 900 }, hasTouch: i === 1, locale: LOCALES[langs[i]] });
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => { console.error(`[${kind} p${i}] page error: ${e.message}`); spec.pageErrors = (spec.pageErrors || 0) + 1; });
    watchConsole(page, `${kind} p${i}`, spec);
    watchRequests(page, `${kind} p${i}`, spec);
    pages.push(page);
    names.push(`${kind.slice(0, 5)}${i}r${RUN}`);
    await signUp(page, names[i]);
  }
  // Seat 0 creates the game from the form built from /v1/kinds.
  const host = pages[0];
  await host.selectOption('#kind', kind);
  await host.selectOption('#seats', String(spec.seats));
  for (const [k, v] of Object.entries(spec.options)) {
    if (typeof v === 'boolean') await host.setChecked(`#opt-${k}`, v);
    else await host.selectOption(`#opt-${k}`, String(v));
  }
  await host.click('#create button[type=submit]');
  await host.waitForURL(/#\/game\/\d+/);
  const id = Number(host.url().match(/game\/(\d+)/)[1]);
  // The others find it among the open games and join.
  for (const page of pages.slice(1)) {
    await page.goto(BASE + '/#/');
    await page.click(`[data-join="${id}"]`);
    await page.waitForURL(new RegExp(`#/game/${id}$`));
  }
  const seats = [];
  for (let i = 0; i < pages.length; i++) {
    await pages[i].waitForSelector('#status[data-status="active"]');
    const me = await pages[i].locator('.seats li[data-you]').getAttribute('data-seat');
    assert.equal(await pages[i].evaluate(() => document.documentElement.lang), langs[i], `${kind}: the page speaks the browser's language`);
    seats.push(Number(me));
    // Seats are counted from 1 for people ("seat 1", "Sitzplatz 1"); the API's 0 never shows.
    const list = await pages[i].locator('.seats').textContent();
    assert.ok(list.includes(say(langs[i], 'seat_named', { name: '', n: 1 }).trim()), `${kind}: the first seat is shown as seat 1: ${list}`);
    assert.ok(!list.includes(say(langs[i], 'seat_named', { name: '', n: 0 }).trim()), `${kind}: a seat is shown as seat 0: ${list}`);
  }
  // A spectator watches from a fresh context, without an account, on a phone in the desktop
  // player's language (so a phone shows both languages in every kind).
  const watcherCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: LOCALES[desktopLang] });
  const watcher = await watcherCtx.newPage();
  watchConsole(watcher, `${kind} spectator`, spec);
  watchRequests(watcher, `${kind} spectator`, spec);
  await watcher.goto(`${BASE}/#/game/${id}`);
  await watcher.waitForSelector('#status');

  let idle = 0;
  let shot = false;
  let sawNotice = false;
  for (let step = 0; step < 4000; step++) {
    const seen = await Promise.all(pages.map((p) => look(p, spec.probe)));
    if (spec.remember) for (const x of seen) spec.remember(x);
    if (seen.every((x) => x.finished)) break;
    if (seen.some((x) => x.notice)) sawNotice = true;
    let acted = false;
    for (let i = 0; i < pages.length; i++) if (await act(pages[i], spec, seen[i], langs[i])) acted = true;
    // Once a game has ended everything in it is public.
    if (acted && spec.look && (spec.count || 0) % 7 === 0) await spec.look(pages[0], spec, id);
    if (acted) {
      const done = await Promise.all(pages.map((p) => p.evaluate(() => !!document.querySelector('#status[data-status="finished"]'))));
      if (!done.some(Boolean)) await spec.secrets(pages, seats, langs);
      // Now and then, every German page is read for English.
      if ((spec.count || 0) % 15 === 0) for (let i = 0; i < pages.length; i++) await speaksOnly(pages[i], langs[i], `${kind} p${i} after ${spec.count} moves`);
    }
    if (!shot && (spec.count || 0) >= spec.shotAt) {
      shot = true;
      await pages[0].locator('.board').screenshot({ path: `${SHOTS}${kind}.png` });
      for (let i = 0; i < 2; i++) await pages[i].screenshot({ path: `${SHOTS}${kind}-player-${size(i)}-${langs[i]}.png`, fullPage: true });
      await watcher.screenshot({ path: `${SHOTS}${kind}-spectator-phone-${desktopLang}.png`, fullPage: true });
      for (let i = 0; i < pages.length; i++) await speaksOnly(pages[i], langs[i], `${kind} p${i} mid-game`);
      await speaksOnly(watcher, desktopLang, `${kind} spectator mid-game`);
      // Phone width: the page itself never scrolls sideways (a wide board scrolls in its box).
      const overflow = await watcher.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${kind}: the page is ${overflow}px wider than a phone`);
      await spec.secrets([watcher], [-1], [desktopLang]);
      for (let i = 0; i < 2; i++) assert.deepEqual(await pages[i].evaluate(clipped), [], `${kind}: text cut off, ${size(i)} ${langs[i]}`);
      // Half-way every player switches the page to the other language and plays on in it: so
      // each kind is played at both sizes in both languages.
      for (let i = 0; i < pages.length; i++) {
        const other = langs[i] === 'en' ? 'de' : 'en';
        await pages[i].selectOption('#lang', other);
        await pages[i].waitForFunction((l) => document.documentElement.lang === l && !!document.querySelector('#status'), other);
        langs[i] = other;
      }
      for (let i = 0; i < 2; i++) {
        await pages[i].waitForSelector('.board svg, #status[data-status="finished"]');
        await pages[i].screenshot({ path: `${SHOTS}${kind}-player-${size(i)}-${langs[i]}.png`, fullPage: true });
        await speaksOnly(pages[i], langs[i], `${kind} p${i} after switching language`);
        assert.deepEqual(await pages[i].evaluate(clipped), [], `${kind}: text cut off, ${size(i)} ${langs[i]}`);
      }
    }
    if (!acted) {
      idle++;
      if (idle > 600) throw new Error(`${kind}: nobody can act for 30 s`);
      await host.waitForTimeout(50);
    } else idle = 0;
  }
  for (const page of pages) await page.waitForSelector('#status[data-status="finished"]', { timeout: 15000 });
  assert.ok(sawNotice, `${kind}: a "your turn" notice was shown`);
  if (!shot) await pages[0].locator('.board').screenshot({ path: `${SHOTS}${kind}.png` });
  const result = await host.locator('#status').textContent();
  assert.ok(result.startsWith(say(langs[0], 'game.finished_nobody').split(' ')[0]), `${kind}: the end says "${result}"`);
  // The audit's verdict, the replay slider over every version, and the finished board for all.
  // The audit is behind "Advanced".
  await watcher.click('#advanced summary');
  await watcher.waitForSelector('#audit[data-verdict="sound"]', { timeout: 20000 });
  const max = Number(await watcher.locator('#replay').getAttribute('max'));
  assert.ok(max > 5, 'the replay covers every version');
  await watcher.locator('#replay').fill('3');
  await watcher.waitForSelector('.replay-note[data-at="3"]');
  assert.equal(await watcher.textContent('#replay-at'), say(desktopLang, 'game.version_of', { at: 3, of: max }));
  await watcher.screenshot({ path: `${SHOTS}${kind}-replay-phone-${desktopLang}.png`, fullPage: true });
  await speaksOnly(watcher, desktopLang, `${kind} spectator replay`);
  for (let i = 0; i < 2; i++) {
    await pages[i].screenshot({ path: `${SHOTS}${kind}-end-${size(i)}-${langs[i]}.png`, fullPage: true });
    await speaksOnly(pages[i], langs[i], `${kind} p${i} at the end`);
  }
  const problems = await Promise.all(pages.map((p) => p.locator('#problem:not([hidden])').count()));
  // After a finished game the lobby still shows the player's games, the open ones and all.
  await host.goto(`${BASE}/#/`);
  await host.waitForSelector(`#my-games [data-game="${id}"]`, { timeout: 10000 });
  await host.waitForSelector('#open-h');
  await host.waitForSelector('#all-h');
  assert.equal(await host.locator('#problem:not([hidden])').count(), 0, `${kind}: the lobby shows a problem after a finished game`);
  await host.screenshot({ path: `${SHOTS}${kind}-lobby-desktop-${langs[0]}.png`, fullPage: true });
  await speaksOnly(host, langs[0], `${kind} lobby`);
  for (const c of [...contexts, watcherCtx]) await c.close();
  assert.equal(spec.pageErrors || 0, 0, `${kind}: the page threw`);
  assert.equal(spec.consoleErrors || 0, 0, `${kind}: ${spec.consoleErrors} console errors`);
  assert.equal(spec.failedRequests || 0, 0, `${kind}: ${spec.failedRequests} failed requests`);
  assert.equal(spec.refusedMoves || 0, 0, `${kind}: ${spec.refusedMoves} moves refused`);
  if (spec.after) spec.after(spec);
  for (const type of spec.boardAndList || []) assert.ok(spec.offered?.[type] > 0, `${kind}: ${type} was never offered`);
  assert.ok((spec.boardClicks || 0) > 0, `${kind}: some moves were made on the board`);
  assert.ok((spec.keyboard || 0) > 0, `${kind}: some moves were made by keyboard`);
  assert.ok(!problems.some(Boolean), `${kind}: a problem message was showing at the end`);
  console.log(`${kind}: game ${id}, ${spec.count} moves (${spec.boardClicks || 0} on the board, ${spec.keyboard} by keyboard) in ${((Date.now() - started) / 1000).toFixed(1)} s, desktop ${desktopLang} then ${langs[0]}, phone ${phoneLang} then ${langs[1]}; ${result.trim()}`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
let failed = 0;
try {
  // Two games at a time, the longest first (Wettstreit and Space Builder take about 200 moves,
  // the others 50 to 150). The order also gives each kind its languages.
  const all = ['wettstreit', 'space-builder', 'carcassonne', 'burgbaumeister', 'mauerbauer'];
  const queue = process.argv.slice(2).length ? process.argv.slice(2) : [...all];
  const worker = async () => {
    for (let kind = queue.shift(); kind; kind = queue.shift()) {
      // The kind's place in the list decides its languages, whatever runs first.
      try { await playKind(browser, kind, all.indexOf(kind)); } catch (e) { failed++; console.error(`${kind}: FAILED: ${e.stack || e}`); }
    }
  };
  const started = Date.now();
  await Promise.all([worker(), worker()]);
  console.log(`every kind played in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
