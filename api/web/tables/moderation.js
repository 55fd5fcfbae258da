// The moderators' page, `#/moderation` (docs/moderation.md): the queue of reports (open ones
// first, each with the reported message's text even when removed), and per report the actions:
// dismiss, mark as acted on, remove the message, suspend the reported account for some days;
// the suspensions in force with a lift; the moderation log. Every action asks for a reason,
// which the log keeps. Others are told the page is for moderators (the server refuses them).

import { get, post, api } from '../api.js';
import { h } from '../svg.js';
import { t } from '../i18n/index.js';
import { profileHref } from './bots.js';
import { when } from './invitations.js';

const DAYS = [1, 3, 7, 30];
const DAY_MS = 86_400_000;

export function showModeration(main, onError) {
  let alive = true;
  let onlyOpen = true;
  const status = h('p', { class: 'tables-status', id: 'mod-status', role: 'status' });
  const queue = h('section', { 'aria-labelledby': 'mod-queue-h', id: 'mod-queue' });
  const suspended = h('section', { 'aria-labelledby': 'mod-suspended-h', id: 'mod-suspended' });
  const log = h('section', { 'aria-labelledby': 'mod-log-h', id: 'mod-log' });
  main.replaceChildren(h('div', { class: 'tables-page moderation' },
    h('h1', {}, t('mod.title')), status, queue, suspended, log, h('p', {}, h('a', { href: '#/' }, t('game.back')))));

  /** Runs an action, says it is done and reads everything again. */
  async function act(run, done) {
    try {
      await run();
      status.textContent = done;
    } catch (e) {
      status.textContent = `${t('not_done')}${e.message}`;
    }
    await load();
  }

  const reasonInput = (id) => h('input', { id, name: id, required: true, maxlength: 500, placeholder: t('mod.reason'), 'aria-label': t('mod.reason') });

  function reportCard(r) {
    const reason = reasonInput(`mod-reason-${r.id}`);
    const days = h('select', { id: `mod-days-${r.id}`, 'aria-label': t('mod.days') }, DAYS.map((d) => h('option', { value: d }, t('mod.days_n', { n: d }))));
    const needReason = (then) => () => { if (!reason.value.trim()) { reason.focus(); status.textContent = t('mod.reason_needed'); return; } then(reason.value.trim()); };
    const m = r.message;
    const open = r.state === 'open';
    return h('article', { class: 'report-card', 'data-report-id': r.id, 'data-state': r.state },
      h('p', {}, h('strong', {}, `#${r.id} ${t(`report.category.${r.category}`)}`), ' ',
        h('span', { class: 'muted small' }, when(r.at)), ' ',
        t('mod.reported_by', { reporter: r.reporter }), ' → ', h('a', { href: profileHref(r.reported) }, r.reported),
        ' ', h('span', { class: 'muted small' }, t('mod.open_of_reported', { n: r.open_reports_of_reported }))),
      r.text ? h('p', { class: 'quoted' }, r.text) : '',
      m ? h('div', {},
        h('p', { class: 'small' }, h('a', { href: `#/game/${r.game_id}` }, t('mod.in_game', { id: r.game_id })), ' · ',
          t(`tables.chat.${m.channel}`), m.removed ? [' · ', h('strong', {}, t('mod.removed'))] : ''),
        h('p', { class: 'quoted', 'data-message-id': m.id }, m.text)) : '',
      open ? h('form', { class: 'row', onsubmit: (e) => e.preventDefault() }, reason,
        h('button', { type: 'button', class: 'secondary', 'data-act': 'dismiss', onclick: needReason((why) => act(() => post(`/v1/moderation/reports/${r.id}/resolve`, { outcome: 'dismiss', reason: why }), t('mod.dismissed'))) }, t('mod.dismiss')),
        h('button', { type: 'button', 'data-act': 'act', onclick: needReason((why) => act(() => post(`/v1/moderation/reports/${r.id}/resolve`, { outcome: 'act', reason: why }), t('mod.acted'))) }, t('mod.act')),
        m && !m.removed ? h('button', { type: 'button', 'data-act': 'remove', onclick: needReason((why) => act(() => post(`/v1/moderation/messages/${m.id}/remove`, { reason: why }), t('mod.removed_now'))) }, t('mod.remove')) : '',
        days,
        h('button', { type: 'button', 'data-act': 'suspend', onclick: needReason((why) => act(() => post(`/v1/moderation/accounts/${encodeURIComponent(r.reported)}/suspend`,
          { until: new Date(Date.now() + Number(days.value) * DAY_MS).toISOString(), reason: why }), t('mod.suspended_now', { name: r.reported }))) }, t('mod.suspend', { name: r.reported })))
        : h('p', { class: 'muted small' }, t(`mod.state.${r.state}`), ' — ', t('mod.resolved', { by: r.resolved_by, at: when(r.resolved_at) }), r.resolution ? `: ${r.resolution}` : ''));
  }

  async function load() {
    try {
      const [reports, suspensions, entries] = await Promise.all([
        get(`/v1/moderation/reports?limit=100${onlyOpen ? '&state=open' : ''}`),
        get('/v1/moderation/suspensions'),
        get('/v1/moderation/log?limit=50'),
      ]);
      if (!alive) return;
      queue.replaceChildren(h('h2', { id: 'mod-queue-h' }, t('mod.queue')),
        h('label', { class: 'row' }, h('input', { type: 'checkbox', id: 'mod-all', ...(onlyOpen ? {} : { checked: true }), onchange: (e) => { onlyOpen = !e.target.checked; load(); } }), ' ', t('mod.show_resolved')),
        reports.reports.length ? reports.reports.map(reportCard) : h('p', { class: 'muted' }, t('mod.queue_empty')));
      suspended.replaceChildren(h('h2', { id: 'mod-suspended-h' }, t('mod.suspensions')),
        suspensions.suspensions.length ? h('ul', {}, suspensions.suspensions.map((s) => {
          const reason = reasonInput(`mod-lift-${s.account}`);
          return h('li', { 'data-suspended': s.account }, h('a', { href: profileHref(s.account) }, s.account), ' ',
            t('mod.until', { until: when(s.suspension.until), reason: s.suspension.reason }),
            h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); if (!reason.value.trim()) { reason.focus(); return; } act(() => api('POST', `/v1/moderation/accounts/${encodeURIComponent(s.account)}/lift`, { reason: reason.value.trim() }), t('mod.lifted', { name: s.account })); } },
              reason, h('button', { type: 'submit', class: 'secondary', 'data-lift': s.account }, t('mod.lift'))));
        })) : h('p', { class: 'muted' }, t('mod.none_suspended')));
      log.replaceChildren(h('h2', { id: 'mod-log-h' }, t('mod.log')),
        entries.entries.length ? h('ol', { class: 'recent' }, entries.entries.map((e) => h('li', { 'data-log-id': e.id },
          h('span', { class: 'muted small' }, when(e.at)), ' ', h('strong', {}, e.moderator), ' ', t(`mod.action.${e.action}`),
          e.account ? ` ${e.account}` : '', e.until ? ` (${t('mod.until_short', { until: when(e.until) })})` : '', `: ${e.reason}`))) : h('p', { class: 'muted' }, t('mod.log_empty')));
    } catch (e) {
      if (!alive) return;
      if (e.code === 'not_a_moderator' || e.status === 401) main.replaceChildren(h('div', { class: 'tables-page' }, h('h1', {}, t('mod.title')), h('p', {}, t('mod.only'))));
      else onError(e);
    }
  }
  load();
  return () => { alive = false; };
}
