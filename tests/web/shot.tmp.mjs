import { chromium } from 'playwright-core';
const [,, url, name, size, who, token, action] = process.argv;
const phone = size === 'phone';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: phone ? { width: 390, height: 844 } : { width: 1366, height: 768 }, hasTouch: phone, isMobile: phone, locale: phone ? 'de-DE' : 'en-GB' });
if (who) await ctx.addInitScript(([n, t]) => { localStorage.setItem('baumeister.name', n); localStorage.setItem('baumeister.token', t); }, [who, token]);
const page = await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await page.goto(url);
await page.waitForTimeout(2500);
if (action) { await page.click(action); await page.waitForTimeout(500); }
await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: process.env.FULL === '1' });
await browser.close();
