// Space Builder's rules for players (see rules.js for the shape), after docs/rules/space-builder.md.

import { s } from '../../svg.js';
import { art, arrow } from '../draw.js';

const C = 34;

/** A building card on a slot: its number, its face and a notch on the side it is turned to. */
function piece(x, y, n, face, turn, { wrong = false } = {}) {
  return s('g', { transform: `translate(${x + C / 2},${y + C / 2}) rotate(${turn * 90})` },
    s('rect', { x: -C / 2 + 2, y: -C / 2 + 2, width: C - 4, height: C - 4, rx: 4, fill: face === 'A' ? '#ffd43b' : '#74c0fc', stroke: wrong ? '#d9480f' : '#243b53', 'stroke-width': wrong ? 3 : 1.5 }),
    s('path', { d: `M-6 ${-C / 2 + 2} L0 ${-C / 2 + 9} L6 ${-C / 2 + 2} Z`, fill: '#243b53' }),
    s('text', { x: 0, y: 5, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 'bold', fill: '#243b53', transform: `rotate(${-turn * 90})` }, `${n}${face}`));
}

/** A 3 × 3 board at (x, y) with `cards` `[slot, n, face, turn]`. */
function board(x, y, cards, opts = {}) {
  const slots = [];
  for (let i = 0; i < 9; i++) slots.push(s('rect', { x: x + (i % 3) * C, y: y + Math.floor(i / 3) * C, width: C, height: C, fill: '#f1f3f5', stroke: '#adb5bd' }));
  return s('g', {}, ...slots, ...cards.map(([slot, n, face, turn]) => piece(x + (slot % 3) * C, y + Math.floor(slot / 3) * C, n, face, turn, opts[slot] || {})));
}

export const drawings = {
  /** The blueprint, lying a quarter turn round, and the city built from it. */
  blueprint: () => art(300, 120,
    s('g', { transform: `rotate(90 ${10 + 1.5 * C} ${10 + 1.5 * C})` }, s('rect', { x: 6, y: 6, width: 3 * C + 8, height: 3 * C + 8, fill: '#e7f5ff', stroke: '#1c7ed6' }),
      board(10, 10, [[0, 1, 'A', 0], [1, 2, 'B', 1], [4, 3, 'A', 2], [8, 4, 'B', 0]])),
    arrow(130, 60, 165, 60),
    board(180, 10, [[2, 1, 'A', 1], [5, 2, 'B', 2], [4, 3, 'A', 3], [6, 4, 'B', 1]])),
  /** One card: face A or B, turned a quarter at a time. */
  card: () => art(300, 56,
    ...[['A', 0], ['A', 1], ['B', 0], ['B', 3]].map(([face, turn], i) => piece(10 + i * 70, 10, 2, face, turn))),
  /** A checked city: one card missing, one on the wrong slot, one turned wrong. */
  check: () => art(130, 120, board(10, 10, [[2, 1, 'A', 1], [0, 2, 'B', 2], [4, 3, 'A', 0]], { 0: { wrong: true }, 4: { wrong: true } })),
};

export const en = {
  intro: 'Everybody builds the same space city at the same time, each on their own board. Build exactly what the blueprint shows, and be quick: the fewest mistakes win the round, and among equally good cities the one finished first.',
  sections: [
    { title: 'How to play', blocks: [
      'Each round a new blueprint is turned up. It shows where every building card goes, which side lies up and which way it points.',
      'The blueprint may lie turned by a quarter, a half or three quarters. Build the city as the blueprint lies in front of you: turn the whole plan in your head.',
      { draw: 'blueprint', caption: 'The blueprint lies a quarter turn round (left); the city to build is the plan as it lies (right).' },
      'You start with cards 1 to 4. Pick a card, choose its side (A or B) and how it is turned, then tap an empty square of your board. You may move, turn, flip or take back your cards as often as you like until you are done.',
      { draw: 'card', caption: 'Card 2 on side A, turned a quarter, then on side B, and turned back.' },
      'When all your cards lie on your board, declare your city finished. A finished city cannot change any more. You may also stop building and leave your city as it stands.',
      'How the round ends depends on the finishing order chosen for the game:',
      ['By arrival: everybody sees the blueprint at once, and the round ends as soon as all players but one have finished.',
        'By time taken: your own clock starts when you look at the blueprint, so nobody needs to be there at the same moment. The round ends when everybody has finished or stopped.',
        'A game may also set a time limit per round; when it passes, everybody still building stops.'],
    ] },
    { title: 'What you see', blocks: [
      ['Your board: nine squares, and your cards on it.', 'Your hand: the cards you build with. Everybody can see which cards each player holds.',
        'The blueprint of the round, drawn as it lies.', 'The other players: how many cards each has laid and whether they have finished, never where their cards lie. Once the round is over, every city is shown.'],
    ] },
    { title: 'Scoring', blocks: [
      'When the round is over, every city is compared with the blueprint, card by card:',
      ['a card in the right place, right side up and turned right: no mistake;', 'a card not on the board: 1 mistake;', 'a card on the wrong square: 2 mistakes;', 'a card on the right square but on the wrong side or turned wrong: 2 mistakes.'],
      { draw: 'check', caption: 'Card 4 is missing (1 mistake), card 2 lies on the wrong square (2) and card 3 is turned wrong (2).' },
      'The fewest mistakes win the round. On a tie, whoever finished first wins; a player who did not finish comes after all who did.',
      'The winner of the round takes one more card of their choice into their hand and builds with it from now on. Whoever wins a round while holding all eight cards wins the game.',
    ] },
    { title: 'Against bots', blocks: [
      'Bots build at a person’s pace: every card takes the random bot 4 to 8 seconds, the greedy bot 2 to 3½ seconds and the strong bot 1½ to 2½ seconds. The random bot lays its cards anywhere and gives up a round after a few tries. So a quick and careful player beats the random bot and can beat the greedy one.',
      'A game against bots does not count for your rating, unless you ask for a rated game when you create it.',
    ] },
  ],
};

export const de = {
  intro: 'Alle bauen gleichzeitig dieselbe Weltraumstadt, jede und jeder auf dem eigenen Spielplan. Baut genau, was der Bauplan zeigt, und seid schnell: Die wenigsten Fehler gewinnen die Runde, bei gleich guten Städten die zuerst fertige.',
  sections: [
    { title: 'So wird gespielt', blocks: [
      'In jeder Runde wird ein neuer Bauplan aufgedeckt. Er zeigt, wohin jede Gebäudekarte gehört, welche Seite oben liegt und wohin sie zeigt.',
      'Der Bauplan kann um eine Viertel-, halbe oder Dreivierteldrehung gedreht liegen. Baut die Stadt so, wie der Plan vor euch liegt: Den ganzen Plan dreht ihr im Kopf.',
      { draw: 'blueprint', caption: 'Der Bauplan liegt um eine Vierteldrehung gedreht (links); gebaut wird der Plan, wie er liegt (rechts).' },
      'Zu Beginn habt ihr die Karten 1 bis 4. Wählt eine Karte, ihre Seite (A oder B) und ihre Drehung, dann tippt auf ein leeres Feld eures Spielplans. Ihr dürft eure Karten verschieben, drehen, wenden und zurücknehmen, so oft ihr wollt, bis ihr fertig seid.',
      { draw: 'card', caption: 'Karte 2 auf Seite A, um eine Vierteldrehung gedreht, dann auf Seite B und zurückgedreht.' },
      'Liegen alle eure Karten auf dem Plan, meldet ihr eure Stadt als fertig. Eine fertige Stadt lässt sich nicht mehr ändern. Ihr könnt auch aufhören zu bauen und die Stadt so lassen, wie sie ist.',
      'Wann die Runde endet, hängt von der Reihenfolge ab, die für das Spiel gewählt wurde:',
      ['Nach Eingang: Alle sehen den Bauplan zugleich, und die Runde endet, sobald alle bis auf eine Person fertig sind.',
        'Nach benötigter Zeit: Eure eigene Uhr läuft ab dem Blick auf den Bauplan, niemand muss also zur selben Zeit da sein. Die Runde endet, wenn alle fertig sind oder aufgehört haben.',
        'Ein Spiel kann außerdem eine Zeitgrenze je Runde haben; ist sie vorbei, hören alle auf, die noch bauen.'],
    ] },
    { title: 'Was ihr seht', blocks: [
      ['Euren Spielplan: neun Felder und eure Karten darauf.', 'Eure Hand: die Karten, mit denen ihr baut. Alle sehen, welche Karten jede Person hat.',
        'Den Bauplan der Runde, so gezeichnet, wie er liegt.', 'Die anderen: wie viele Karten sie gelegt haben und ob sie fertig sind, aber nie, wo ihre Karten liegen. Nach der Runde werden alle Städte gezeigt.'],
    ] },
    { title: 'Wertung', blocks: [
      'Nach der Runde wird jede Stadt Karte für Karte mit dem Bauplan verglichen:',
      ['richtiges Feld, richtige Seite, richtig gedreht: kein Fehler;', 'Karte nicht auf dem Plan: 1 Fehler;', 'Karte auf dem falschen Feld: 2 Fehler;', 'richtiges Feld, aber falsche Seite oder falsch gedreht: 2 Fehler.'],
      { draw: 'check', caption: 'Karte 4 fehlt (1 Fehler), Karte 2 liegt auf dem falschen Feld (2) und Karte 3 ist falsch gedreht (2).' },
      'Die wenigsten Fehler gewinnen die Runde. Bei Gleichstand gewinnt, wer zuerst fertig war; wer nicht fertig wurde, kommt nach allen, die fertig wurden.',
      'Wer die Runde gewinnt, nimmt eine weitere Karte eigener Wahl auf die Hand und baut ab jetzt auch mit ihr. Wer eine Runde mit allen acht Karten gewinnt, gewinnt das Spiel.',
    ] },
    { title: 'Gegen Bots', blocks: [
      'Bots bauen im Tempo eines Menschen: Jede Karte braucht beim zufälligen Bot 4 bis 8 Sekunden, beim gierigen 2 bis 3½ und beim starken 1½ bis 2½ Sekunden. Der zufällige Bot legt seine Karten irgendwohin und gibt eine Runde nach einigen Versuchen auf. Wer schnell und sorgfältig baut, schlägt also den zufälligen Bot und kann den gierigen schlagen.',
      'Ein Spiel gegen Bots zählt nicht für eure Wertungszahl, außer ihr wählt beim Erstellen ein gewertetes Spiel.',
    ] },
  ],
};

export default { en, de, drawings };
