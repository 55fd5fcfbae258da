// Notification settings (`#/notices`): the account's language for mail and pushes, whether
// invitations from players never played with are refused, an email address (confirmed by a
// link mailed to it), what comes by mail and how often, and push to this device through the
// service worker (`/sw.js`).

import { get, api, problem, notice } from './api.js';
import { h } from './svg.js';
import { t, has } from './i18n/index.js';

const KINDS = ['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation'];
const EVERY = [0, 1, 3, 6, 12, 24, 168];

const put = (path, body) => api('PUT', path, body).then((r) => r.data);

export function showNotices(main) {
  let alive = true;
  const body = h('div', { class: 'notices' }, h('p', {}, t('notices.loading')));
  main.replaceChildren(h('section', { class: 'card', 'aria-labelledby': 'notices-h' },
    h('h1', { id: 'notices-h' }, t('notices.title')), body));
  let mail = null;
  async function draw() {
    try {
      const [s, canMail] = await Promise.all([get('/v1/me/notices'), mail ?? (mail = mailAvailable())]);
      const noMail = () => { mail = Promise.resolve(false); draw(); };
      if (alive) body.replaceChildren(languageForm(s, draw), strangersBox(s, draw), canMail ? emailForm(s, draw, noMail) : noMailNote(), pushForm(s, draw));
    } catch (e) { problem(e); }
  }
  draw();
  return () => { alive = false; };
}

/**
 * Whether this server sends mail. The API tells only by refusing an address with 409
 * `email_unavailable` (its operator set no SMTP_URL), which it decides before it looks at the
 * address: an empty address is refused either way and changes nothing.
 */
async function mailAvailable() {
  try { await api('PUT', '/v1/me/email', { address: '' }); return true; } catch (e) { return !unavailable(e); }
}
const unavailable = (e) => e.status === 409 && e.code === 'email_unavailable';

function noMailNote() {
  return h('section', { class: 'email' }, h('h2', {}, t('notices.email')), h('p', { id: 'notices-no-mail' }, t('notices.no_mail')));
}

/** "At most one mail every 3 hours", "… an hour", "… a day": the interval in its words. */
export function everyText(n) {
  if (n === 0) return t('notices.every.once');
  return has(`notices.every.${n}`) ? t(`notices.every.${n}`) : t('notices.every.hours', { n });
}

function kindBoxes(name, chosen) {
  return h('fieldset', { class: 'kinds' }, h('legend', {}, t('notices.kinds')),
    KINDS.map((k) => h('label', { class: 'check-row' },
      h('input', { type: 'checkbox', name, value: k, ...(chosen.includes(k) ? { checked: true } : {}) }),
      h('span', {}, t(`notices.kind.${k}`)))));
}

function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]`)].filter((i) => i.checked).map((i) => i.value);
}

function languageForm(s, redraw) {
  const select = h('select', { id: 'notices-language' },
    [['en', 'English'], ['de', 'Deutsch']].map(([code, label]) =>
      h('option', { value: code, ...(code === s.language ? { selected: true } : {}) }, label)));
  select.addEventListener('change', async () => {
    try { await put('/v1/me/notices', { language: select.value }); redraw(); } catch (e) { problem(e); }
  });
  return h('p', {}, h('label', { for: 'notices-language' }, t('notices.language')), ' ', select);
}

function strangersBox(s, redraw) {
  const box = h('input', { id: 'notices-strangers', type: 'checkbox', ...(s.refuse_stranger_invitations ? { checked: true } : {}) });
  box.addEventListener('change', async () => {
    try { await put('/v1/me/notices', { refuse_stranger_invitations: box.checked }); redraw(); } catch (e) { problem(e); }
  });
  return h('label', { class: 'check-row', for: 'notices-strangers' }, box, h('span', {}, t('notices.strangers')));
}

function emailForm(s, redraw, noMail) {
  const address = h('input', { id: 'notices-email', type: 'email', autocomplete: 'email', maxlength: 254, value: s.email || '' });
  const status = s.email
    ? h('p', { id: 'notices-email-status' }, s.email_confirmed ? t('notices.email.confirmed') : t('notices.email.unconfirmed'))
    : '';
  const every = h('select', { id: 'notices-every' }, EVERY.map((n) =>
    h('option', { value: String(n), ...(n === s.email_every_hours ? { selected: true } : {}) },
      everyText(n))));
  const form = h('form', { class: 'email', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    try {
      if (address.value.trim() && address.value.trim() !== s.email) {
        await put('/v1/me/email', { address: address.value.trim() });
        notice(t('notices.email.sent'));
      }
      await put('/v1/me/notices', { email_kinds: checked(form, 'email-kind'), email_every_hours: Number(every.value) });
      redraw();
    } catch (err) {
      // The server sends no mail after all: say so instead of the form.
      if (unavailable(err)) noMail(); else problem(err);
    }
  } },
  h('h2', {}, t('notices.email')),
  h('label', { for: 'notices-email' }, t('notices.email.address')), address, status,
  kindBoxes('email-kind', s.email_kinds),
  h('label', { for: 'notices-every' }, t('notices.every')), every,
  h('div', { class: 'row' },
    h('button', { type: 'submit', id: 'notices-email-save' }, t('notices.save')),
    s.email ? h('button', { type: 'button', onclick: async () => {
      try { await api('DELETE', '/v1/me/email'); redraw(); } catch (err) { problem(err); }
    } }, t('notices.email.remove')) : ''));
  return form;
}

/** The key as `PushManager.subscribe` takes it. */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function thisDevice() {
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  return registration;
}

function pushForm(s, redraw) {
  const supported = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  const form = h('form', { class: 'push', onsubmit: async (e) => {
    e.preventDefault();
    try { await put('/v1/me/notices', { push_kinds: checked(form, 'push-kind') }); redraw(); } catch (err) { problem(err); }
  } },
  h('h2', {}, t('notices.push')),
  h('p', {}, t('notices.push.devices', { n: s.push_subscriptions })),
  kindBoxes('push-kind', s.push_kinds),
  h('div', { class: 'row' },
    h('button', { type: 'submit', id: 'notices-push-save' }, t('notices.save')),
    supported ? h('button', { type: 'button', id: 'notices-push-on', onclick: async () => {
      try {
        if (await Notification.requestPermission() !== 'granted') throw new Error(t('notices.push.denied'));
        const { public_key: key } = await get('/v1/push/key', { auth: false });
        const registration = await thisDevice();
        let sub = await registration.pushManager.getSubscription();
        if (sub) await sub.unsubscribe();
        sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        await api('POST', '/v1/me/push-subscriptions', sub.toJSON());
        notice(t('notices.push.on'));
        redraw();
      } catch (err) { problem(err); }
    } }, t('notices.push.subscribe')) : h('p', {}, t('notices.push.unsupported')),
    supported ? h('button', { type: 'button', onclick: async () => {
      try {
        const registration = await navigator.serviceWorker.getRegistration('/');
        const sub = registration && await registration.pushManager.getSubscription();
        if (sub) {
          const { subscriptions } = await get('/v1/me/push-subscriptions');
          const mine = subscriptions.find((x) => x.endpoint === sub.endpoint);
          if (mine) await api('DELETE', `/v1/me/push-subscriptions/${mine.id}`);
          await sub.unsubscribe();
        }
        redraw();
      } catch (err) { problem(err); }
    } }, t('notices.push.unsubscribe')) : ''));
  return form;
}
