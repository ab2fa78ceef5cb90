// Small SVG icons for buttons (first, back, forward, last, play, pause): drawn shapes, so they
// never render as the empty boxes a font without ⏮ ⏭ shows. Each is hidden from screen
// readers; the button carries the words (`aria-label`).

import { svg } from './svg.js';

const SHAPES = {
  first: ['M3 3h2v10H3z', 'M13 3v10L6 8z'],
  back: ['M12 3v10L5 8z'],
  fwd: ['M4 3v10l7-5z'],
  last: ['M11 3h2v10h-2z', 'M3 3v10l7-5z'],
  play: ['M4 2v12l10-6z'],
  pause: ['M4 3h3v10H4z', 'M9 3h3v10H9z'],
};

/** The icon `name` as an inline SVG element. */
export function icon(name) {
  const e = svg('svg', { viewBox: '0 0 16 16', width: '16', height: '16', 'aria-hidden': 'true', focusable: 'false', class: `icon icon-${name}` });
  for (const d of SHAPES[name] || []) svg('path', { d, fill: 'currentColor' }, e);
  return e;
}
