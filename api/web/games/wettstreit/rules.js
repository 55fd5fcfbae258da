// Wettstreit der Baumeister: the rules for players (see rules.js for the shape), after
// docs/rules/wettstreit.md.

import { s } from '../../svg.js';
import { art, card, arrow } from '../draw.js';

const COLOURS = { corner: '#adb5bd', tower: '#ced4da', gate: '#ffd8a8', hall: '#ffc9c9', church: '#d0bfff' };

/** A building card: its kind as a small outline, its value below. */
function building(x, y, kind, value, { gap = false } = {}) {
  if (gap) return s('rect', { x, y, width: 40, height: 56, rx: 4, fill: 'none', stroke: '#d9480f', 'stroke-dasharray': '4 3', 'stroke-width': 2 });
  const shape = {
    corner: 'M12 40 V16 h4 v-4 h4 v4 h4 v-4 h4 v28 z',
    tower: 'M14 40 V14 h12 v26 z M12 14 h16 l-8 -8 z',
    gate: 'M8 40 V16 h24 v24 h-7 v-10 a5 5 0 0 0 -10 0 v10 z',
    hall: 'M8 40 V18 l12 -10 l12 10 V40 z',
    church: 'M10 40 V22 l10 -8 l10 8 V40 z M19 14 V4 h2 V14 z M16 7 h8 v2 h-8 z',
  }[kind];
  return s('g', { transform: `translate(${x},${y})` },
    s('rect', { width: 40, height: 56, rx: 4, fill: COLOURS[kind], stroke: '#243b53', 'stroke-width': 1.5 }),
    s('path', { d: shape, fill: '#fff', stroke: '#243b53', 'stroke-width': 1.2 }),
    s('text', { x: 20, y: 52, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold', fill: '#243b53' }, String(value)));
}

export const drawings = {
  /** A complete city: a corner tower at each end, the town hall in the middle, a church on each side. */
  city: () => art(250, 66, ...[['corner', 3], ['church', 7], ['hall', 5], ['church', 9], ['corner', 3]].map(([k, v], i) => building(8 + i * 46, 5, k, v))),
  /** The kinds of building card. */
  kinds: () => art(250, 66, ...[['corner', 2], ['tower', 1], ['gate', 4], ['hall', 6], ['church', 8]].map(([k, v], i) => building(8 + i * 46, 5, k, v))),
  /** The two stacks: the open one's top card is seen by all, the face-down one's only by the auctioneer. */
  stacks: () => art(250, 66, building(8, 5, 'gate', 3), card(70, 8, null, { w: 40, hgt: 52 }), arrow(120, 34, 170, 34), card(180, 8, '?', { w: 40, hgt: 52, mark: true })),
  /** A city with a gap that a saboteur tore down. */
  gap: () => art(250, 66, ...[['corner', 2], ['gate', 3]].map(([k, v], i) => building(8 + i * 46, 5, k, v)), building(100, 5, null, 0, { gap: true }), building(146, 5, 'hall', 7), building(192, 5, 'tower', 2)),
};

export const en = {
  intro: 'Medieval builders buy building cards at auction, with money nobody else can count, and lay them out as a city in a row. Saboteurs tear buildings down again. The best city wins.',
  sections: [
    { title: 'How to play', blocks: [
      'Everybody starts with 10 Taler; only you know how much money you have. Each turn has three steps:',
      ['Income: roll the die and take that many Taler, plus 1 for every coin shown on the gates of your city. The saboteur face brings only the gates’ coins, and a saboteur.',
        'Auction: put up the top card of one of the two stacks and make an opening bid. Going round the table, each player raises the bid or drops out for good. The last one left buys the card; half of the price goes to you, the auctioneer, the rest to the bank. If you buy it yourself, everything goes to the bank.',
        'Build or sabotage, or neither: lay up to three cards from your hand into your city, or send a saboteur.'],
      { draw: 'stacks', caption: 'Everybody sees the top of the open stack (left); a card from the face-down stack is shown only to the auctioneer.' },
      'A bid is not limited by your money, because nobody can see it. A buyer who cannot pay loses all their money to the bank, and the card goes to the next highest bidder.',
      'If the auctioneer of a face-down card has been outbid, the card’s kind is announced to everybody, but not its value.',
    ] },
    { title: 'Building your city', blocks: [
      { draw: 'kinds', caption: 'The kinds of card: corner tower, tower, city gate, town hall and church, each with its points.' },
      ['Your first build lays three cards at once; after that, up to three cards a turn.', 'A new card touches one already laid. Laid cards never move.',
        'Never two cards of the same kind side by side (towers and corner towers count as one kind), and only one town hall per city.',
        'A left corner tower closes the city’s left end, a right one its right end. Before the final round a city may have only one corner tower.'],
    ] },
    { title: 'Saboteurs', blocks: [
      'Instead of building you may send one saboteur. Either attack a building of the player with the fewest shields (towers carry shields): the die decides whether it falls, stands, or whether its owner pays its value to keep it. Or attack the hand of a player holding five cards or more: one of their cards is drawn and put under a stack.',
      { draw: 'gap', caption: 'A fallen building leaves a gap, which a later card may fill.' },
    ] },
    { title: 'The end and scoring', blocks: [
      'When a player auctions the last card of either stack, the final round begins: everybody may lay up to three more cards, and now a city may get its second corner tower.',
      ['Every card in your city scores its value.', 'A complete city, with no gap and a corner tower at each end, scores extra: 10 if the town hall stands exactly in the middle, 5 if there are as many churches left of it as right of it (at least one on each side), and 5 if both corner towers have the same value.', 'Every card still in your hand counts against you. Money is worth nothing.'],
      { draw: 'city', caption: 'A complete city: 3 + 7 + 5 + 9 + 3 = 27 points, plus 10 + 5 + 5 = 47.' },
      'The highest total wins.',
    ] },
  ],
};

export const de = {
  intro: 'Baumeister im Mittelalter ersteigern Gebäudekarten mit Geld, das niemand sonst zählen kann, und legen sie als Stadt in einer Reihe aus. Saboteure reißen Gebäude wieder ein. Die beste Stadt gewinnt.',
  sections: [
    { title: 'So wird gespielt', blocks: [
      'Alle beginnen mit 10 Talern; wie viel Geld ihr habt, wisst nur ihr selbst. Jeder Zug hat drei Schritte:',
      ['Einkommen: Würfelt und nehmt so viele Taler, dazu 1 für jede Münze auf den Stadttoren eurer Stadt. Der Saboteur auf dem Würfel bringt nur die Münzen der Tore und einen Saboteur.',
        'Versteigerung: Bietet die oberste Karte eines der beiden Stapel an und gebt ein Eröffnungsgebot ab. Reihum erhöht jede Person das Gebot oder steigt endgültig aus. Wer übrig bleibt, kauft die Karte; die Hälfte des Preises bekommt ihr als Versteigernde, der Rest geht an die Bank. Kauft ihr selbst, geht alles an die Bank.',
        'Bauen oder sabotieren oder keins von beiden: Legt bis zu drei Karten aus eurer Hand in eure Stadt oder schickt einen Saboteur los.'],
      { draw: 'stacks', caption: 'Die oberste Karte des offenen Stapels sehen alle (links); eine Karte vom verdeckten Stapel sieht nur, wer versteigert.' },
      'Ein Gebot ist nicht durch euer Geld begrenzt, denn niemand kann es sehen. Wer nicht zahlen kann, verliert sein ganzes Geld an die Bank, und die Karte geht an das nächsthöhere Gebot.',
      'Wird bei einer verdeckten Karte die versteigernde Person überboten, wird allen die Art der Karte genannt, nicht ihr Wert.',
    ] },
    { title: 'Eure Stadt bauen', blocks: [
      { draw: 'kinds', caption: 'Die Kartenarten: Eckturm, Turm, Stadttor, Rathaus und Kirche, jede mit ihren Punkten.' },
      ['Beim ersten Bauen legt ihr drei Karten auf einmal, danach bis zu drei Karten je Zug.', 'Eine neue Karte berührt eine schon gelegte. Gelegte Karten bewegen sich nie.',
        'Nie zwei Karten derselben Art nebeneinander (Türme und Ecktürme zählen als eine Art), und nur ein Rathaus je Stadt.',
        'Ein linker Eckturm schließt die Stadt links ab, ein rechter rechts. Vor der letzten Runde darf eine Stadt nur einen Eckturm haben.'],
    ] },
    { title: 'Saboteure', blocks: [
      'Statt zu bauen, könnt ihr einen Saboteur schicken. Entweder greift ihr ein Gebäude der Person mit den wenigsten Schilden an (Türme tragen Schilde): Der Würfel entscheidet, ob es fällt, stehen bleibt oder ob seine Besitzerin oder sein Besitzer seinen Wert zahlt, um es zu behalten. Oder ihr greift die Hand einer Person mit fünf oder mehr Karten an: Eine ihrer Karten wird gezogen und unter einen Stapel gelegt.',
      { draw: 'gap', caption: 'Ein gefallenes Gebäude hinterlässt eine Lücke, die eine spätere Karte füllen darf.' },
    ] },
    { title: 'Ende und Wertung', blocks: [
      'Wer die letzte Karte eines Stapels versteigert, leitet die letzte Runde ein: Alle dürfen noch bis zu drei Karten legen, und jetzt darf eine Stadt ihren zweiten Eckturm bekommen.',
      ['Jede Karte in eurer Stadt zählt ihren Wert.', 'Eine vollständige Stadt, ohne Lücke und mit einem Eckturm an jedem Ende, bringt mehr: 10, wenn das Rathaus genau in der Mitte steht, 5, wenn links davon so viele Kirchen stehen wie rechts (mindestens eine auf jeder Seite), und 5, wenn beide Ecktürme denselben Wert haben.', 'Jede Karte, die ihr noch auf der Hand habt, zählt gegen euch. Geld ist nichts wert.'],
      { draw: 'city', caption: 'Eine vollständige Stadt: 3 + 7 + 5 + 9 + 3 = 27 Punkte, dazu 10 + 5 + 5 = 47.' },
      'Die höchste Summe gewinnt.',
    ] },
  ],
};

export default { en, de, drawings };
