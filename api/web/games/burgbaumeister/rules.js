// Der Wettkampf der Burgbaumeister: the rules for players (see rules.js for the shape), after
// docs/rules/burgbaumeister.md.

import { s } from '../../svg.js';
import { art, card, arrow } from '../draw.js';

/** The start tower that begins every wall. */
const tower = (x, y) => s('g', { transform: `translate(${x},${y})` },
  s('rect', { x: 3, y: 8, width: 20, height: 28, fill: '#adb5bd', stroke: '#243b53', 'stroke-width': 1.5 }),
  s('path', { d: 'M3 8 v-6 h5 v4 h4 v-4 h2 v4 h4 v-4 h5 v6 z', fill: '#adb5bd', stroke: '#243b53', 'stroke-width': 1.5 }),
  s('text', { x: 13, y: 28, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold', fill: '#243b53' }, '1'));

export const drawings = {
  /** The store: face-down cards in rows, one of them turned up. */
  store: () => {
    const cards = [];
    for (let r = 0; r < 2; r++) for (let c = 0; c < 8; c++) cards.push(card(8 + c * 34, 6 + r * 42, r === 1 && c === 3 ? 15 : null, { mark: r === 1 && c === 3 }));
    return art(290, 92, ...cards);
  },
  /** A wall of rising numbers and where a 15 may go. */
  wall: () => art(300, 50, tower(8, 6), card(40, 6, 3), card(72, 6, 7), card(104, 6, 12), arrow(170, 24, 142, 24), card(176, 6, 15, { mark: true })),
  /** A card that does not fit goes back face down. */
  back: () => art(300, 50, tower(8, 6), card(40, 6, 3), card(72, 6, 7), card(104, 6, 12), card(176, 6, 5, { mark: true }), arrow(206, 24, 244, 24), card(252, 6, null)),
};

export const en = {
  intro: 'Forty-five numbered cards lie face down in the store. Turn up one card a turn and build a wall of rising numbers. Whoever remembers where the cards lie builds faster: the first wall of nine cards wins.',
  sections: [
    { title: 'How to play', blocks: [
      'The players take turns. On your turn, turn up any face-down card of the store. Everybody sees its number.',
      { draw: 'store', caption: 'The store: the cards lie face down; the 15 has just been turned up.' },
      'Then either add the card to the right end of your wall, if it is higher than the wall’s last card, or put it back face down where it was. Remember it: a card keeps its place until somebody builds it into a wall.',
      { draw: 'wall', caption: 'A wall 1, 3, 7, 12: a 15 may be added at its right end.' },
      { draw: 'back', caption: 'A 5 is lower than the 12: it goes back face down to its place.' },
      'Every wall begins with a start tower worth 1, so the first card of a wall can be any card.',
    ] },
    { title: 'What you see', blocks: [
      ['The store: the face-down cards in five rows of nine, and the card turned up this turn.', 'Every player’s wall, from the start tower to the last card.', 'The game’s log: every card turned up so far, with where it lay, so nobody needs a better memory than the others.'],
    ] },
    { title: 'The end and scoring', blocks: [
      'Whoever builds the ninth card into their wall ends the game at once and wins.',
      'If no player can use any card left in the store, the game ends too: the longest wall wins; on equal length, the wall with the higher last card.',
    ] },
    { title: 'The variant for experienced builders', blocks: [
      'If the game is played with the variant, some cards show symbols and the game is won on points, not by the player who ended it:',
      ['1 point per card in your wall;', 'king and queen: 3 points each;', 'knights and maidens: 1 point each, and 1 more for every knight–maiden pair;', 'ravens: 1 point per raven shown.'],
      'Towers protect: a tower and every card between two towers cannot be destroyed. A cannon that you have just built may destroy one unprotected card in another player’s wall, at once or never. The wizard lets you, once per game on a later turn, slip a turned-up card into your wall wherever the numbers still rise.',
    ] },
  ],
};

export const de = {
  intro: 'Fünfundvierzig nummerierte Karten liegen verdeckt im Lager. Deckt jede Runde eine Karte auf und baut eine Mauer aus aufsteigenden Zahlen. Wer sich merkt, wo die Karten liegen, baut schneller: Die erste Mauer aus neun Karten gewinnt.',
  sections: [
    { title: 'So wird gespielt', blocks: [
      'Ihr seid reihum am Zug. Deckt in eurem Zug eine beliebige verdeckte Karte des Lagers auf. Alle sehen ihre Zahl.',
      { draw: 'store', caption: 'Das Lager: Die Karten liegen verdeckt; die 15 wurde gerade aufgedeckt.' },
      'Dann legt ihr die Karte rechts an eure Mauer, wenn sie höher ist als deren letzte Karte, oder ihr legt sie verdeckt an ihren Platz zurück. Merkt sie euch: Eine Karte bleibt an ihrem Platz, bis jemand sie in eine Mauer einbaut.',
      { draw: 'wall', caption: 'Eine Mauer 1, 3, 7, 12: Eine 15 darf rechts angelegt werden.' },
      { draw: 'back', caption: 'Eine 5 ist kleiner als die 12: Sie kommt verdeckt an ihren Platz zurück.' },
      'Jede Mauer beginnt mit einem Startturm, der 1 zählt; die erste Karte einer Mauer darf also jede Karte sein.',
    ] },
    { title: 'Was ihr seht', blocks: [
      ['Das Lager: die verdeckten Karten in fünf Reihen zu neun und die Karte, die in diesem Zug aufgedeckt wurde.', 'Die Mauer jeder Person, vom Startturm bis zur letzten Karte.', 'Den Spielverlauf: jede bisher aufgedeckte Karte mit ihrem Platz, damit niemand ein besseres Gedächtnis braucht als die anderen.'],
    ] },
    { title: 'Ende und Wertung', blocks: [
      'Wer die neunte Karte in die eigene Mauer einbaut, beendet das Spiel sofort und gewinnt.',
      'Kann niemand mehr eine Karte aus dem Lager verwenden, endet das Spiel ebenfalls: Die längste Mauer gewinnt; bei gleicher Länge die Mauer mit der höheren letzten Karte.',
    ] },
    { title: 'Die Variante für erfahrene Baumeister', blocks: [
      'Wird mit der Variante gespielt, zeigen manche Karten Symbole, und es gewinnen die meisten Punkte, nicht wer das Spiel beendet hat:',
      ['1 Punkt je Karte in eurer Mauer;', 'König und Königin: je 3 Punkte;', 'Ritter und Burgfräulein: je 1 Punkt und 1 mehr für jedes Paar aus Ritter und Burgfräulein;', 'Raben: 1 Punkt je abgebildetem Raben.'],
      'Türme schützen: Ein Turm und jede Karte zwischen zwei Türmen kann nicht zerstört werden. Eine Kanone, die ihr gerade gebaut habt, darf eine ungeschützte Karte in der Mauer einer anderen Person zerstören, sofort oder nie. Mit dem Zauberer dürft ihr einmal im Spiel, in einem späteren Zug, eine aufgedeckte Karte dort in eure Mauer schieben, wo die Zahlen noch aufsteigen.',
    ] },
  ],
};

export default { en, de, drawings };
