// What every board module uses.
export { s, h, svgRoot, moveTarget, clickable, seatColour, SEAT_COLOURS } from '../svg.js';
export { seatName } from '../words.js';
