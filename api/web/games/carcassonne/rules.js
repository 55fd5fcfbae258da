// Carcassonne: the rules for players (see rules.js for the shape), after docs/rules/carcassonne.md.

import { s } from '../../svg.js';
import { art, arrow } from '../draw.js';

const T = 60;

/** A follower standing at (x, y) in `colour`. */
const follower = (x, y, colour = '#e03131') => s('path', {
  d: `M${x} ${y - 12} a4 4 0 1 1 0.1 0 M${x - 9} ${y + 10} L${x - 3} ${y - 4} L${x - 9} ${y - 2} L${x - 8} ${y - 6} L${x} ${y - 8} L${x + 8} ${y - 6} L${x + 9} ${y - 2} L${x + 3} ${y - 4} L${x + 9} ${y + 10} Z`,
  fill: colour, stroke: '#243b53', 'stroke-width': 1,
});

/** A tile at (x, y): field, with a city on the north side and a road from west to east. */
function tileCityRoad(x, y) {
  return s('g', { transform: `translate(${x},${y})` },
    s('rect', { width: T, height: T, fill: '#8ce99a', stroke: '#243b53', 'stroke-width': 1.5 }),
    s('path', { d: `M0 0 H${T} Q${T / 2} ${T * 0.45} 0 0 Z`, fill: '#e6a157', stroke: '#8d5524' }),
    s('rect', { x: 0, y: T * 0.58, width: T, height: 7, fill: '#f1f3f5', stroke: '#868e96' }));
}

/** A tile with a cloister in its middle and a road leaving south. */
function tileCloister(x, y) {
  return s('g', { transform: `translate(${x},${y})` },
    s('rect', { width: T, height: T, fill: '#8ce99a', stroke: '#243b53', 'stroke-width': 1.5 }),
    s('rect', { x: T / 2 - 3.5, y: T / 2, width: 7, height: T / 2, fill: '#f1f3f5', stroke: '#868e96' }),
    s('path', { d: `M${T / 2 - 12} ${T / 2 + 6} V${T / 2 - 8} L${T / 2} ${T / 2 - 18} L${T / 2 + 12} ${T / 2 - 8} V${T / 2 + 6} Z`, fill: '#ffe8cc', stroke: '#8d5524' }));
}

/** A tile that is all city, with a pennant. */
function tileCity(x, y) {
  return s('g', { transform: `translate(${x},${y})` },
    s('rect', { width: T, height: T, fill: '#e6a157', stroke: '#243b53', 'stroke-width': 1.5 }),
    s('path', { d: `M${T / 2 - 8} ${T / 2 + 8} L${T / 2 - 8} ${T / 2 - 8} L${T / 2 + 8} ${T / 2 - 8} L${T / 2} ${T / 2} L${T / 2 + 8} ${T / 2 + 8} Z`, fill: '#1c7ed6' }));
}

export const drawings = {
  /** A tile and its parts: city, road, field. */
  tile: () => art(250, 80, tileCityRoad(10, 10), tileCloister(90, 10), tileCity(170, 10)),
  /** A tile laid so that its sides match, and a follower put on the road. */
  lay: () => art(250, 80, tileCityRoad(10, 10), tileCityRoad(70, 10), follower(100, 48, '#1c7ed6'), arrow(180, 40, 140, 40), s('rect', { x: 185, y: 10, width: T, height: T, fill: 'none', stroke: '#d9480f', 'stroke-dasharray': '5 4', 'stroke-width': 2 })),
  /** A completed city of two tiles with a follower: 2 points a tile. */
  city: () => art(250, 140, s('g', { transform: 'rotate(180 40 40)' }, tileCityRoad(10, 10)), tileCityRoad(10, 70), follower(40, 72)),
};

export const en = {
  intro: 'The players lay landscape tiles one at a time and build a map of roads, cities, cloisters and fields. Put your followers on them: completed roads, cities and cloisters score for whoever has the most followers there.',
  sections: [
    { title: 'How to play', blocks: [
      'On your turn you draw a tile and lay it next to the map. Every side it shares with another tile must match: city to city, road to road, field to field. A tile that fits nowhere is put aside and you draw another.',
      { draw: 'tile', caption: 'Tiles show cities (brown), roads (white), fields (green) and cloisters; a blue pennant makes a city worth more.' },
      'Then you may put one of your seven followers on a part of the tile you just laid: on its road as a thief, in its city as a knight, in its cloister as a monk or on its field as a farmer. Only where that road, city or field has no follower yet, counting everything the tile connects it to.',
      { draw: 'lay', caption: 'The road continues across both tiles; a follower stands on it. The dashed square is another place where a tile could go.' },
    ] },
    { title: 'Scoring during the game', blocks: [
      'As soon as a road has both ends, a city is closed all round or a cloister has tiles on all eight places around it, it is scored, and its followers go back to their owners:',
      ['a road: 1 point per tile;', 'a city: 2 points per tile and 2 per pennant;', 'a cloister: 9 points.'],
      { draw: 'city', caption: 'A closed city of two tiles: 4 points for the knight.' },
      'Whoever has the most followers on it scores the full points; players with equally many all score them.',
    ] },
    { title: 'The end', blocks: [
      'When the last tile has been laid, unfinished roads, cities and cloisters with followers score: 1 point per tile, and per pennant, for roads and cities, 1 per tile for a cloister and its neighbours. Then every field with farmers scores 3 points for each completed city it touches. Most points win.',
    ] },
    { title: 'What you see', blocks: [
      ['The map, with every follower, and the tile you have to lay; the places where it fits are highlighted.', 'How many tiles are left, and of which kind.', 'The score of every player and how many followers they still have.'],
    ] },
    { title: 'Mini expansions', blocks: [
      'Mage and witch: after a tile with the magic symbol you place or move the mage or the witch onto an unfinished road or city. The mage adds 1 point per tile when it scores, the witch halves its points.',
      'Gold mines: a tile with gold gets an ingot, and so does a tile next to it. Whoever scores a road, city or cloister takes the gold on its tiles. At the end each ingot is worth 1 to 4 points, the more ingots you have, the more each one is worth.',
    ] },
  ],
};

export const de = {
  intro: 'Reihum legt ihr Landschaftskarten an und baut eine Landkarte aus Straßen, Städten, Klöstern und Wiesen. Setzt eure Gefolgsleute darauf: Fertige Straßen, Städte und Klöster zählen für die Person mit den meisten Gefolgsleuten dort.',
  sections: [
    { title: 'So wird gespielt', blocks: [
      'In eurem Zug zieht ihr eine Karte und legt sie an die Landkarte an. Jede Seite, die sie mit einer anderen Karte teilt, muss passen: Stadt an Stadt, Straße an Straße, Wiese an Wiese. Eine Karte, die nirgends passt, wird beiseitegelegt, und ihr zieht eine neue.',
      { draw: 'tile', caption: 'Die Karten zeigen Städte (braun), Straßen (weiß), Wiesen (grün) und Klöster; ein blaues Wappen macht eine Stadt wertvoller.' },
      'Dann dürft ihr einen eurer sieben Gefolgsleute auf einen Teil der gerade gelegten Karte stellen: auf ihre Straße als Wegelagerer, in ihre Stadt als Ritter, in ihr Kloster als Mönch oder auf ihre Wiese als Bauer. Nur dort, wo auf dieser Straße, Stadt oder Wiese noch niemand steht, mit allem, was die Karte damit verbindet.',
      { draw: 'lay', caption: 'Die Straße läuft über beide Karten; auf ihr steht eine Gefolgsperson. Das gestrichelte Feld ist ein weiterer Platz, an den eine Karte passen könnte.' },
    ] },
    { title: 'Wertung während des Spiels', blocks: [
      'Sobald eine Straße beide Enden hat, eine Stadt rundum geschlossen ist oder ein Kloster auf allen acht Plätzen um sich herum Karten hat, wird gewertet, und die Gefolgsleute kehren zurück:',
      ['eine Straße: 1 Punkt je Karte;', 'eine Stadt: 2 Punkte je Karte und 2 je Wappen;', 'ein Kloster: 9 Punkte.'],
      { draw: 'city', caption: 'Eine geschlossene Stadt aus zwei Karten: 4 Punkte für den Ritter.' },
      'Wer dort die meisten Gefolgsleute hat, bekommt die vollen Punkte; bei Gleichstand alle, die gleich viele haben.',
    ] },
    { title: 'Das Ende', blocks: [
      'Ist die letzte Karte gelegt, zählen unfertige Straßen, Städte und Klöster mit Gefolgsleuten: 1 Punkt je Karte und je Wappen bei Straßen und Städten, 1 je Karte bei einem Kloster und seinen Nachbarn. Danach bringt jede Wiese mit Bauern 3 Punkte für jede fertige Stadt, die sie berührt. Die meisten Punkte gewinnen.',
    ] },
    { title: 'Was ihr seht', blocks: [
      ['Die Landkarte mit allen Gefolgsleuten und die Karte, die ihr legen müsst; die Plätze, an die sie passt, sind hervorgehoben.', 'Wie viele Karten noch übrig sind, und welche.', 'Die Punkte aller und wie viele Gefolgsleute sie noch haben.'],
    ] },
    { title: 'Mini-Erweiterungen', blocks: [
      'Magier und Hexe: Nach einer Karte mit dem Zaubersymbol setzt oder versetzt ihr den Magier oder die Hexe auf eine unfertige Straße oder Stadt. Der Magier bringt bei der Wertung 1 Punkt mehr je Karte, die Hexe halbiert die Punkte.',
      'Die Goldminen: Eine Karte mit Gold bekommt einen Goldbarren, eine Karte daneben ebenfalls. Wer eine Straße, Stadt oder ein Kloster wertet, nimmt das Gold auf deren Karten. Am Ende ist jeder Barren 1 bis 4 Punkte wert, je mehr Barren ihr habt, desto mehr jeder einzelne.',
    ] },
  ],
};

export default { en, de, drawings };
