// Motion (issue 21): a card arriving at a place of the table — a discard pile, a meld —
// slides in, as a card reaching the trick does; nothing moves when the reader asks for reduced
// motion (prefers-reduced-motion: no card is marked, and the CSS drops every animation).
// A board calls arrivals(version) once per drawing, then place(key, codes) for each place it
// draws: the indexes of the cards that were not there when it last drew an earlier version
// (a first drawing, a step back in a replay and a redraw of the same version move nothing
// new). A redraw of the same version within the move's time continues the move where it was.

let last = null; // the last drawing: { version, at, places: key → codes, fresh: key → indexes }

const still = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

export function arrivals(version) {
  const before = last;
  const same = before !== null && before.version === version;
  const forward = before !== null && version > before.version;
  const drawing = { version, at: same ? before.at : performance.now(), places: new Map(), fresh: new Map() };
  last = drawing;
  return function place(key, codes) {
    drawing.places.set(key, [...codes]);
    let fresh = new Set();
    if (same) fresh = before.fresh.get(key) || fresh;
    else if (forward && !still()) {
      const left = [...(before.places.get(key) || [])];
      codes.forEach((code, index) => {
        const at = left.indexOf(code);
        if (at >= 0) left.splice(at, 1);
        else fresh.add(index);
      });
    }
    drawing.fresh.set(key, fresh);
    return fresh;
  };
}

// Marks a card node as arriving (class "arriving"): when the table is drawn again meanwhile
// the animation starts `elapsed` into its run (a move already over is drawn at rest).
export function arriving(node) {
  const elapsed = last ? performance.now() - last.at : 0;
  node.classList.add("arriving");
  if (elapsed > 0) node.style.animationDelay = `-${Math.round(elapsed)}ms`;
  return node;
}
