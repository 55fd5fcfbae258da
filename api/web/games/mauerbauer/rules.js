// Mauerbauer: the rules for players (see rules.js for the shape), after docs/rules/mauerbauer.md.

import { s } from '../../svg.js';
import { art, card } from '../draw.js';

const SIDE = 60;
const HIGH = SIDE * Math.sqrt(3) / 2;
const TOWER = { white: '#f8f9fa', grey: '#868e96', black: '#212529' };
const HOUSE = { yellow: '#fcc419', green: '#51cf66', blue: '#339af0', pink: '#f783ac', red: '#fa5252' };

/** A row of triangles from (x, y): `n` fields, the first pointing up. */
function fields(x, y, n, fill = '#e9f5db') {
  const out = [];
  for (let i = 0; i < n; i++) {
    const left = x + (i * SIDE) / 2;
    const d = i % 2 === 0 ? `M${left} ${y + HIGH} L${left + SIDE / 2} ${y} L${left + SIDE} ${y + HIGH} Z` : `M${left} ${y} L${left + SIDE} ${y} L${left + SIDE / 2} ${y + HIGH} Z`;
    out.push(s('path', { d, fill, stroke: '#ced4da', 'stroke-width': 1 }));
  }
  return out;
}

const wall = (x1, y1, x2, y2) => s('line', { x1, y1, x2, y2, stroke: '#8d5524', 'stroke-width': 6, 'stroke-linecap': 'round' });
const tower = (x, y, colour) => s('circle', { cx: x, cy: y, r: 7, fill: TOWER[colour], stroke: '#243b53', 'stroke-width': 1.5 });
const house = (x, y, colour) => s('rect', { x: x - 5, y: y - 5, width: 10, height: 10, fill: HOUSE[colour], stroke: '#243b53', 'stroke-width': 1 });
const palace = (x, y, colour) => s('path', { d: `M${x - 8} ${y + 6} V${y - 2} L${x} ${y - 9} L${x + 8} ${y - 2} V${y + 6} Z`, fill: HOUSE[colour], stroke: '#243b53', 'stroke-width': 1.5 });

export const drawings = {
  /** One turn: a wall built, towers on its ends, a house on each side. */
  turn: () => {
    const y = 10;
    return art(220, 70, ...fields(10, y, 5),
      wall(10 + SIDE, y + HIGH, 10 + SIDE / 2 + SIDE / 2 + SIDE / 2, y),
      tower(10 + SIDE, y + HIGH, 'grey'), tower(10 + SIDE * 1.5, y, 'white'),
      house(10 + SIDE * 0.95, y + HIGH * 0.4, 'red'), house(10 + SIDE * 1.5, y + HIGH * 0.62, 'blue'));
  },
  /** A closed city: every side of its fields walled; its houses of one colour in pairs become palaces. */
  city: () => {
    const y = 10;
    const [a, b, c] = [[10 + SIDE / 2, y + HIGH], [10 + SIDE, y], [10 + SIDE * 1.5, y + HIGH]];
    const top = [10 + SIDE * 2, y];
    return art(220, 70, ...fields(10, y, 5),
      s('path', { d: `M${a} L${b} L${top} L${c} Z`, fill: '#d3f9d8' }),
      wall(...a, ...b), wall(...b, ...top), wall(...top, ...c), wall(...c, ...a),
      tower(...a, 'black'), tower(...b, 'white'), tower(...top, 'grey'), tower(...c, 'white'),
      palace(10 + SIDE, y + HIGH * 0.62, 'green'), house(10 + SIDE * 1.5, y + HIGH * 0.38, 'yellow'));
  },
  /** Guild cards: laid to score a city or the board outside the cities. */
  cards: () => art(220, 60, card(10, 8, null, { w: 34, hgt: 46 }), card(52, 8, null, { w: 34, hgt: 46 }),
    card(110, 8, '7+', { w: 34, hgt: 46, fill: '#d3f9d8', mark: true }), card(152, 8, 'W', { w: 34, hgt: 46, fill: '#fff3bf' })),
};

export const en = {
  intro: 'The players build walls, towers and houses together on one board. When walls close a city, everybody may score it with the guild cards in their hand. Play your cards at the right moment: most points win.',
  sections: [
    { title: 'How to play', blocks: [
      'On your turn, build one wall on any free line of the board. Then the dice are rolled for you:',
      ['The tower die gives the colour of a tower for an end of the new wall that has none; if neither end has a tower, the other end gets a tower of any colour you like. If both ends have towers, nobody rolls for towers.',
        'The two house dice give two colours: you decide which house goes on which side of the wall (a question mark is any colour).'],
      { draw: 'turn', caption: 'A new wall with a tower on each end and a house on each side.' },
      'When the walls around a group of fields are complete, the city is closed. Walls and towers inside it go back to the supply, and every two houses of one colour become a palace of that colour. A city next to another closed city may be joined with it.',
      { draw: 'city', caption: 'A closed city: two green houses have become a palace.' },
    ] },
    { title: 'Scoring a city', blocks: [
      'When a city closes, each player in turn, starting with whoever closed it, either lays one or two guild cards and scores them now, or discards one card without scoring. Then those who laid cards draw one, those who discarded draw two.',
      'City cards score the city just closed: for its size, the towers of a colour on its walls, the houses and palaces of a colour in it, its colourful houses, its palaces or its towers. Board cards score what lies outside every closed city: houses of a colour or in a region, towers, towers at the water, walls. One card scores the closed cities on the board.',
      { draw: 'cards', caption: 'Your hand is hidden from the others; a laid card is shown to everybody.' },
      'Whoever is last on the score track may afterwards swap any number of cards for new ones.',
    ] },
    { title: 'What you see', blocks: [
      ['The board: its fields of three regions, the free lines, walls, towers, houses and palaces, the water on both sides.', 'The supply: what is left of each piece.', 'Your guild cards; of the others only how many they hold.', 'The score track and, during a scoring, who has chosen what.'],
    ] },
    { title: 'The end', blocks: [
      'The game ends when the last wall, tower, house or palace of the supply has been placed. Then each player may choose one closed city and lay one or two more cards for it or for the board. Most points win; on a tie, the one with more cards left in hand.',
    ] },
  ],
};

export const de = {
  intro: 'Alle bauen gemeinsam Mauern, Türme und Häuser auf einem Spielplan. Schließen Mauern eine Stadt, dürfen alle sie mit den Zunftkarten auf ihrer Hand werten. Spielt eure Karten im richtigen Moment: Die meisten Punkte gewinnen.',
  sections: [
    { title: 'So wird gespielt', blocks: [
      'Baut in eurem Zug eine Mauer auf eine beliebige freie Linie des Plans. Dann wird für euch gewürfelt:',
      ['Der Turmwürfel nennt die Farbe eines Turms für ein Ende der neuen Mauer ohne Turm; hat keines der Enden einen Turm, bekommt das andere einen Turm in einer Farbe eurer Wahl. Haben beide Enden Türme, wird für Türme nicht gewürfelt.',
        'Die beiden Hauswürfel nennen zwei Farben: Ihr entscheidet, welches Haus auf welche Seite der Mauer kommt (ein Fragezeichen ist jede Farbe).'],
      { draw: 'turn', caption: 'Eine neue Mauer mit einem Turm an jedem Ende und einem Haus auf jeder Seite.' },
      'Sind die Mauern um eine Gruppe von Feldern vollständig, ist die Stadt geschlossen. Mauern und Türme in ihrem Inneren kommen in den Vorrat zurück, und je zwei Häuser einer Farbe werden zu einem Palast dieser Farbe. Eine Stadt neben einer anderen geschlossenen Stadt darf mit ihr vereinigt werden.',
      { draw: 'city', caption: 'Eine geschlossene Stadt: Zwei grüne Häuser sind zu einem Palast geworden.' },
    ] },
    { title: 'Eine Stadt werten', blocks: [
      'Schließt sich eine Stadt, legt reihum, beginnend bei der Person, die sie geschlossen hat, jede Person eine oder zwei Zunftkarten und wertet sie sofort, oder sie wirft eine Karte ohne Wertung ab. Danach zieht, wer Karten gelegt hat, eine Karte, wer abgeworfen hat, zwei.',
      'Stadtkarten werten die gerade geschlossene Stadt: ihre Größe, die Türme einer Farbe auf ihren Mauern, die Häuser und Paläste einer Farbe in ihr, ihre bunten Häuser, ihre Paläste oder ihre Türme. Landkarten werten, was außerhalb aller geschlossenen Städte liegt: Häuser einer Farbe oder einer Region, Türme, Türme am Wasser, Mauern. Eine Karte wertet die geschlossenen Städte auf dem Plan.',
      { draw: 'cards', caption: 'Eure Hand sehen die anderen nicht; eine gelegte Karte sehen alle.' },
      'Wer danach auf der Zählleiste hinten liegt, darf beliebig viele Karten gegen neue tauschen.',
    ] },
    { title: 'Was ihr seht', blocks: [
      ['Den Spielplan: seine Felder in drei Regionen, die freien Linien, Mauern, Türme, Häuser und Paläste, das Wasser auf beiden Seiten.', 'Den Vorrat: was von jedem Bauteil übrig ist.', 'Eure Zunftkarten; von den anderen nur, wie viele sie haben.', 'Die Zählleiste und während einer Wertung, wer was gewählt hat.'],
    ] },
    { title: 'Das Ende', blocks: [
      'Das Spiel endet, wenn die letzte Mauer, der letzte Turm, das letzte Haus oder der letzte Palast des Vorrats gesetzt ist. Dann darf jede Person eine geschlossene Stadt wählen und noch eine oder zwei Karten für sie oder für das Land legen. Die meisten Punkte gewinnen; bei Gleichstand, wer mehr Karten auf der Hand behalten hat.',
    ] },
  ],
};

export default { en, de, drawings };
