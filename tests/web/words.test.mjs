// The log in words, without a browser: every event type of the spec has a sentence in both
// languages, both catalogues have the same keys, and a few sentences read exactly so.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import en from '../../api/web/i18n/en.js';
import de from '../../api/web/i18n/de.js';
import { TABLES, KINDS, loadWords, sentence, results } from '../../api/web/words/index.js';
import { seatName } from '../../api/web/words.js';
import { setLang, loadLanguage } from '../../api/web/i18n/index.js';

// The page loads one language and the kinds it shows; the tests read them all.
await Promise.all([loadLanguage('en'), loadLanguage('de'), ...KINDS.map(loadWords)]);

const spec = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url)));
const eventTypes = Object.keys(spec.components.schemas.AnyEvent.discriminator.mapping);

test('the spec lists the events', () => assert.ok(eventTypes.length > 50));

test('every event type of the spec has a sentence in both languages', () => {
  const missing = [];
  for (const type of eventTypes) {
    if (!Object.values(TABLES).some((t) => typeof t[type] === 'function')) missing.push(`${type}: no function`);
    for (const [code, cat] of [['en', en], ['de', de]]) {
      if (!Object.keys(cat).some((k) => k === `ev.${type}` || k.startsWith(`ev.${type}.`))) missing.push(`${type}: no ${code} sentence`);
    }
  }
  assert.deepEqual(missing, []);
});

test('both catalogues have the same keys', () => {
  assert.deepEqual(Object.keys(en).filter((k) => !(k in de)), [], 'missing in de.js');
  assert.deepEqual(Object.keys(de).filter((k) => !(k in en)), [], 'missing in en.js');
});

const names = { 0: 'Anna', 1: 'Ben', 2: 'Cleo' };
test('a few sentences, exactly', () => {
  assert.equal(sentence('wettstreit', { type: 'AuctionWon', auctioneer: 1, buyer: 0, card: 28, kind: 'town_hall', kind_announced: false, price: 7, stack: 'open', to_auctioneer: 3, to_bank: 4 }, names, 'en'),
    'Anna bought the Town Hall (6) for 7 Taler (3 to Ben, 4 to the bank).');
  assert.equal(sentence('wettstreit', { type: 'AuctionWon', auctioneer: 1, buyer: 0, card: 28, kind: 'town_hall', kind_announced: false, price: 7, stack: 'open', to_auctioneer: 3, to_bank: 4 }, names, 'de'),
    'Anna kaufte Rathaus (6) für 7 Taler (3 an Ben, 4 an die Bank).');
  const city = { type: 'FeatureScored', base_points: 10, completed: true, feature: 'city', figure: null, pennants: 0, points: 10, seats: [1], tiles: [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }, { x: 4, y: 0 }] };
  assert.equal(sentence('carcassonne', city, names, 'en'), 'Ben closed a city of 5 tiles: 10 points.');
  assert.equal(sentence('carcassonne', city, names, 'de'), 'Ben schloss ein Gebiet (Stadt) aus 5 Karten: 10 Punkte.');
  assert.equal(sentence('carcassonne', { type: 'FollowerPlaced', feature: 'road', seat: 2, segment: 1, x: 0, y: -1 }, names, 'de'),
    'Cleo setzte einen Gefolgsmann als Wegelagerer (Straße) bei (0, -1).');
  // A tile by its name; its rotation is in degrees already.
  assert.equal(sentence('carcassonne', { type: 'TilePlaced', seat: 1, tile: 'N', x: 0, y: -1, rotation: 270 }, names, 'de'),
    'Ben legte Karte „Stadtecke (zwei benachbarte Seiten)“ bei (0, -1), um 270° gedreht.');
  assert.equal(sentence('wettstreit', { type: 'AuctionOpened', auctioneer: 2, card: null, opening_bid: 1, stack: 'face_down' }, names, 'de'),
    'Cleo eröffnete die Versteigerung: 1 Taler für eine verdeckte Karte.');
  assert.equal(sentence('burgbaumeister', { type: 'CardAddedToWall', by_wizard: false, card: 37, position: 2, seat: 0 }, names, 'en'),
    'Anna added card 37 (King) to their castle wall.');
  assert.equal(sentence('burgbaumeister', { type: 'CardDestroyed', by: 0, card: 9, target: 3 }, names, 'de'),
    'Die Kanone von Anna zerstörte Karte 9 (Turm) in der Mauer von Sitzplatz 4.');
  assert.equal(sentence('mauerbauer', { type: 'GuildCardsLaid', seat: 1, city: 2, points: 9, cards: [{ card: 'city_of_seven_or_more_fields', points: 9 }] }, names, 'de'),
    'Ben legte Stadt aus 7+ Feldern (9): 9 Punkte.');
});

test('an unknown event still reads as words, with names for seats and no nested dumps', () => {
  const s = sentence('wettstreit', { type: 'SomethingNew', seat: 2, amount: 3, detail: { a: 1 }, at_ms: 12345 }, names, 'en');
  assert.equal(s, 'Something new (seat Cleo, amount 3).');
});

test('the results as rows, best first', () => {
  assert.deepEqual(results({ type: 'CarcassonneGameEnded', scores: [12, 30, 7], winners: [1] }, names, 'en'),
    [['Ben', 30, true], ['Anna', 12, false], ['Cleo', 7, false]]);
  assert.deepEqual(results({ type: 'CastleGameEnded', scores: [8, 8], winners: [1] }, names, 'de'),
    [['Ben', 8, true], ['Anna', 8, false]], 'a tie-break winner first');
  assert.deepEqual(results({ type: 'WettstreitGameEnded', scores: [{ seat: 0, total: 5 }, { seat: 1, total: 9 }], winners: [1] }, names, 'de'),
    [['Ben', 9, true], ['Anna', 5, false]]);
});

test('a count takes the word in its form: one point, two points', async () => {
  const { translate } = await import('../../api/web/i18n/index.js');
  const scored = (code, points) =>
    translate(code, 'ev.GuildCardsLaid', { who: 'Anna', cards: 'x', points });
  assert.equal(scored('en', 1), 'Anna laid x: 1 point.');
  assert.equal(scored('en', 3), 'Anna laid x: 3 points.');
  assert.equal(scored('de', 1), 'Anna legte x: 1 Punkt.');
  assert.equal(scored('de', 0), 'Anna legte x: 0 Punkte.');
});

test('seats are counted from 1 for people, as "Sitzplatz" in German (the API counts from 0)', () => {
  const none = {};
  assert.equal(sentence('burgbaumeister', { type: 'TurnPassed', seat: 0 }, none, 'en').includes('seat 1'), true);
  assert.equal(sentence('burgbaumeister', { type: 'TurnPassed', seat: 0 }, none, 'de').includes('Sitzplatz 1'), true);
  setLang('en');
  assert.equal(seatName(0, { 0: 'Anna' }), 'Anna (seat 1)');
  assert.equal(seatName(2, {}), 'seat 3');
  setLang('de');
  assert.equal(seatName(0, { 0: 'Anna' }), 'Anna (Sitzplatz 1)');
  assert.equal(seatName(1, {}), 'Sitzplatz 2');
});

// Places a person reads (a slot, a place in a wall or a city, a wall line, a corner, a field, a
// closed city, a part of a tile) are counted from 1, as at the table; the API counts from 0.
// Card numbers printed on the cards (Burgbaumeister 2–46, Space Builder 1–8) stay as they are;
// Wettstreit's card ids are the server's index into the deck, so a card is named as printed.
test('places are counted from 1 for people, in every kind that shows them (the API counts from 0)', async () => {
  const bb = await import('../../api/web/games/burgbaumeister/board.js');
  const mb = await import('../../api/web/games/mauerbauer/board.js');
  const ws = await import('../../api/web/games/wettstreit/board.js');
  const cc = await import('../../api/web/games/carcassonne/board.js');
  const { describeMove } = await import('../../api/web/words.js');
  setLang('en');
  assert.equal(bb.describe({ type: 'TurnUpCard', slot: 0 }), 'Turn up slot 1');
  assert.equal(bb.describe({ type: 'TurnUpCard', slot: 44 }), 'Turn up slot 45');
  assert.equal(bb.describe({ type: 'InsertCardWithWizard', position: 0 }), 'Insert the card with the Wizard at place 1');
  assert.equal(sentence('burgbaumeister', { type: 'CardAddedToWall', by_wizard: true, card: 6, position: 0, seat: 0 }, names, 'en'),
    'Anna used the Wizard to insert card 6 (Knight) into their castle wall at place 1.');
  assert.equal(mb.describe({ type: 'BuildWall', line: 0 }), 'Build a wall on line 1');
  assert.equal(mb.describe({ type: 'JoinCities', city: 0, with: 1 }), 'Join city 1 with city 2');
  assert.equal(mb.describe({ type: 'ChooseFinalCity', city: 0 }), 'Choose city 1 for the final scoring');
  assert.equal(mb.describe({ type: 'PlaceTowers', towers: [{ colour: 'white', vertex: 0 }] }), 'Place a white tower at corner 1');
  assert.equal(mb.describe({ type: 'PlaceHouses', houses: [{ colour: 'red', field: 0 }] }), 'Place a red house in field 1');
  // Space Builder's cards 1–8 are printed; its slots 0–8 are places.
  assert.equal(describeMove({ type: 'PlaceBuildingCard', card: 3, slot: 0, face: 'A', rotation: 1 }, names), 'Put card 3 side A turned 90° on place 1');
  assert.equal(describeMove({ type: 'MoveBuildingCard', card: 8, slot: 0, face: 'B', rotation: 0 }, names), 'Move card 8 (side B, turned 0°) to place 1');
  // Wettstreit: card 28 is a Town Hall (6); slot 0 is the city's leftmost place, -1 left of it.
  assert.equal(ws.describe({ type: 'BuildCard', card: 28, slot: 0 }, names), 'Build the Town Hall (6) at place 1 of your city');
  assert.equal(ws.describe({ type: 'BuildCard', card: 28, slot: -1 }, names), 'Build the Town Hall (6) at the left end of your city');
  assert.equal(ws.describe({ type: 'FoundCity', cards: [0, 16, 28] }, names), 'Found your city with the left Corner Tower (1), the City Gate (2) and the Town Hall (6)');
  assert.equal(cc.describe({ type: 'PlaceFollower', segment: 0 }), 'Put a follower on segment 1');
  assert.equal(describeMove({ type: 'PlaceMageOrWitch', figure: 'mage', segment: 0, x: 0, y: -1 }, names), 'Put the mage on segment 1 of the tile at 0, -1');
  // A command or event with no sentence of its own still counts its places from 1.
  assert.equal(describeMove({ type: 'SomethingNew', slot: 0 }, names), 'Something new — slot: 1');
  assert.equal(sentence('mauerbauer', { type: 'SomethingNew', city: 0 }, names, 'en'), 'Something new (city 1).');
  setLang('de');
  assert.equal(bb.describe({ type: 'TurnUpCard', slot: 0 }), 'Karte an Platz 1 aufdecken');
  assert.equal(mb.describe({ type: 'ChooseFinalCity', city: 0 }), 'Stadt 1 für die Schlusswertung wählen');
  assert.equal(mb.describe({ type: 'BuildWall', line: 0 }), 'Mauer auf Linie 1 bauen');
  assert.equal(describeMove({ type: 'PlaceBuildingCard', card: 3, slot: 0, face: 'A', rotation: 0 }, names), 'Karte 3 mit Seite A, um 0° gedreht, auf Platz 1 legen');
  assert.equal(ws.describe({ type: 'BuildCard', card: 28, slot: 0 }, names), 'Rathaus (6) an Stelle 1 deiner Stadt bauen');
  assert.equal(ws.describe({ type: 'BuildCard', card: 28, slot: -1 }, names), 'Rathaus (6) links an deine Stadt anbauen');
  assert.equal(ws.describe({ type: 'FoundCity', cards: [0, 16, 28] }, names), 'Deine Stadt mit Eckturm links (1), Stadttor (2) und Rathaus (6) gründen');
  assert.equal(cc.describe({ type: 'PlaceFollower', segment: 0 }), 'Gefolgsmann auf Teil 1 setzen');
});

test('the shuffle of Wettstreit reads in the page\'s language while its stacks are secret', () => {
  // Players get `open` and `face_down` as null until the game ends.
  const secret = { type: 'WettstreitCardsShuffled', open: null, face_down: null };
  assert.equal(sentence('wettstreit', secret, names, 'de'), de['ev.WettstreitCardsShuffled.hidden']);
  assert.equal(sentence('wettstreit', secret, names, 'en'), en['ev.WettstreitCardsShuffled.hidden']);
  assert.equal(sentence('wettstreit', { ...secret, open: [1, 2], face_down: [3] }, names, 'en'),
    'The cards were shuffled into an open stack of 2 and a face-down stack of 1.');
});

test('bots are named by their level in the page\'s language, people as they are', async () => {
  const { shownName } = await import('../../api/web/words.js');
  setLang('de');
  assert.equal(shownName('bot-random', true), 'Zufallsbot');
  assert.equal(shownName('bot-greedy-2', true), 'Gieriger Bot 2');
  assert.equal(shownName('bot-greedy-2', false), 'bot-greedy-2', 'a person keeps the name');
  assert.equal(shownName('Anna', false), 'Anna');
  setLang('en');
  assert.equal(shownName('bot-strong', true), 'Strong bot');
});

test('a bot\'s long run of steps is one line of the log, short runs stay lines of their own', async () => {
  const { runs, FOLD } = await import('../../api/web/words/index.js');
  const step = (version, seat) => ({ version, seat, event: { type: 'BuildingCardPlaced', seat } });
  const log = [{ version: 1, seat: null, event: { type: 'X' } },
    ...Array.from({ length: 200 }, (_, i) => step(i + 2, 1)), step(202, 0), step(203, 0)];
  const lines = runs(log);
  assert.deepEqual(lines.map((r) => r.length), [1, 200, 1, 1]);
  assert.deepEqual(runs(Array.from({ length: FOLD - 1 }, (_, i) => step(i + 1, 1))).map((r) => r.length), Array(FOLD - 1).fill(1));
});
