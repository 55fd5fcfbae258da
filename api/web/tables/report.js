// Reporting a chat message or a player to the moderators (`POST /v1/reports`,
// docs/moderation.md): a small dialog with a reason (a category and, optionally, words). The
// same report again is no second one: the server answers with the first, and the dialog says so.

import { api } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';

export const CATEGORIES = ['abuse', 'cheating', 'spam', 'other'];

/** The words of a refusal of a report. */
function refusal(e) {
  switch (e.code) {
    case 'rate_limited': return t('report.too_many');
    case 'invalid_report': case 'payload_too_large': return t('report.too_long', { n: 1000 });
    case 'cannot_report_self': return t('report.self');
    default: return `${t('not_done')}${e.message}`;
  }
}

/**
 * Opens the dialog. `target` is `{message_id}` or `{player}`; `about` says what is reported, in
 * words (the message's author, or the player).
 */
export function openReport(target, about) {
  const category = h('select', { id: 'report-category', name: 'report-category', required: true },
    CATEGORIES.map((c) => h('option', { value: c }, t(`report.category.${c}`))));
  const text = h('textarea', { id: 'report-text', name: 'report-text', rows: 3, maxlength: 1000, 'aria-describedby': 'report-help' });
  const status = h('p', { class: 'tables-status', id: 'report-status', role: 'alert' });
  const send = h('button', { type: 'submit', id: 'report-send' }, t('report.send'));
  const cancel = h('button', { type: 'button', class: 'secondary', id: 'report-cancel' }, t('report.cancel'));
  const form = h('form', { method: 'dialog', class: 'report-form', onsubmit: (e) => { e.preventDefault(); submit(); } },
    h('h2', { id: 'report-h' }, target.message_id ? t('report.message_title', { name: about }) : t('report.player_title', { name: about })),
    h('p', { class: 'muted small' }, t('report.intro')),
    h('label', { for: 'report-category' }, t('report.category')), category,
    h('label', { for: 'report-text' }, t('report.text')), text,
    h('small', { class: 'muted', id: 'report-help' }, t('report.help', { n: 1000 })),
    h('div', { class: 'row' }, send, cancel), status);
  const dialog = h('dialog', { class: 'report', id: 'report', 'aria-labelledby': 'report-h' }, form);
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '');
  category.focus();

  async function submit() {
    if (send.disabled) return;
    send.disabled = true;
    try {
      const r = await api('POST', '/v1/reports', { ...target, category: category.value, text: text.value });
      status.setAttribute('data-report-id', r.data.id);
      status.textContent = r.status === 201 ? t('report.sent') : t('report.already');
      form.replaceChildren(form.firstChild, status, h('div', { class: 'row' },
        h('button', { type: 'button', id: 'report-close', onclick: () => dialog.close() }, t('ok'))));
      form.querySelector('#report-close').focus();
    } catch (e) {
      status.textContent = refusal(e);
      send.disabled = false;
    }
  }
  return dialog;
}

/** A small "Report" button that opens the dialog. */
export function reportButton(target, about, label = t('report.button')) {
  return h('button', { type: 'button', class: 'link report-button', 'data-report': target.message_id ?? target.player,
    title: label, onclick: () => openReport(target, about) }, label);
}
