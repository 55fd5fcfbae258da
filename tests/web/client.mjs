// The API from node, for the checks that set a game up before the page looks at it.

export function client(base) {
  async function call(method, path, body, token) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return data;
  }
  return {
    call,
    /** A new account and its token. */
    async account(name) {
      const password = `secret-${name}-pw`;
      await call('POST', '/v1/accounts', { name, password });
      const t = await call('POST', '/v1/tokens', { name, password });
      return { name, password, token: t.token };
    },
    /** A game of `kind` for `seats` (all the accounts), created by the first and joined by the others. */
    async game(kind, accounts, options = {}, seats = accounts.length) {
      const g = await call('POST', '/v1/games', { kind, seats, options }, accounts[0].token);
      for (const a of accounts.slice(1)) await call('POST', `/v1/games/${g.id}/join`, undefined, a.token);
      return g.id;
    },
    /** Plays random legal moves until `stop(detail)` says so (by default: the game ended). */
    async playUntil(id, accounts, stop = (d) => d.status === 'finished', limit = 5000) {
      for (let i = 0; i < limit; i++) {
        const d = await call('GET', `/v1/games/${id}`, undefined, accounts[0].token);
        if (stop(d)) return d;
        const seat = d.to_act[0];
        const who = accounts.find((a) => d.seats.some((s) => s.seat === seat && s.player === a.name));
        const { moves } = await call('GET', `/v1/games/${id}/moves`, undefined, who.token);
        const m = moves[Math.floor(Math.random() * moves.length)];
        await call('POST', `/v1/games/${id}/commands`, { command: m.command }, who.token).catch(() => {});
      }
      throw new Error(`game ${id} did not get there in ${limit} moves`);
    },
  };
}
