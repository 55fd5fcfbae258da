// How fast the page loads, measured in chromium: the bytes a first visit transfers (headers and
// compressed bodies, as the network counts them), those of a repeat visit with the browser's
// cache warm, and the first contentful paint; for the sign-in page, a signed-in player's lobby
// and a game page. Bytes are told apart: the page's files (`/`, `/web/…`, the spec the create
// form reads) and the API's answers (the games, their logs, the kinds: data, which a repeat
// visit reads again). Fails when a first visit transfers more than 150 KB in all, a repeat
// visit more than 10 KB of files or the first paint comes later than 500 ms (the bounds of
// issue 43; the paint's bound holds on an idle machine only, so `PAINT_MS` may raise it on a
// busy one). `VERBOSE=1` lists every answer.
// Usage: BASE_URL=http://127.0.0.1:PORT node loading.mjs

import { chromium } from 'playwright-core';
import { client } from './client.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const PAINT_MS = Number(process.env.PAINT_MS) || 500;
const api = client(BASE);
const RUN = Date.now().toString(36).slice(-5);

/** One visit of `path` in `ctx`: bytes transferred, requests, first contentful paint (ms). */
async function visit(ctx, path, ready) {
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let files = 0;
  let requests = 0;
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    const path = new URL(urls.get(e.requestId) || BASE).pathname;
    if (!path.startsWith('/v1/')) files += e.encodedDataLength;
    requests += 1;
    if (process.env.VERBOSE) console.log(`  ${e.encodedDataLength}\t${urls.get(e.requestId)}`);
  });
  await page.goto(`${BASE}${path}`);
  await page.waitForSelector(ready, { timeout: 15000 });
  // Pages that follow games live never go quiet: what they load comes within two seconds.
  await page.waitForTimeout(2000);
  const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  await page.close();
  return { bytes, files, requests, paint };
}

const player = await api.account(`load${RUN}`);
const other = await api.account(`lod2${RUN}`);
const game = await api.game('carcassonne', [player, other]);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const pages = [
  ['sign-in page', null, '/', '#all-h'],
  ['lobby, signed in', player, '/', '#my-games'],
  ['game page', player, `/#/game/${game}`, '#status'],
];
const failures = [];
console.log('page               visit    requests  transferred (of it files)  first paint');
for (const [name, account, path, ready] of pages) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  if (account) {
    await ctx.addInitScript(([n, token]) => { localStorage.setItem('baumeister.name', n); localStorage.setItem('baumeister.token', token); }, [account.name, account.token]);
  }
  for (const kind of ['first', 'repeat']) {
    const r = await visit(ctx, path, ready);
    const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
    console.log(`${name.padEnd(18)} ${kind.padEnd(8)} ${String(r.requests).padStart(8)}  ${kb(r.bytes).padStart(11)} (${kb(r.files).padStart(8)})  ${r.paint === null ? '?' : `${r.paint.toFixed(0)} ms`}`);
    if (kind === 'first' && r.bytes > 150_000) failures.push(`${name}: a first visit transfers ${r.bytes} bytes`);
    if (kind === 'repeat' && r.files > 10_000) failures.push(`${name}: a repeat visit transfers ${r.files} bytes of files`);
    if (kind === 'first' && (r.paint === null || r.paint > PAINT_MS)) failures.push(`${name}: first paint ${r.paint} ms`);
  }
  await ctx.close();
}
await browser.close();
if (failures.length) { console.error(failures.join('\n')); process.exit(1); }
