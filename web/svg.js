// The one SVG element builder the boards share: svg('circle', {cx: 1}, parent).

const NS = 'http://www.w3.org/2000/svg';

export function svg(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
