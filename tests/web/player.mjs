// What a new player meets, each check on a situation set up through the API and looked at in the
// browser at the two sizes of issue 43 (1366×768 English, 390×844 touch German): words in the
// page's language with no developer's words, the notices page, taps a finger hits, the invitation
// page and the lobby, the phone's page with the game first. Any console error fails (but those a
// check provokes on purpose). Usage: BASE_URL=http://127.0.0.1:PORT node player.mjs [name-regex]

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { client } from './client.mjs';
import { watchConsole } from './console.mjs';
import { LOCALES, say, englishOn, visibleTexts } from './language.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SHOTS || new URL('../../target/web-screenshots/', import.meta.url).pathname;
const RUN = Date.now().toString(36).slice(-5);
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, lang: 'de' };
export const DESKTOP = { viewport: { width: 1366, height: 768 }, hasTouch: false, isMobile: false, lang: 'en' };
mkdirSync(SHOTS, { recursive: true });

const api = client(BASE);
const tally = {};
const checks = [];
const check = (name, fn) => checks.push([name, fn]);
const only = process.argv[2] ? new RegExp(process.argv[2]) : null;

/** A page signed in as `account` (or nobody) on `device`. */
async function open(browser, account, device, allow) {
  const ctx = await browser.newContext({ viewport: device.viewport, hasTouch: device.hasTouch, isMobile: device.isMobile, locale: LOCALES[device.lang] });
  if (account) {
    await ctx.addInitScript(([name, token]) => {
      localStorage.setItem('baumeister.name', name);
      localStorage.setItem('baumeister.token', token);
      localStorage.setItem('baumeister.poll_ms', '250');
    }, [account.name, account.token]);
  }
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { tally.pageErrors = (tally.pageErrors || 0) + 1; console.error(`page error: ${e.message}`); });
  watchConsole(page, account ? account.name : 'nobody', tally, allow);
  return page;
}

// Words only a developer uses: the transport, versions, the audit's machinery, counts of events.
const DEVELOPER = [/event stream/i, /Ereignisstrom/, /version \d+ of \d+/i, /Stand \d+ von \d+/, /hash/i, /Log \(\d+/, /Protokoll \(\d+/, /polling/i, /\bbot-(random|greedy|strong)/];

/** The texts of the page a player sees that only a developer would write. */
async function developerWords(page) {
  return (await visibleTexts(page)).filter((text) => DEVELOPER.some((re) => re.test(text)));
}

const [a, b] = [await api.account(`pla${RUN}`), await api.account(`plb${RUN}`)];

/** A game of `kind` of `a` against bots of `level` on the other seats. */
async function againstBots(kind, seats, level = 'random') {
  const g = await api.call('POST', '/v1/games', { kind, seats, options: {} }, a.token);
  for (let s = 1; s < seats; s++) await api.call('POST', `/v1/games/${g.id}/bots`, { seat: s, level }, a.token);
  return g.id;
}

check('a German page against bots speaks German: bots by their level, every line of the log, no developer\'s words', async (browser) => {
  const game = await againstBots('wettstreit', 3);
  const page = await open(browser, a, PHONE);
  await page.goto(`${BASE}/#/game/${game}`);
  await page.waitForSelector('#status[data-status="active"]');
  await page.waitForSelector('.log-list li');
  // Let the bots move a little.
  await page.waitForTimeout(1500);
  const log = await page.$$eval('.log-list li', (lis) => lis.map((li) => li.textContent));
  assert.ok(!log.some((l) => /Wettstreit cards shuffled|shuffled/.test(l)), `the shuffle in German: ${log.slice(-3).join(' | ')}`);
  assert.ok(log.some((l) => l === say('de', 'ev.WettstreitCardsShuffled.hidden')), 'the shuffle has its German sentence');
  const seats = await page.textContent('.game-head .seats');
  assert.match(seats, new RegExp(say('de', 'name.bot.random')), 'the bots are named in German');
  assert.doesNotMatch(seats, /bot-random/, 'not by their accounts');
  assert.deepEqual(await englishOn(page), [], 'the game page speaks German');
  assert.deepEqual(await developerWords(page), [], 'no developer\'s words');
  await page.screenshot({ path: `${SHOTS}player-words-phone-de.png`, fullPage: true });
  await page.context().close();
});

check('the log folds a player\'s long run of steps into one line', async (browser) => {
  // Space Builder: one seat lays and takes back its cards a dozen times in a row (as a bot does
  // two hundred times a round), set up through the API so that no bot's pace matters.
  const game = await api.game('space-builder', [a, b]);
  let made = 0;
  for (let i = 0; i < 40 && made < 12; i++) {
    const { moves } = await api.call('GET', `/v1/games/${game}/moves`, undefined, b.token);
    const m = moves.find((x) => ['PlaceBuildingCard', 'TakeBackBuildingCard', 'LookAtBlueprint'].includes(x.command.type) && (made % 2 === 0 || x.command.type !== 'PlaceBuildingCard'))
      || moves.find((x) => ['PlaceBuildingCard', 'TakeBackBuildingCard', 'MoveBuildingCard'].includes(x.command.type));
    if (!m) break;
    await api.call('POST', `/v1/games/${game}/commands`, { command: m.command }, b.token);
    made++;
  }
  assert.ok(made >= 8, `only ${made} steps made`);
  const page = await open(browser, a, DESKTOP);
  await page.goto(`${BASE}/#/game/${game}`);
  await page.waitForSelector('.log-list .log-run');
  const steps = await page.$$eval('.log-list .log-run', (els) => els.map((e) => Number(e.dataset.steps)));
  assert.ok(steps.length && steps.every((n) => n >= 8), `folded runs: ${steps}`);
  assert.match(await page.textContent('.log-list .log-run summary'), new RegExp(`^${b.name}: \\d+ steps, the last: `));
  await page.context().close();
});

check('the notices page offers no mail on a server without mail, aligns its boxes and counts hours', async (browser) => {
  // The probe that finds out answers 409 `email_unavailable` here (no SMTP_URL).
  const page = await open(browser, a, DESKTOP, (text) => /409/.test(text));
  await page.goto(`${BASE}/#/notices`);
  await page.waitForSelector('#notices-no-mail');
  assert.equal(await page.locator('#notices-email').count(), 0, 'no address field');
  assert.equal(await page.locator('input[name="email-kind"]').count(), 0, 'no mail kinds');
  assert.equal(await page.textContent('#notices-no-mail'), say('en', 'notices.no_mail'));
  // Every checkbox sits on the line of its words: their middles within a few pixels.
  const off = await page.$$eval('.notices input[type="checkbox"]', (boxes) => boxes.map((box) => {
    const label = box.closest('label') || document.querySelector(`label[for="${box.id}"]`);
    const words = label.getBoundingClientRect();
    const r = box.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(label);
    const text = [...range.getClientRects()].filter((x) => x.width > 0 && x.left >= r.right - 1);
    const mid = text.length ? (text[0].top + text[0].bottom) / 2 : (words.top + words.bottom) / 2;
    return { name: label.textContent.trim().slice(0, 30), dy: Math.abs((r.top + r.bottom) / 2 - mid), left: r.left - words.left };
  }));
  for (const o of off) assert.ok(o.dy <= 4, `"${o.name}": the box ${o.dy.toFixed(1)} px off its words`);
  await page.screenshot({ path: `${SHOTS}player-notices-desktop-en.png`, fullPage: true });
  await page.context().close();
  // The hours read in their form, in both languages.
  const { translate } = await import('../../api/web/i18n/index.js');
  for (const lang of ['en', 'de']) {
    const p = await open(browser, a, { ...PHONE, lang });
    await p.goto(`${BASE}/`);
    const every = await p.evaluate(async () => {
      const { everyText } = await import('/web/notices.js');
      return [1, 3, 24].map(everyText);
    });
    assert.ok(!every.some((w) => /\b1 (hours|Stunden)/.test(w)), `${lang}: ${every.join(' | ')}`);
    assert.equal(every[1], translate(lang, 'notices.every.hours', { n: 3 }));
    await p.context().close();
  }
});

/**
 * The controls on the page a finger cannot hit: smaller than 44×44 px (a checkbox counts with
 * the label that toggles it). The board's own targets are checked with the moves.
 */
async function smallTaps(page) {
  return page.evaluate(() => {
    const shown = (el) => { const r = el.getBoundingClientRect(); const st = getComputedStyle(el); return r.width > 0 && r.height > 0 && st.visibility !== 'hidden'; };
    const out = [];
    for (const el of document.querySelectorAll('a[href], button, select, input, textarea, summary, [role="button"]')) {
      if (el.closest('.board, [hidden], .skip') || !shown(el) || (el.type === 'hidden')) continue;
      let r = el.getBoundingClientRect();
      if (el.type === 'checkbox' || el.type === 'radio') {
        const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
        if (label) {
          const l = label.getBoundingClientRect();
          // The box and its label side by side: the row they make is the tap.
          r = { width: Math.max(r.right, l.right) - Math.min(r.left, l.left), height: Math.max(r.height, Math.min(l.height, r.height + l.height)) };
          if (label.contains(el)) r = { width: l.width, height: l.height };
        }
      }
      if (r.width < 43.5 || r.height < 43.5) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  });
}

check('every control outside the board is a tap of 44×44 px on the phone', async (browser) => {
  const game = await againstBots('burgbaumeister', 2);
  const pages = [['signed out lobby', null, '#/'], ['lobby', a, '#/'], ['game', a, `#/game/${game}`], ['notices', a, '#/notices'], ['profile', a, `#/player/${a.name}`]];
  const found = [];
  for (const [what, who, hash] of pages) {
    const page = await open(browser, who, PHONE, (text) => /409/.test(text));
    await page.goto(`${BASE}/${hash}`);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(800);
    // The notice banner ("your turn") with its OK shows on the game.
    for (const x of await smallTaps(page)) found.push(`${what}: ${x}`);
    // What the menu holds, opened.
    if (await page.locator('#menu summary').count()) {
      await page.click('#menu summary');
      for (const x of await smallTaps(page)) if (!found.includes(`${what}: ${x}`)) found.push(`${what} (menu): ${x}`);
    }
    await page.context().close();
  }
  assert.deepEqual(found, []);
});

check('the lobby: the create form\'s clock before its bot, controls inside their cards, "Watch" without own games, winners named', async (browser) => {
  // A finished game of a's, won by someone.
  const done = await api.game('burgbaumeister', [a, b]);
  const end = await api.playUntil(done, [a, b]);
  assert.ok(end.winners.length, 'the game has a winner');
  for (const device of [DESKTOP, PHONE]) {
    const page = await open(browser, a, device);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#my-games');
    await page.waitForSelector('#create');
    await page.waitForSelector('#all-h');
    const order = await page.$$eval('#create .options [id^="opt-"]', (els) => els.map((e) => e.id));
    if (order.includes('opt-clock_bot')) assert.ok(order.indexOf('opt-move_minutes') < order.indexOf('opt-clock_bot'), `the clock first: ${order}`);
    const out = await page.$$eval('select, input, button, textarea', (els) => els.filter((el) => el.getBoundingClientRect().width > 0).map((el) => {
      const card = el.parentElement.closest('.card, .tables-box, fieldset, section');
      if (!card) return null;
      const r = el.getBoundingClientRect(); const c = card.getBoundingClientRect();
      return r.left < c.left - 0.5 || r.right > c.right + 0.5 ? `${el.tagName.toLowerCase()}#${el.id} ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(c.left)}–${Math.round(c.right)}` : null;
    }).filter(Boolean));
    assert.deepEqual(out, [], `${device.lang}: controls stick out of their cards`);
    const mine = await page.$$eval('#my-games [data-game]', (lis) => lis.map((li) => Number(li.dataset.game)));
    const watch = await page.$$eval('section[aria-labelledby="all-h"] [data-game]', (lis) => lis.map((li) => Number(li.dataset.game)));
    assert.deepEqual(watch.filter((id) => mine.includes(id)), [], '"Watch" lists none of the player\'s own games');
    const row = await page.textContent(`#my-games [data-game="${done}"]`);
    const winner = end.seats.find((x) => x.seat === end.winners[0]).player;
    assert.ok(row.includes(say(device.lang, 'lobby.won_by', { who: winner })), `the finished row names the winner: ${row}`);
    await page.screenshot({ path: `${SHOTS}player-lobby-${device.lang}.png`, fullPage: true });
    await page.context().close();
  }
});

check('an invitation\'s page names the game and who invites', async (browser) => {
  const game = await api.game('wettstreit', [a], {}, 3);
  const page = await open(browser, a, DESKTOP);
  await page.goto(`${BASE}/#/game/${game}`);
  await page.click('#invite-link');
  await page.waitForSelector('.link-url');
  const link = await page.inputValue('.link-url');
  await page.context().close();
  for (const [who, device] of [[b, PHONE], [null, DESKTOP]]) {
    const guest = await open(browser, who, device);
    await guest.goto(link);
    await guest.waitForSelector('#invite-what');
    assert.equal(await guest.textContent('#invite-what'), say(device.lang, 'tables.link.from_game', { who: a.name, game: 'Wettstreit der Baumeister' }));
    await guest.screenshot({ path: `${SHOTS}player-invite-${device.lang}.png` });
    await guest.context().close();
  }
});

check('the phone puts the game first: the board and the lobby\'s main actions on the first screen', async (browser) => {
  const screen = PHONE.viewport.height;
  for (const [kind, seats] of [['burgbaumeister', 2], ['wettstreit', 3], ['carcassonne', 2], ['mauerbauer', 2], ['space-builder', 2]]) {
    const game = await againstBots(kind, seats, 'greedy');
    const page = await open(browser, a, PHONE);
    await page.goto(`${BASE}/#/game/${game}`);
    // (A bot may have ended the game already: the page is looked at as it is.)
    await page.waitForSelector('#status');
    await page.waitForSelector('.board svg');
    const top = await page.evaluate(() => document.querySelector('.board').getBoundingClientRect().top);
    assert.ok(top < screen * 0.45, `${kind}: the board starts ${Math.round(top)} px down a ${screen} px screen`);
    // The account's actions are in the menu, not in the bar.
    assert.equal(await page.locator('.top button:visible').count(), 0, `${kind}: no buttons in the bar but the menu`);
    await page.screenshot({ path: `${SHOTS}player-first-${kind}-phone-de.png` });
    await page.context().close();
  }
  const page = await open(browser, a, PHONE);
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#vs-start');
  for (const sel of ['#vs-start', '#jump-mine', '#jump-create']) {
    const r = await page.locator(sel).boundingBox();
    assert.ok(r && r.y + r.height <= screen, `${sel} on the first screen (${r && Math.round(r.y)})`);
  }
  await page.click('#jump-create');
  await page.waitForFunction(() => { const r = document.querySelector('#create').getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; });
  await page.screenshot({ path: `${SHOTS}player-first-lobby-phone-de.png` });
  await page.context().close();
});

// Every kind in a random position of a game: how many random moves before looking, and the moves
// the looking player must then have on the board.
const POSITIONS = {
  burgbaumeister: { seats: 3, options: { variant: true }, moves: [6, 30], wants: ['TurnUpCard', 'AddCardToWall', 'InsertCardWithWizard', 'FireCannon'] },
  wettstreit: { seats: 3, options: {}, moves: [10, 60], wants: ['BuildCard', 'FoundCity', 'AuctionTopCard', 'RollIncomeDie', 'TakeSaboteurFrom', 'SabotageBuilding'] },
  'space-builder': { seats: 2, options: { timing: 'elapsed' }, moves: [1, 8], wants: ['PlaceBuildingCard', 'MoveBuildingCard', 'LookAtBlueprint'] },
  mauerbauer: { seats: 3, options: {}, moves: [4, 30], wants: ['BuildWall', 'PlaceTowers', 'PlaceHouses'] },
  carcassonne: { seats: 3, options: {}, moves: [4, 40], wants: ['PlaceTile'] },
};

/** A game of `kind` played at random for a random while, until the player to act has a board move. */
async function position(kind, tag, wants = POSITIONS[kind].wants) {
  const spec = { ...POSITIONS[kind], wants };
  const accounts = [];
  for (let i = 0; i < spec.seats; i++) accounts.push(await api.account(`pv${kind.slice(0, 3)}${i}${tag}${RUN}`));
  const id = await api.game(kind, accounts, spec.options);
  const seatOf = (d, seat) => accounts.find((x) => d.seats.some((st) => st.seat === seat && st.player === x.name));
  const [lo, hi] = spec.moves;
  const at = lo + Math.floor(Math.random() * (hi - lo));
  for (let i = 0; i < at + 400; i++) {
    const d = await api.call('GET', `/v1/games/${id}`, undefined, accounts[0].token);
    if (d.status !== 'active') return position(kind, `${tag}x`, wants);
    for (const seat of d.to_act) {
      const who = seatOf(d, seat);
      const { moves } = await api.call('GET', `/v1/games/${id}/moves`, undefined, who.token);
      if (i >= at && moves.some((m) => spec.wants.includes(m.command.type))) return { id, who, moves };
    }
    const who = seatOf(d, d.to_act[0]);
    const { moves } = await api.call('GET', `/v1/games/${id}/moves`, undefined, who.token);
    const m = moves[Math.floor(Math.random() * moves.length)];
    await api.call('POST', `/v1/games/${id}/commands`, { command: m.command }, who.token).catch(() => {});
  }
  throw new Error(`${kind}: no position reached`);
}

/**
 * What of the board's targets and the listed moves a player cannot see as the page opens: a
 * board target whose middle lies outside the board's window or the screen's width, a move with
 * neither a visible button nor a target on the board (a move made in steps counts by its first).
 */
async function outOfSight(page, moves) {
  return page.evaluate((listed) => {
    const out = [];
    const win = document.querySelector('.board .zoom-view');
    const b = win ? win.getBoundingClientRect() : null;
    const seen = (el) => {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || el.closest('[hidden]')) return false;
      const [cx, cy] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      if (cx < 0 || cx > innerWidth) return false;
      return !b || !el.closest('.zoom-view') || (cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom);
    };
    // On a touch screen targets keep their 44 px: where all of them together are larger than the
    // window at that size (Mauerbauer's wall lines on a phone), the board opens on some of them.
    const all = [...document.querySelectorAll('.board .target')].filter((el) => el.getBoundingClientRect().width > 0);
    const rs = all.map((el) => el.getBoundingClientRect());
    const larger = b && matchMedia('(pointer: coarse)').matches && rs.length
      && (Math.max(...rs.map((r) => r.right)) - Math.min(...rs.map((r) => r.left)) > b.width || Math.max(...rs.map((r) => r.bottom)) - Math.min(...rs.map((r) => r.top)) > b.height);
    const offSight = all.filter((el) => !seen(el));
    if (larger && offSight.length < all.length) { console.log(`${offSight.length} of ${all.length} targets need panning: together larger than the window`); return out; }
    for (const el of offSight) out.push(`target off sight: ${el.getAttribute('aria-label')}`);
    const shown = new Set([...document.querySelectorAll('[data-move]')].filter(seen).map((el) => el.getAttribute('data-move')));
    // The first steps of moves made in steps: a card or tile to pick, a place, a turn.
    const steps = [...document.querySelectorAll('.board .target:not([data-move]), .board [data-pick-card], .board [data-pick-hand], .board .rotation, .board [data-place], .board [data-spot]')].filter(seen).length;
    for (const m of listed) {
      if (!shown.has(JSON.stringify(m.command)) && !steps) out.push(`move nowhere to click: ${JSON.stringify(m.command)}`);
    }
    return out;
  }, moves);
}

check('every legal move in sight: each kind, both sizes, random positions', async (browser) => {
  const found = [];
  for (const kind of (process.env.KINDS || Object.keys(POSITIONS).join(' ')).split(' ')) {
    for (const device of [DESKTOP, PHONE]) {
      const { id, who, moves } = await position(kind, device.lang);
      const page = await open(browser, who, device);
      await page.goto(`${BASE}/#/game/${id}`);
      await page.waitForSelector('#status[data-your-turn="true"]');
      await page.waitForSelector('.board .target');
      await page.waitForTimeout(300);
      for (const x of await outOfSight(page, moves)) found.push(`${kind} ${device.lang}: ${x}`);
      // "Or choose below" only where the list below has a move.
      const hint = await page.locator('#moves-hint').textContent().catch(() => null);
      const listed = await page.locator('#move-list [data-move]').count();
      if (hint && !listed) assert.equal(hint, say(device.lang, 'game.click_board'), `${kind}: the hint points below to nothing`);
      await page.screenshot({ path: `${SHOTS}player-sight-${kind}-${device.lang}.png` });
      await page.context().close();
    }
  }
  assert.deepEqual(found, []);
});

check('a tap on a target half outside the board\'s window plays it (the focus does not pan the board away)', async (browser) => {
  const { id, who } = await position('burgbaumeister', 'tap', ['TurnUpCard']);
  const page = await open(browser, who, PHONE);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  await page.waitForSelector('.board .target');
  // Drag the board to the left (with a mouse: a drag is no tap) until a target's middle lies
  // just left of the window's edge and its right part inside.
  const aim = await page.evaluate(() => {
    const b = document.querySelector('.board .zoom-view').getBoundingClientRect();
    const els = [...document.querySelectorAll('.board .target[data-move]')].map((el) => el.getBoundingClientRect()).filter((r) => r.height > 30);
    const bottom = Math.min(b.bottom, innerHeight);
    const r = els.find((x) => x.left > b.left + 20 && x.right < b.right - 10 && x.top > b.top && x.bottom < bottom);
    return r && { cx: (r.left + r.right) / 2, w: r.width, top: b.top, bottom, left: b.left, right: b.right };
  });
  assert.ok(aim, 'a target to aim at');
  const dx = aim.left - aim.w / 2 + 12 - aim.cx;
  const from = [aim.right - 4, aim.bottom - 4];
  await page.mouse.move(...from);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from[0] + (dx * i) / 10, from[1]);
  await page.mouse.up();
  const spot = await page.evaluate(() => {
    const b = document.querySelector('.board .zoom-view').getBoundingClientRect();
    for (const el of document.querySelectorAll('.board .target[data-move]')) {
      const r = el.getBoundingClientRect();
      const [cx, cy] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      if (cy > b.top + 4 && cy < Math.min(b.bottom, innerHeight) - 4 && cx < b.left && r.right > b.left + 8) return { x: (r.right + b.left) / 2, y: cy };
    }
    return null;
  });
  assert.ok(spot, 'a target lies half in the window');
  const before = Number(await page.getAttribute('[data-game-page]', 'data-version'));
  await page.touchscreen.tap(spot.x, spot.y);
  await page.waitForFunction((v) => Number(document.querySelector('[data-game-page]')?.dataset.version) > v, before, { timeout: 5000 });
  await page.context().close();
});

check('Wettstreit on the phone: where each seat stands in the seat line, the stacks\' words apart, the auction in sight, passing beside the bid, a bid beyond the purse said so', async (browser) => {
  const { id, who, moves } = await position('wettstreit', 'bid', ['RaiseBid']);
  const page = await open(browser, who, PHONE);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  await page.waitForSelector('.bidbox');
  // Passing sits in the bid box, not in another list.
  assert.ok(moves.some((m) => m.command.type === 'PassBid'), 'a bidder may pass');
  assert.equal(await page.locator('.bidbox [data-move*="PassBid"]').count(), 1, 'Pass in the bid box');
  assert.equal(await page.locator('#move-list [data-move*="PassBid"]').count(), 0, 'Pass not in the list');
  // The seat line says where each player stands (the game keeps no score until its end).
  for (const li of await page.locator('.game-head .seats li').allTextContents()) assert.match(li, /Stadt \d+/, `the seat line: ${li}`);
  // The words above the cards do not run into one another, and the auctioned card is in the window.
  const clash = await page.evaluate(() => {
    const labels = [...document.querySelectorAll('.board svg text.label')].map((el) => el.getBoundingClientRect()).filter((r) => r.width);
    const top = labels.filter((r) => Math.abs(r.top - labels[0].top) < 4);
    const out = [];
    for (let i = 0; i < top.length; i++) for (let j = i + 1; j < top.length; j++) if (top[i].right > top[j].left - 2 && top[j].right > top[i].left - 2) out.push([i, j]);
    return out;
  });
  assert.deepEqual(clash, [], 'the stacks\' labels overlap');
  const inWindow = await page.evaluate(() => {
    const card = document.querySelector('.board .card.auction');
    if (!card) return true;
    const r = card.getBoundingClientRect(); const b = document.querySelector('.board .zoom-view').getBoundingClientRect();
    return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;
  });
  assert.ok(inWindow, 'the card up for auction is in the board\'s window');
  // A bid beyond the purse: said so before it is sent.
  const input = page.locator('.bidbox input');
  const max = Number(await input.getAttribute('max'));
  const purse = Number((await page.textContent('[data-purse].mine')).match(/\d+/)[0]);
  if (max > purse) {
    await input.fill(String(purse + 1));
    await page.waitForSelector('.bid-note.warn');
    assert.equal(await page.textContent('.bid-note.warn'), say('de', 'ws.ui.bid_over', { n: purse }));
  }
  await page.screenshot({ path: `${SHOTS}player-wettstreit-bid-phone-de.png`, fullPage: true });
  await page.context().close();
});

check('the live board keeps its view across a replay (the replay has its own)', async (browser) => {
  const { id, who } = await position('carcassonne', 'replay', ['PlaceTile']);
  const page = await open(browser, who, DESKTOP);
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  await page.waitForSelector('.board .zoom-layer');
  // The player moves the map somewhere of their own.
  await page.focus('[data-zoom="in"]');
  await page.click('[data-zoom="in"]');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
  const live = await page.getAttribute('.board .zoom-layer', 'transform');
  await page.locator('#replay').fill('3');
  await page.waitForSelector('.replay-note[data-at="3"]');
  await page.click('[data-zoom="fit"]');
  await page.click('#live');
  await page.waitForSelector('.replay-note', { state: 'detached' });
  assert.equal(await page.getAttribute('.board .zoom-layer', 'transform'), live, 'the live map where the player left it');
  await page.context().close();
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
let failed = 0;
let ran = 0;
try {
  for (const [name, fn] of checks) {
    if (only && !only.test(name)) continue;
    ran++;
    const before = { ...tally };
    try {
      await fn(browser);
      assert.equal(tally.consoleErrors || 0, before.consoleErrors || 0, 'console errors');
      assert.equal(tally.pageErrors || 0, before.pageErrors || 0, 'the page threw');
      console.log(`ok: ${name}`);
    } catch (e) {
      failed++;
      console.error(`FAILED: ${name}: ${e.stack || e}`);
    }
  }
} finally {
  await browser.close();
}
console.log(`${ran - failed} of ${ran} checks passed`);
process.exit(failed ? 1 : 0);
