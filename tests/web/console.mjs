// Any console error fails the test: a refused inline style (the page's own CSP), a failed
// load, an exception logged. `allow` lets a check name the one error it provokes on purpose.

export function watchConsole(page, label, tally, allow = () => false) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url || '';
    if (allow(msg.text(), where)) return;
    tally.consoleErrors = (tally.consoleErrors || 0) + 1;
    if (tally.consoleErrors <= 5) { console.error(`[${label}] console error: ${msg.text()} ${where}`); if (process.env.DEBUG_PROBLEM) setTimeout(() => page.evaluate(() => document.querySelector('#problem')?.textContent).then((t) => console.error('  problem:', t)).catch(() => {}), 300); }
  });
}
