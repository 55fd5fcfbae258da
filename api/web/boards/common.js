// What every board module uses.
export { s, h, svgRoot, moveTarget, clickable, seatColour, SEAT_COLOURS, seatMark, seatShapeName, shapePath, swatch } from '../svg.js';
export { seatName, count } from '../words.js';
export { t } from '../i18n/index.js';
