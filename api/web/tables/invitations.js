// Invitations: on a waiting game its players invite by account name or create links (the
// link's code is shown once, by the server, so the page keeps it only while it is open), see
// each invitation's state and expiry and revoke it; the lobby's "My invitations" with accept
// and decline, kept current by `/v1/me/stream`; and the page a link opens, `#/invite/ID/CODE`
// (a link is the game's id and the code: `POST /v1/games/{id}/join {"invitation": code}`).

import { session, get, post, api, kinds } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { followMe } from './live.js';
import { profileHref } from './bots.js';
import { shownName } from '../words.js';

const PENDING = 'baumeister.pending_invite';

export const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

// The link names the game's kind and who invites, so that its page can say so before the
// guest has a seat (a private game's details are the seated players' only).
export const inviteUrl = (gameId, code, kind, from) => {
  const about = new URLSearchParams({ ...(kind ? { game: kind } : {}), ...(from ? { from } : {}) }).toString();
  return `${location.origin}/#/invite/${gameId}/${code}${about ? `?${about}` : ''}`;
};

/** Copies `text`; says so in `status`. */
async function copy(text, input, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = t('tables.invite.copied');
  } catch {
    // No clipboard permission (or not a secure context): select it for the player to copy.
    input.focus();
    input.select();
    status.textContent = t('tables.invite.copy_by_hand');
  }
}

/** The invitations box of a waiting game, for its players. `onError` shows a refusal. */
export function invitationsBox(d, codes, onError) {
  const box = h('section', { class: 'tables-box invite-box', 'aria-labelledby': 'invite-h' });
  const name = h('input', { id: 'invite-name', name: 'invite-name', maxlength: 64, autocomplete: 'off' });
  const hours = h('select', { id: 'invite-hours', name: 'invite-hours' },
    [[24, 'tables.invite.day'], [168, 'tables.invite.week'], [720, 'tables.invite.month']].map(([v, k]) => h('option', { value: v, ...(v === 168 ? { selected: true } : {}) }, t(k))));
  const list = h('ul', { class: 'invite-list', id: 'invite-list' });
  const links = h('div', { class: 'invite-links' });
  const status = h('p', { class: 'tables-status', role: 'status' });

  async function load() {
    try {
      const r = await get(`/v1/games/${d.id}/invitations`);
      list.replaceChildren(...r.invitations.map(row));
    } catch (e) { onError(e); }
  }
  function row(inv) {
    const who = !inv.link ? inv.player
      : inv.max_uses ? t('tables.invite.a_link', { uses: inv.uses, max: inv.max_uses }) : t('tables.invite.a_link_open', { uses: inv.uses });
    return h('li', { 'data-invitation': inv.id, 'data-state': inv.state },
      h('span', { class: 'who' }, who), ' ',
      h('span', { class: `state state-${inv.state}` }, t(`tables.invite.state.${inv.state}`)), ' ',
      h('span', { class: 'muted small' }, t('tables.invite.expires', { at: when(inv.expires_at) })),
      inv.state === 'pending' ? h('button', { type: 'button', class: 'secondary', 'data-revoke': inv.id, onclick: async () => {
        try { await api('DELETE', `/v1/games/${d.id}/invitations/${inv.id}`); codes.delete(inv.id); showLinks(); status.textContent = t('tables.invite.revoked'); } catch (e) { onError(e); }
        load();
      } }, t('tables.invite.revoke')) : '');
  }
  function showLinks() {
    links.replaceChildren(...[...codes.entries()].map(([iid, code]) => {
      const url = inviteUrl(d.id, code, d.kind, session.name);
      const id = `invite-link-${iid}`;
      const input = h('input', { id, readonly: true, value: url, class: 'link-url', 'data-link-for': iid });
      return h('div', { class: 'field' }, h('label', { for: id }, t('tables.invite.link_label')),
        h('div', { class: 'row' }, input, h('button', { type: 'button', 'data-copy': iid, onclick: () => copy(url, input, status) }, t('tables.invite.copy'))),
        h('small', { class: 'muted' }, t('tables.invite.link_once')));
    }));
  }
  const byName = h('form', { class: 'row', id: 'invite-by-name', onsubmit: async (e) => {
    e.preventDefault();
    const player = name.value.trim();
    if (!player) { status.textContent = t('tables.invite.enter_name'); return; }
    try {
      await post(`/v1/games/${d.id}/invitations`, { player, expires_in_hours: Number(hours.value) });
      status.textContent = t('tables.invite.invited', { name: player });
      name.value = '';
    } catch (err) { onError(err); }
    load();
  } }, h('label', { for: 'invite-name' }, t('tables.invite.by_name')), name, h('button', { type: 'submit' }, t('tables.invite.invite')));
  const makeLink = h('button', { type: 'button', id: 'invite-link', onclick: async () => {
    try {
      const r = await post(`/v1/games/${d.id}/invitations`, { link: true, expires_in_hours: Number(hours.value) });
      codes.set(r.invitation.id, r.code);
      showLinks();
      status.textContent = t('tables.invite.link_made');
    } catch (err) { onError(err); }
    load();
  } }, t('tables.invite.make_link'));
  box.append(h('h2', { id: 'invite-h' }, t('tables.invite.title')),
    d.visibility === 'private' ? h('p', { class: 'muted small' }, t('tables.invite.private_note')) : '',
    byName,
    h('div', { class: 'field' }, h('label', { for: 'invite-hours' }, t('tables.invite.valid_for')), hours),
    makeLink, links, status, list);
  showLinks();
  load();
  return box;
}

/** The lobby's "My invitations": accept or decline; live through `/v1/me/stream`. */
export function myInvitations(section, onError) {
  let alive = true;
  async function load() {
    if (!alive || !session.token) return;
    try {
      const [r, ks] = await Promise.all([get('/v1/me/invitations'), kinds().catch(() => [])]);
      if (!alive) return;
      const title = (k) => (ks.find((x) => x.kind === k) || {}).title || k;
      section.hidden = !r.invitations.length;
      section.replaceChildren(h('h2', { id: 'invitations-h' }, t('tables.mine.title')),
        h('ul', { class: 'games', id: 'my-invitations' }, r.invitations.map((inv) => h('li', { 'data-my-invitation': inv.id, 'data-game': inv.game.id },
          h('span', {}, t('tables.mine.line', { id: inv.game.id, kind: title(inv.game.kind) }), ' '),
          h('a', { href: profileHref(inv.invited_by), class: 'player-link' }, inv.invited_by), ' ',
          h('span', { class: 'muted small' }, t('tables.invite.expires', { at: when(inv.expires_at) })),
          h('div', { class: 'row' },
            h('button', { type: 'button', 'data-accept': inv.id, onclick: async () => {
              try { await post(`/v1/me/invitations/${inv.id}/accept`); location.hash = `#/game/${inv.game.id}`; } catch (e) { onError(e); load(); }
            } }, t('tables.mine.accept')),
            h('button', { type: 'button', class: 'secondary', 'data-decline': inv.id, onclick: async () => {
              try { await post(`/v1/me/invitations/${inv.id}/decline`); } catch (e) { onError(e); }
              load();
            } }, t('tables.mine.decline')))))));
    } catch (e) { onError(e); }
  }
  section.hidden = true;
  const stop = followMe((m) => { if (['invitation', 'resync', 'open'].includes(m.event)) load(); });
  load();
  return () => { alive = false; stop(); };
}

/** A link's page: accept (signed in), or sign in first and come back here. */
export async function showInvite(main, gameId, code, onError, about = new URLSearchParams()) {
  // What the game is and who invites, as the link names them.
  let kind = about.get('game');
  let from = about.get('from');
  // A link without them (made before links named them): the game itself, where it is public.
  const d = kind ? null : await get(`/v1/games/${gameId}`).catch(() => null);
  if (d) { kind = d.kind; const host = d.seats.find((s) => s.seat === 0); if (host && !from) from = host.player; }
  const titles = await kinds().catch(() => []);
  const title = (titles.find((k) => k.kind === kind) || {}).title || null;
  const what = h('p', { class: 'invite-what', id: 'invite-what' },
    from ? t(title ? 'tables.link.from_game' : 'tables.link.from', { who: shownName(from), game: title }) : title ? t('tables.link.game', { game: title }) : '');
  if (!session.token) {
    try { sessionStorage.setItem(PENDING, `#/invite/${gameId}/${code}${about.toString() ? `?${about}` : ''}`); } catch { /* private mode: the link must be opened again */ }
    main.replaceChildren(h('div', { class: 'card invite-page', 'data-invite-page': gameId },
      h('h1', {}, t('tables.link.title', { id: gameId })), what,
      h('p', {}, t('tables.link.sign_in_first')),
      h('a', { href: '#/', class: 'button', id: 'invite-sign-in' }, t('tables.link.sign_in'))));
    return null;
  }
  const accept = h('button', { type: 'button', id: 'invite-accept', onclick: async () => {
    accept.disabled = true;
    try {
      await post(`/v1/games/${gameId}/join`, { invitation: code });
      location.hash = `#/game/${gameId}`;
    } catch (e) {
      accept.disabled = false;
      // Seated already (a second click, or accepted before): the game is there to play.
      if (e.code === 'already_seated') { location.hash = `#/game/${gameId}`; return; }
      onError(e);
    }
  } }, t('tables.link.accept'));
  main.replaceChildren(h('div', { class: 'card invite-page', 'data-invite-page': gameId },
    h('h1', {}, t('tables.link.title', { id: gameId })), what,
    h('p', {}, t('tables.link.text', { name: session.name })),
    h('div', { class: 'row' }, accept, h('a', { href: '#/', class: 'button secondary' }, t('tables.link.not_now')))));
  return null;
}

/** After signing in: back to the link that asked for it, once. */
export function pendingInvite() {
  try {
    const p = sessionStorage.getItem(PENDING);
    if (p && session.token) { sessionStorage.removeItem(PENDING); return p; }
  } catch { /* nothing remembered */ }
  return null;
}
