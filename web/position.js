// Position strings as every game system writes them: `place:token` pairs separated by spaces
// (`C1n:R7`, `e5:B`, `a1:RF`).

/** A position string as a Map place -> token; `fold` writes places in lower case and tokens
 *  in upper case (cells and holes named either way). */
export function parsePosition(text, fold) {
  const out = new Map();
  for (const pair of (text || '').trim().split(/\s+/)) {
    const i = pair.indexOf(':');
    if (i <= 0 || i === pair.length - 1) continue;
    const [place, token] = [pair.slice(0, i), pair.slice(i + 1)];
    if (fold) out.set(place.toLowerCase(), token.toUpperCase());
    else out.set(place, token);
  }
  return out;
}
