// The page's behaviour around the games, each check on a situation set up through the API:
// the lobby after a finished game and with a game waiting for the player, "Skip to content",
// an unknown game, the icon, how the event stream authenticates, what a spectator sees, the
// header's game name, the create form's words, the account page and the password reset. Any console error fails (but the one 404 the
// unknown game provokes). Usage: BASE_URL=http://127.0.0.1:PORT node checks.mjs

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { client } from './client.mjs';
import { watchConsole } from './console.mjs';
import { LOCALES, say, englishOn } from './language.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SHOTS || new URL('../../target/web-screenshots/', import.meta.url).pathname;
const RUN = Date.now().toString(36).slice(-5);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
mkdirSync(SHOTS, { recursive: true });

const api = client(BASE);
const tally = {};
const checks = [];
const check = (name, fn) => checks.push([name, fn]);

/** A page signed in as `account` (or a spectator), its requests recorded. */
async function open(browser, account, viewport = DESKTOP, allow, lang = 'en') {
  const ctx = await browser.newContext({ viewport, locale: LOCALES[lang] });
  if (account) {
    await ctx.addInitScript(([name, token]) => {
      localStorage.setItem('baumeister.name', name);
      localStorage.setItem('baumeister.token', token);
      localStorage.setItem('baumeister.poll_ms', '250');
    }, [account.name, account.token]);
  }
  const page = await ctx.newPage();
  page.requests = [];
  page.on('request', (r) => page.requests.push({ url: r.url(), headers: r.headers() }));
  page.on('pageerror', (e) => { tally.pageErrors = (tally.pageErrors || 0) + 1; console.error(`page error: ${e.message}`); });
  watchConsole(page, account ? account.name : 'spectator', tally, allow);
  return page;
}

const [a, b] = [await api.account(`chka${RUN}`), await api.account(`chkb${RUN}`)];
// A finished game, a game waiting for players, and a game waiting for one of the two.
const finished = await api.game('carcassonne', [a, b]);
await api.playUntil(finished, [a, b]);
const waiting = await api.game('burgbaumeister', [a], {}, 2);
const active = await api.game('burgbaumeister', [a, b]);
const detail = await api.call('GET', `/v1/games/${active}`);
const toAct = detail.seats.find((s) => s.seat === detail.to_act[0]).player === a.name ? a : b;
const other = toAct === a ? b : a;

check('the lobby after a finished game, with the game waiting for the player first', async (browser) => {
  for (const [viewport, size] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
    const page = await open(browser, toAct, viewport);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#my-games', { timeout: 10000 });
    await page.waitForSelector('#open-h');
    await page.waitForSelector('#all-h');
    assert.equal(await page.locator('#problem:not([hidden])').count(), 0, 'no problem shown');
    const rows = await page.$$eval('#my-games li', (lis) => lis.map((li) => ({ id: Number(li.dataset.game), turn: li.classList.contains('your-turn'), badge: !!li.querySelector('.badge') })));
    assert.ok(rows.some((r) => r.id === finished), 'the finished game is listed');
    assert.ok(toAct !== a || rows.some((r) => r.id === waiting && !r.turn), 'the open game is listed, not marked');
    assert.deepEqual(rows[0], { id: active, turn: true, badge: true }, 'the game waiting for the player is first and marked');
    assert.equal(rows.filter((r) => r.turn).length, 1, 'only that game is marked');
    await page.screenshot({ path: `${SHOTS}lobby-${size}.png`, fullPage: true });
    await page.context().close();
  }
  // The other player's lobby marks nothing.
  const page = await open(browser, other);
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#my-games');
  assert.equal(await page.locator('#my-games li.your-turn').count(), 0, 'not the other player\'s turn');
  await page.context().close();
});

check('the create form speaks to players', async (browser) => {
  const page = await open(browser, a);
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#create');
  for (const kind of await page.$$eval('#kind option', (os) => os.map((o) => o.value))) {
    await page.selectOption('#kind', kind);
    const words = await page.$$eval('#create .options label, #create .options small, #create .options option', (els) => els.map((e) => e.textContent));
    for (const w of words) {
      assert.doesNotMatch(w, /_|\bnull\b|\bAbsent\b|\.\.=/, `${kind}: the form says "${w}"`);
    }
  }
  await page.selectOption('#kind', 'carcassonne');
  assert.equal(await page.textContent('label[for="opt-move_minutes"]'), 'Turn clock (minutes per move)');
  await page.context().close();
});

/** The active game's page for the player to act, on a phone. */
async function gamePage(browser) {
  const page = await open(browser, toAct, PHONE);
  await page.goto(`${BASE}/#/game/${active}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  return page;
}

check('the header names the game by its title', async (browser) => {
  const page = await gamePage(browser);
  assert.match(await page.textContent('.game-head h1'), new RegExp(`#${active} Der Wettkampf der Burgbaumeister`));
  await page.context().close();
});

check('Skip to content moves the focus and stays on the game', async (browser) => {
  const page = await gamePage(browser);
  // The first Tab reaches the skip links; Enter on "Skip to content" moves the focus and stays
  // on the game. Chromium sometimes starts the Tab order past the first link (its sequential
  // focus starting point is not always the top after a load), so the focus is brought back to
  // "Skip to content" from "Skip to your moves", its neighbour.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  if (await page.evaluate(() => document.activeElement.id) === 'skip-moves') await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'skip');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.equal(new URL(page.url()).hash, `#/game/${active}`, 'still on the game');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main', 'the focus is on the main part');
  assert.ok(await page.locator('#status').isVisible(), 'the game is still shown');
  await page.context().close();
});

check('the event stream carries the token in a header, never in the URL', async (browser) => {
  const page = await gamePage(browser);
  await page.waitForSelector('[data-live="stream"]', { timeout: 10000 });
  const streams = page.requests.filter((r) => r.url.includes('/stream'));
  assert.ok(streams.length > 0, 'the page opened the event stream');
  assert.ok(page.requests.every((r) => !/[?&]token=/.test(r.url)), 'no request carries the token in its URL');
  for (const r of streams) assert.match(r.headers.authorization || '', /^Bearer /, 'the stream request carries the token in its header');
  // Live: a move made elsewhere shows.
  const before = await page.getAttribute('[data-game-page]', 'data-version');
  const { moves } = await api.call('GET', `/v1/games/${active}/moves`, undefined, toAct.token);
  await api.call('POST', `/v1/games/${active}/commands`, { command: moves[0].command }, toAct.token);
  await page.waitForFunction((b) => document.querySelector('[data-game-page]')?.dataset.version !== b, before, { timeout: 10000 });
  await page.screenshot({ path: `${SHOTS}game-phone.png`, fullPage: true });
  await page.context().close();
});

check('a move of the player\'s own costs one request: the command, its answer holds the new board', async (browser) => {
  const game = await api.game('burgbaumeister', [a, b]);
  const seated = await api.call('GET', `/v1/games/${game}`);
  const mover = seated.seats.find((s) => s.seat === seated.to_act[0]).player === a.name ? a : b;
  const page = await open(browser, mover, DESKTOP);
  // No poll during the count: the stream and the answer must serve.
  await page.context().addInitScript(() => localStorage.setItem('baumeister.poll_ms', '600000'));
  await page.goto(`${BASE}/#/game/${game}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  await page.waitForSelector('[data-live="stream"]', { timeout: 10000 });
  const before = await page.getAttribute('[data-game-page]', 'data-version');
  const from = page.requests.length;
  await page.locator('[data-move]').first().click();
  await page.waitForFunction((b) => document.querySelector('[data-game-page]')?.dataset.version !== b, before, { timeout: 10000 });
  await page.waitForTimeout(1000);
  const asked = page.requests.slice(from).map((r) => r.url).filter((u) => u.includes(`/v1/games/${game}`) && !u.includes('/stream'));
  assert.deepEqual(asked.map((u) => new URL(u).pathname), [`/v1/games/${game}/commands`], `requests after the move: ${asked.join(', ')}`);
  const sent = page.requests.slice(from).find((r) => r.url.endsWith('/commands'));
  assert.equal(sent.headers.prefer, 'return=representation');
  await page.context().close();
});

check('a spectator sees no "Your moves" box', async (browser) => {
  const page = await open(browser, null, PHONE);
  await page.goto(`${BASE}/#/game/${active}`);
  await page.waitForSelector('#status[data-status="active"]');
  assert.equal(await page.locator('#moves-h').isVisible(), false, 'no moves box for a spectator');
  assert.equal(await page.getByText('Your moves').count() && await page.getByText('Your moves').isVisible(), false);
  await page.context().close();
  // A seated player has one.
  const player = await open(browser, other);
  await player.goto(`${BASE}/#/game/${active}`);
  await player.waitForSelector('#status[data-status="active"]');
  assert.ok(await player.locator('#moves-h').isVisible(), 'a player has the moves box');
  await player.context().close();
});

check('an unknown game says so and stops asking', async (browser) => {
  const missing = 987654321;
  const page = await open(browser, a, DESKTOP, (text, url) => url.includes(`/v1/games/${missing}`) && /404/.test(text));
  await page.goto(`${BASE}/#/game/${missing}`);
  await page.waitForSelector(`[data-missing="${missing}"]`, { timeout: 10000 });
  assert.match(await page.textContent('main h1'), /No such game/);
  const asked = () => page.requests.filter((r) => r.url.includes(`/v1/games/${missing}`)).length;
  const first = asked();
  await page.waitForTimeout(2000); // eight polling periods of the test's 250 ms
  assert.equal(asked(), first, 'no more requests for the unknown game');
  await page.context().close();
});

check('the icon is served', async (browser) => {
  const res = await fetch(`${BASE}/favicon.ico`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^image\//);
  const page = await open(browser, null);
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#all-h');
  // Under the build's fingerprint (`/web/v-<hash>/`), or plain while the files are served from a folder.
  assert.match(await page.getAttribute('link[rel="icon"]', 'href'), /^\/web\/(v-[0-9a-f]+\/)?icon\.svg$/);
  await page.context().close();
});

check('counts read "1 point", "2 points"', async (browser) => {
  const page = await open(browser, null);
  await page.goto(`${BASE}/`);
  const words = await page.evaluate(async () => {
    const { count } = await import('/web/words.js');
    return [count(1, 'point'), count(2, 'point'), count(0, 'point')];
  });
  assert.deepEqual(words, ['1 point', '2 points', '0 points']);
  await page.context().close();
});

check('a German browser gets the page in German, and the player can switch', async (browser) => {
  const page = await open(browser, toAct, PHONE, undefined, 'de');
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#my-games');
  await page.waitForSelector('#create');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  assert.equal(await page.textContent('#mine-h'), say('de', 'lobby.mine'));
  assert.equal(await page.textContent('#skip'), say('de', 'skip'));
  // Dates as German writes them (25.11.2026, 23:59), in the rows of the player's games.
  assert.match(await page.textContent('#my-games'), /\d{1,2}\.\d{1,2}\.\d{4}, \d{1,2}:\d{2}/, 'a date in German');
  for (const kind of await page.$$eval('#kind option', (os) => os.map((o) => o.value))) {
    await page.selectOption('#kind', kind);
    assert.deepEqual(await englishOn(page), [], `the lobby with the form for ${kind} speaks German`);
  }
  await page.screenshot({ path: `${SHOTS}lobby-phone-de.png`, fullPage: true });
  // The switch: English at once, and still English after a reload (remembered).
  await page.selectOption('#lang', 'en');
  await page.waitForFunction((h) => document.querySelector('#mine-h')?.textContent === h, say('en', 'lobby.mine'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.reload();
  await page.waitForSelector('#mine-h');
  assert.equal(await page.textContent('#mine-h'), say('en', 'lobby.mine'));
  await page.context().close();
});

check('a German game page speaks German, and its rules are for players, in German', async (browser) => {
  // A game of its own: the checks before have moved in the others.
  const game = await api.game('burgbaumeister', [a, b]);
  const d = await api.call('GET', `/v1/games/${game}`);
  const first = d.seats.find((x) => x.seat === d.to_act[0]).player === a.name ? a : b;
  const page = await open(browser, first, DESKTOP, undefined, 'de');
  await page.goto(`${BASE}/#/game/${game}`);
  await page.waitForSelector('#status[data-your-turn="true"]');
  assert.equal((await page.textContent('#status')).trim(), say('de', 'game.your_turn'));
  assert.equal(await page.textContent('#moves-h'), say('de', 'game.moves'));
  assert.equal(await page.title(), say('de', 'game.title_turn', { id: game }));
  assert.deepEqual(await englishOn(page), [], 'the game page speaks German');
  await page.screenshot({ path: `${SHOTS}game-desktop-de.png`, fullPage: true });
  await page.click('#rules-link');
  await page.waitForSelector('dialog#rules[open] h2');
  await page.waitForSelector('dialog#rules figure svg');
  assert.equal(page.requests.filter((r) => r.url.includes('/v1/kinds/')).length, 0, 'not the API\'s specification');
  assert.deepEqual(await englishOn(page), [], 'the rules speak German');
  assert.deepEqual(await apiWords(page, 'dialog#rules'), [], 'the rules use no API words');
  await page.click('#rules-close');
  // The dialog leaves the page on its `close` event, a task after the click.
  await page.waitForSelector('dialog#rules', { state: 'detached', timeout: 5000 });
  assert.equal(await page.locator('dialog#rules').count(), 0, 'the dialog closes');
  await page.context().close();
});

/** Words of the API's specification in the element `selector`: kinds' and options' names, routes, event and command types. */
async function apiWords(page, selector) {
  // As a person reads it: innerText keeps the breaks between blocks (a title and the next line).
  const text = await page.innerText(selector);
  const words = [/\bKind\b/, /\b[a-z]+_[a-z_]+\b/, /GET \/v1|\/v1\//, /\b[A-Z][a-z]+(?:[A-Z][a-z]+){1,}\b/, /`/, /\*\*/];
  return words.filter((w) => w.test(text)).map((w) => `${w}: ${text.match(w)[0]}`);
}

check('the rules page of every kind is written for players, in both languages, with drawings', async (browser) => {
  for (const lang of ['en', 'de']) {
    const page = await open(browser, null, DESKTOP, undefined, lang);
    for (const kind of ['burgbaumeister', 'wettstreit', 'space-builder', 'mauerbauer', 'carcassonne']) {
      await page.goto(`${BASE}/#/rules/${kind}`);
      await page.waitForSelector(`[data-rules="${kind}"] h3`);
      assert.ok(await page.locator(`[data-rules="${kind}"] figure svg`).count() >= 2, `${kind}: drawings`);
      assert.deepEqual(await apiWords(page, `[data-rules="${kind}"]`), [], `${kind} in ${lang}: no API words`);
      if (lang === 'de') assert.deepEqual(await englishOn(page), [], `${kind}: German`);
      await page.screenshot({ path: `${SHOTS}rules-${kind}-${lang}.png`, fullPage: true });
    }
    await page.context().close();
  }
});

check('the page can be installed: manifest, icons, theme colour', async (browser) => {
  const page = await open(browser, null);
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#all-h');
  const href = await page.getAttribute('link[rel="manifest"]', 'href');
  const manifest = await page.evaluate(async (u) => (await fetch(u)).json(), href);
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  for (const icon of manifest.icons) {
    const ok = await page.evaluate(async (src) => new Promise((done) => { const img = new Image(); img.onload = () => done(img.naturalWidth > 0); img.onerror = () => done(false); img.src = src; }), icon.src);
    assert.ok(ok, `${icon.src} loads as an image`);
  }
  assert.ok(await page.getAttribute('meta[name="theme-color"]', 'content'));
  await page.context().close();
});

check('the notification settings save what the player chose, and the service worker is served', async (browser) => {
  // The page asks whether the server sends mail; this one has no SMTP_URL and says 409.
  const page = await open(browser, a, DESKTOP, (text) => /409/.test(text));
  await page.goto(`${BASE}/#/`);
  await page.click('#notices-link', { timeout: 10000 });
  await page.waitForSelector('#notices-no-mail');
  await page.uncheck('input[name="push-kind"][value="game_started"]');
  await page.click('#notices-push-save');
  await page.waitForFunction(async () => {
    const r = await fetch('/v1/me/notices', { headers: { Authorization: `Bearer ${localStorage.getItem('baumeister.token')}` } });
    return !(await r.json()).push_kinds.includes('game_started');
  });
  const settings = await api.call('GET', '/v1/me/notices', undefined, a.token);
  assert.ok(!settings.push_kinds.includes('game_started'), 'unchecked kind saved');
  assert.ok(settings.push_kinds.includes('your_turn'), 'checked kinds kept');
  await page.screenshot({ path: `${SHOTS}notices.png`, fullPage: true });
  const sw = await page.request.get(`${BASE}/sw.js`);
  assert.equal(sw.status(), 200);
  assert.match(sw.headers()['content-type'], /javascript/);
  await page.context().close();
});

check('the account page changes the password, downloads the data and deletes the account; a reset is asked for at sign-in', async (browser) => {
  const c = await api.account(`chkc${RUN}`);
  const refused = async (password) => api.call('POST', '/v1/tokens', { name: c.name, password }).then(() => false, (e) => /401/.test(e.message));
  // The reset page with a made-up token is refused (400), in the page's words.
  const page = await open(browser, c, DESKTOP, (text) => /400/.test(text));
  await page.goto(`${BASE}/#/`);
  await page.click('#menu summary', { timeout: 10000 });
  await page.click('#account-link');
  await page.waitForSelector('#change-password');
  await page.fill('#old-password', c.password);
  await page.fill('#new-password', 'a brand new password');
  await page.click('#change-password button[type="submit"]');
  await page.waitForSelector('#notice:not([hidden])');
  assert.ok(await refused(c.password), 'the old password no longer works');
  await api.call('POST', '/v1/tokens', { name: c.name, password: 'a brand new password' });
  // The page's session goes on with the token the change answered.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-data')]);
  const data = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
  assert.equal(data.account.name, c.name);
  assert.ok(Array.isArray(data.games) && Array.isArray(data.webhooks));
  await page.screenshot({ path: `${SHOTS}account.png`, fullPage: true });
  await page.fill('#delete-password', 'a brand new password');
  await page.check('#delete-sure');
  await page.click('#delete-account button[type="submit"]');
  await page.waitForSelector('#name', { timeout: 10000 });
  assert.ok(await refused('a brand new password'), 'the account is gone');
  await page.click('#forgot');
  await page.fill('#forgot-who', 'nobody-at-all');
  await page.click('#forgot-send');
  await page.waitForSelector('#notice:not([hidden])');
  await page.goto(`${BASE}/#/reset/${'ab'.repeat(32)}`);
  await page.fill('#reset-password', 'another new password');
  await page.click('#reset-form button[type="submit"]');
  await page.waitForSelector('#problem:not([hidden])');
  await page.context().close();
  // The German account page, on a phone.
  const d = await api.account(`chkd${RUN}`);
  const de = await open(browser, d, PHONE, undefined, 'de');
  await de.goto(`${BASE}/#/account`);
  await de.waitForSelector('#change-password');
  assert.equal(await de.textContent('#account-h'), 'Dein Konto');
  await de.screenshot({ path: `${SHOTS}account-de.png`, fullPage: true });
  await de.context().close();
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
let failed = 0;
try {
  for (const [name, fn] of checks) {
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
console.log(`${checks.length - failed} of ${checks.length} checks passed`);
process.exit(failed ? 1 : 0);
