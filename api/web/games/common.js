// What every board module uses.
export { s, h, svgRoot, moveTarget, clickable, seatColour, SEAT_COLOURS, SEAT_COLOUR_NAMES, seatMark, seatBadge, seatShapeName, shapePath, swatch, outlineFor, lastFrame, lastMark, lastMoveKey, rove, legend } from '../svg.js';
export { zoomable } from '../zoom.js';
export { seatName, count, place } from '../words.js';
export { t } from '../i18n/index.js';
