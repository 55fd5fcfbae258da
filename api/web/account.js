// The account page (`#/account`): change the password, download everything stored about the
// account, delete it. The reset page (`#/reset/TOKEN`, the link of a "forgot my password" mail)
// and the sign-in form's "Forgot your password?" (docs/accounts.md). Nothing here imports the
// router: a changed session is announced with SIGNED_IN, which draws the header and page again.

import { session, api, post, problem, notice, SIGNED_IN } from './api.js';
import { h } from './svg.js';
import { t } from './i18n/index.js';

const signedIn = () => document.dispatchEvent(new Event(SIGNED_IN));

/** A labelled password input (`autocomplete` says which, for password managers). */
function passwordInput(id, autocomplete) {
  return h('input', { id, name: id, type: 'password', autocomplete, required: true, minlength: 8, maxlength: 128 });
}

export function showAccount(main) {
  main.replaceChildren(h('section', { class: 'card account', 'aria-labelledby': 'account-h' },
    h('h1', { id: 'account-h' }, t('account.title')),
    h('p', {}, t('signed_in_as', { name: session.name })),
    passwordForm(), downloadBox(), deleteForm()));
  return null;
}

function passwordForm() {
  const old = passwordInput('old-password', 'current-password');
  const fresh = passwordInput('new-password', 'new-password');
  const form = h('form', { id: 'change-password', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    try {
      const r = await api('PUT', '/v1/me/password', { old_password: old.value, new_password: fresh.value });
      session.set(r.data.name, r.data.token);
      form.reset();
      notice(t('account.password.changed'));
    } catch (err) { problem(err); }
  } },
  h('h2', {}, t('account.password')),
  h('label', { for: 'old-password' }, t('account.password.old')), old,
  h('label', { for: 'new-password' }, t('account.password.new')), fresh,
  h('p', { class: 'muted small' }, t('account.password.rule')),
  h('button', { type: 'submit' }, t('account.password.change')));
  return form;
}

function downloadBox() {
  return h('section', { class: 'download' },
    h('h2', {}, t('account.data')),
    h('p', {}, t('account.data.what')),
    h('button', { type: 'button', id: 'download-data', onclick: async () => {
      problem(null);
      try {
        const r = await api('GET', '/v1/me/data');
        const blob = new Blob([JSON.stringify(r.data, null, 2)], { type: 'application/json' });
        const link = h('a', { href: URL.createObjectURL(blob), download: `baumeister-${session.name}.json` });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      } catch (err) { problem(err); }
    } }, t('account.data.download')));
}

function deleteForm() {
  const password = passwordInput('delete-password', 'current-password');
  const sure = h('input', { id: 'delete-sure', type: 'checkbox', required: true });
  return h('form', { id: 'delete-account', class: 'danger', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    if (!sure.checked) return;
    try {
      await api('DELETE', '/v1/me', { password: password.value });
      session.clear();
      location.hash = '#/';
      signedIn();
      notice(t('account.delete.done'));
    } catch (err) { problem(err); }
  } },
  h('h2', {}, t('account.delete')),
  h('p', {}, t('account.delete.what')),
  h('label', { for: 'delete-password' }, t('lobby.password')), password,
  h('label', { class: 'check-row' }, sure, h('span', {}, t('account.delete.sure'))),
  h('button', { type: 'submit', class: 'secondary' }, t('account.delete.button')));
}

/** The page a reset mail's link opens: a new password for the token in the link. */
export function showReset(main, token) {
  const fresh = passwordInput('reset-password', 'new-password');
  main.replaceChildren(h('form', { class: 'card', id: 'reset-form', 'aria-labelledby': 'reset-h', onsubmit: async (e) => {
    e.preventDefault();
    problem(null);
    try {
      const r = await post('/v1/password-resets/use', { token, new_password: fresh.value }, { auth: false });
      session.set(r.name, r.token);
      location.hash = '#/';
      signedIn();
      notice(t('account.reset.done'));
    } catch (err) { problem(err); }
  } },
  h('h1', { id: 'reset-h' }, t('account.reset.title')),
  h('label', { for: 'reset-password' }, t('account.password.new')), fresh,
  h('p', { class: 'muted small' }, t('account.password.rule')),
  h('button', { type: 'submit' }, t('account.reset.save'))));
  return null;
}

/**
 * "Forgot your password?" inside the sign-in form: asks for a reset mail. Not a form of its own
 * (forms do not nest): its button and Enter in its field send the request.
 */
export function forgotPassword() {
  const who = h('input', { id: 'forgot-who', name: 'forgot-who', autocomplete: 'username', maxlength: 254 });
  async function ask() {
    problem(null);
    try {
      if (!who.value.trim()) throw new Error(t('account.reset.who'));
      await post('/v1/password-resets', { name_or_email: who.value }, { auth: false });
      details.open = false;
      notice(t('account.reset.sent'));
    } catch (err) { problem(err); }
  }
  who.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); ask(); } });
  const details = h('details', { class: 'forgot' }, h('summary', { id: 'forgot' }, t('account.forgot')),
    h('label', { for: 'forgot-who' }, t('account.reset.who')), who,
    h('button', { type: 'button', id: 'forgot-send', class: 'secondary', onclick: ask }, t('account.reset.ask')));
  return details;
}
