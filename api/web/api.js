// The public API, nothing else: every call goes through here, so a problem+json answer becomes
// an Error whose message is the server's `detail` (the page's own words come from the catalogue).

import { t, has, lang } from './i18n/index.js';
import { h } from './svg.js';

const TOKEN = 'baumeister.token';
const NAME = 'baumeister.name';

export const session = {
  get token() { return localStorage.getItem(TOKEN); },
  get name() { return localStorage.getItem(NAME); },
  set(name, token) { localStorage.setItem(NAME, name); localStorage.setItem(TOKEN, token); },
  clear() { localStorage.removeItem(NAME); localStorage.removeItem(TOKEN); },
};

export class Problem extends Error {
  constructor(status, body) {
    // The refusals a player meets most are said in the page's language (`err.<code>`); any
    // other in the server's words.
    const own = body && typeof body.code === 'string' && has(`err.${body.code}`) ? t(`err.${body.code}`) : null;
    const detail = own || (body && body.detail ? body.detail : t('api.status', { status }));
    super(detail);
    this.detail = body && body.detail;
    this.status = status;
    this.code = body && body.code;
    this.title = body && body.title;
  }
}

/** One request. `etag` sends If-None-Match; the answer is {status, data, etag}. */
export async function api(method, path, body, { etag, auth = true, prefer } = {}) {
  const headers = { Accept: 'application/json', 'Accept-Language': lang() };
  if (prefer) headers.Prefer = prefer;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth && session.token) headers.Authorization = `Bearer ${session.token}`;
  if (etag) headers['If-None-Match'] = etag;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Problem(0, { detail: t('api.offline'), code: 'offline' });
  }
  if (res.status === 304) return { status: 304, data: null, etag };
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!res.ok) {
    if (res.status === 401 && auth && session.token && data && ['token_revoked', 'account_unknown', 'invalid_token', 'token_expired'].includes(data.code)) {
      session.clear();
    }
    const p = new Problem(res.status, data);
    if (res.status === 429 || res.status === 503) {
      const after = res.headers.get('Retry-After');
      if (after) p.message += ` ${t('api.retry_after', { s: after })}`;
    }
    throw p;
  }
  return { status: res.status, data, etag: res.headers.get('ETag') };
}

export const get = (path, opts) => api('GET', path, undefined, opts).then((r) => r.data);
export const post = (path, body, opts) => api('POST', path, body, opts).then((r) => r.data);


let kindList = null;
/** `GET /v1/kinds`, once: the games' titles, options and rules. */
export function kinds() {
  if (!kindList) kindList = get('/v1/kinds', { auth: false }).catch((e) => { kindList = null; throw e; });
  return kindList;
}

// The page's two banners, for every part of the page: a refusal (`problem`) and a notice.
// They live here, beside the requests, so that no part imports the router (app.js) back.
export function problem(err) {
  const box = document.getElementById('problem');
  if (!err) { box.hidden = true; box.textContent = ''; return; }
  box.hidden = false;
  box.replaceChildren(h('strong', {}, t('not_done')), err.message || String(err), ' ',
    h('button', { type: 'button', class: 'link', onclick: () => problem(null) }, t('dismiss')));
}

export function notice(text) {
  const box = document.getElementById('notice');
  if (!text) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(text, ' ', h('button', { type: 'button', class: 'link', onclick: () => notice(null) }, t('ok')));
}

/** The event the sign-in form sends: the router draws the header and the page again. */
export const SIGNED_IN = 'baumeister-signed-in';
