// The catalogues, without a browser: both languages have the same keys, every key the client's
// code names (`t('…')`, `c.t('…')`, `c.s('…')`, `translate(code, '…')`) is in both, and the key
// families built from data (moves, phases, options, statuses, enums) are complete for every value
// the published spec lists. A key used by code but in no catalogue would show as the key itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import en from '../../api/web/i18n/en.js';
import de from '../../api/web/i18n/de.js';
import { SEAT_SHAPES } from '../../api/web/svg.js';

const WEB = new URL('../../api/web/', import.meta.url);
const spec = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url)));
const schemas = spec.components.schemas;
const CATALOGUES = { en, de };

/** Every `.js` file of the client, as [path, source]. */
function sources(dir = WEB, prefix = '') {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...sources(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`));
    else if (entry.name.endsWith('.js') && !prefix.startsWith('i18n/')) out.push([`${prefix}${entry.name}`, readFileSync(new URL(entry.name, dir), 'utf8')]);
  }
  return out;
}

/** The literal keys a source names: `t('k')`, `tr('k')`, `c.t('k')`, `translate(x, 'k')`, `c.s('Type')` (`ev.Type`). */
export function keysUsed(source) {
  const keys = new Set();
  for (const m of source.matchAll(/(?<![\w$.])(?:t|tr|c\.t)\(\s*(['"])([^'"]+)\1/g)) keys.add(m[2]);
  for (const m of source.matchAll(/\btranslate\(\s*[\w.]+\s*,\s*(['"])([^'"]+)\1/g)) keys.add(m[2]);
  for (const m of source.matchAll(/\bc\.s\(\s*(['"])([^'"]+)\1/g)) keys.add(`ev.${m[2]}`);
  return keys;
}

const missingIn = (keys) => Object.entries(CATALOGUES).flatMap(([code, cat]) => [...keys].filter((k) => !(k in cat)).map((k) => `${code}: ${k}`));

test('both catalogues have the same keys, none empty', () => {
  assert.deepEqual(Object.keys(en).filter((k) => !(k in de)), [], 'missing in de.js');
  assert.deepEqual(Object.keys(de).filter((k) => !(k in en)), [], 'missing in en.js');
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    assert.deepEqual(Object.entries(cat).filter(([, v]) => typeof v !== 'string' || !v.trim()).map(([k]) => k), [], `${code}: empty values`);
  }
});

// The one value a language leaves out on purpose: a Mauerbauer guild card's text comes from the
// server in English, so the German page names the card only.
const LEAVES_OUT = new Set(['mb.guild_card']);

test('both languages fill the same placeholders', () => {
  const holes = (text) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort().join(',');
  assert.deepEqual(Object.keys(en).filter((k) => !LEAVES_OUT.has(k) && holes(en[k]) !== holes(de[k])).map((k) => `${k}: en {${holes(en[k])}} de {${holes(de[k])}}`), []);
});

test('the scan finds keys the way the code writes them', () => {
  const found = keysUsed("t('a.b'); c.t(\"c\"); tr('d', { x }); translate(code, 'e'); c.s('Thing', {}); it('no'); at('no')");
  assert.deepEqual([...found].sort(), ['a.b', 'c', 'd', 'e', 'ev.Thing']);
});

test('every key the client names is in both catalogues', () => {
  const files = sources();
  assert.ok(files.some(([p]) => p === 'lobby.js') && files.some(([p]) => p.startsWith('games/')), 'the scan reads the client');
  const missing = [];
  let count = 0;
  for (const [path, source] of files) {
    const keys = keysUsed(source);
    count += keys.size;
    for (const m of missingIn(keys)) missing.push(`${path}: ${m}`);
  }
  assert.ok(count > 150, `only ${count} keys found: the scan is broken`);
  assert.deepEqual(missing, []);
});

const enumOf = (name) => schemas[name].enum;

test('the keys built from data cover every value the spec lists', () => {
  const keys = new Set();
  // A sentence for every command (the list of moves), a word for every game status.
  for (const type of Object.keys(schemas.AnyCommand.discriminator.mapping)) keys.add(`mv.${type}`);
  for (const s of enumOf('Lifecycle')) keys.add(`status.${s}`);
  // Each kind's phases, as its board names them.
  const PREFIX = { Burgbaumeister: 'bb', Carcassonne: 'cc', Mauerbauer: 'mb', SpaceBuilder: 'sb', Wettstreit: 'ws' };
  for (const [kind, prefix] of Object.entries(PREFIX)) for (const p of enumOf(`${kind}Phase`)) keys.add(`${prefix}.phase.${p}`);
  for (const v of enumOf('WettstreitStack')) keys.add(`ws.stack.${v}`);
  for (const v of enumOf('WettstreitDieFace')) keys.add(`ws.face.${v}`);
  for (const v of enumOf('SpaceBuilderTiming')) keys.add(`sb.timing.${v}`);
  for (const v of enumOf('CarcassonneMagicFigure')) { keys.add(`cc.figure.${v}`); keys.add(`cc.label.${v}`); }
  for (const v of enumOf('MauerbauerGuildCard')) keys.add(`mb.guild.${v}`);
  for (const shape of SEAT_SHAPES) keys.add(`shape.${shape}`);
  // The reasons a report can give (tables/report.js).
  for (const v of enumOf('ReportCategory')) keys.add(`report.category.${v}`);
  // The moderators' page (tables/moderation.js): reports' states, the log's actions.
  for (const v of enumOf('ReportState')) keys.add(`mod.state.${v}`);
  for (const v of enumOf('ModerationAction')) keys.add(`mod.action.${v}`);
  for (const field of Object.keys(schemas.WettstreitCityScore.properties)) if (field !== 'seat') keys.add(`ws.score.${field}`);
  // Carcassonne's tiles by id, from the domain's own table.
  const tiles = JSON.parse(readFileSync(new URL('../../domain/src/games/carcassonne/tiles.json', import.meta.url)));
  for (const part of ['base', 'mage_and_witch', 'gold_mines']) for (const tile of tiles[part]) keys.add(`cc.tile.${tile.id}`);
  assert.deepEqual(missingIn(keys), []);
});

test('every option of every kind has a label and help in both languages', async () => {
  const kinds = Object.keys(schemas).filter((n) => n.endsWith('Options') && n !== 'AnyOptions');
  assert.ok(kinds.length >= 5, 'the spec lists the kinds\' options');
  const slug = (name) => name.replace(/Options$/, '').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
  const missing = [];
  for (const name of kinds) {
    const kind = slug(name);
    for (const [opt, prop] of Object.entries(schemas[name].properties || {})) {
      for (const [code, cat] of Object.entries(CATALOGUES)) {
        for (const suffix of ['', '.help']) {
          if (!(`opt.${kind}.${opt}${suffix}` in cat) && !(`opt.${opt}${suffix}` in cat)) missing.push(`${code}: opt.${kind}.${opt}${suffix}`);
        }
        const ref = (prop.oneOf || []).find((x) => x.$ref);
        const values = prop.enum || (ref ? schemas[ref.$ref.split('/').pop()].enum : null) || [];
        // As the form looks them up (lobby.js): the kind's, the option's for every kind, or the value's.
        for (const v of values) if (!(`opt.${kind}.${opt}.${v}` in cat) && !(`opt.${opt}.${v}` in cat) && !(`opt.value.${v}` in cat)) missing.push(`${code}: opt.${kind}.${opt}.${v}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

// The decisions with no place on the table stay buttons beside the board: each reads as a
// sentence a player would say (a verb and what it is about), not a one-word label.
const DECISIONS = ['PassBid', 'FinishBuildStep', 'PayToKeepBuilding', 'LetBuildingFall', 'DeclineCannon', 'SkipFollower',
  'DeclareCityFinished', 'StopBuilding', 'JoinCities', 'KeepCitiesApart', 'FinishCardSwap', 'PassFinalScoring'];

test('every decision button reads as a sentence in both languages', () => {
  const short = [];
  for (const type of DECISIONS) {
    assert.ok(type in schemas.AnyCommand.discriminator.mapping, `${type} is a command`);
    for (const [code, cat] of Object.entries(CATALOGUES)) {
      const words = cat[`mv.${type}`].replace(/\{\w+\}/g, 'x').split(/\s+/).filter(Boolean);
      if (words.length < 3) short.push(`${code}: mv.${type} "${cat[`mv.${type}`]}"`);
    }
  }
  assert.deepEqual(short, []);
});

/**
 * The refusal codes of each kind's rules, read from its source in domain/src/games/<kind>/
 * (`RuleError::new("code", …)`, and the `("code", "message")` pairs a step's refusal picks
 * from), without its tests: `{kind: Set(code)}`.
 */
export function ruleCodes() {
  const games = new URL('../../domain/src/games/', import.meta.url);
  const out = {};
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? (e.name === 'tests' ? [] : walk(new URL(`${e.name}/`, dir)))
    : (e.name.endsWith('.rs') && !/test/.test(e.name) ? [readFileSync(new URL(e.name, dir), 'utf8')] : [])));
  for (const dir of readdirSync(games, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const codes = new Set();
    for (const source of walk(new URL(`${dir.name}/`, games))) {
      for (const m of source.matchAll(/RuleError::new\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
      if (/RuleError::new\(code,/.test(source)) for (const m of source.matchAll(/\(\s*"([a-z_]+)",\s*"/g)) codes.add(m[1]);
    }
    out[dir.name.replace(/_/g, '-')] = codes;
  }
  return out;
}

test('every refusal of every kind\'s rules has a sentence in both languages', () => {
  const codes = ruleCodes();
  assert.deepEqual(Object.keys(codes).sort(), ['burgbaumeister', 'carcassonne', 'mauerbauer', 'space-builder', 'wettstreit'], 'the scan finds every kind');
  const all = Object.values(codes).reduce((n, s) => n + s.size, 0);
  assert.ok(all > 90, `only ${all} refusal codes found: the scan is broken`);
  const keys = new Set(Object.entries(codes).flatMap(([kind, set]) => [...set].map((code) => `rule.${kind}.${code}`)));
  // The refusals every kind shares (domain/src/contract.rs) are said by the common `err.<code>`.
  const contract = readFileSync(new URL('../../domain/src/contract.rs', import.meta.url), 'utf8');
  for (const m of contract.matchAll(/Self::new\(\s*"([a-z_]+)"/g)) keys.add(`err.${m[1]}`);
  assert.deepEqual(missingIn(keys), []);
});

test('the refusals a player meets in the pages are said in both languages', () => {
  // What the lobby, the game page, invitations, rematches, bots and the chat can be refused.
  const met = ['already_invited', 'bot_level_unavailable', 'cannot_mute_self', 'chat_message_not_found', 'chat_message_removed',
    'game_not_finished', 'invalid_command', 'invalid_options', 'invitation_expired', 'invitation_invalid', 'invitation_not_found',
    'invitation_not_pending', 'invitation_refused', 'invitation_required', 'invitation_revoked', 'invitation_used_up', 'invitee_is_bot',
    'no_bot_free', 'no_rematch', 'no_such_seat', 'not_creator', 'not_seated', 'rematch_already_answered', 'rematch_exists',
    'rematch_not_open', 'spectators_only', 'too_many_invitations', 'too_many_mutes', 'unknown_kind'];
  for (const [name, cat] of [['en', en], ['de', de]]) {
    assert.deepEqual(met.filter((code) => !cat[`err.${code}`]), [], `${name}: refusals without words`);
  }
});

test('no import loops between the client\'s modules', () => {
  const root = new URL('../../api/web/', import.meta.url).pathname;
  const files = [];
  const walk = (dir) => { for (const f of readdirSync(dir, { withFileTypes: true })) { const p = `${dir}${f.name}`; if (f.isDirectory()) walk(`${p}/`); else if (p.endsWith('.js')) files.push(p); } };
  walk(root);
  const imports = new Map(files.map((f) => [f, [...readFileSync(f, 'utf8').matchAll(/^import [^'"]*['"](\.[^'"]+)['"]/gm)].map((m) => new URL(m[1], `file://${f}`).pathname)]));
  const loops = [];
  const state = new Map();
  const visit = (f, path) => {
    state.set(f, 'open');
    for (const g of imports.get(f) || []) {
      if (state.get(g) === 'open') loops.push([...path.slice(path.indexOf(g)), g].map((x) => x.slice(root.length)).join(' → '));
      else if (!state.has(g)) visit(g, [...path, g]);
    }
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f, [f]);
  assert.deepEqual(loops, []);
});
