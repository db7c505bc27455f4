// Display preferences of the deck, kept in this browser (localStorage), on every page: the
// four-colour deck colours clubs green and diamonds blue (hearts red, spades black), so the
// four suits are told apart at a glance. The page shell (page.html) has the header checkbox
// (input[data-four-colour]); the cards carry their suit as a class (cards.js: suit-clubs, …)
// and the root element the class "four-colour" while the preference is on (cardroom.css).

const KEY = "cardroom.fourColour";

// Whether the four-colour deck is chosen in this browser (off unless chosen).
export function fourColour() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false; // storage refused (private mode): the two-colour deck
  }
}

// Choose the four-colour deck (on) or the two-colour one, here and on every later page.
export function setFourColour(on) {
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    // storage refused: the choice holds for this page only
  }
  document.documentElement.classList.toggle("four-colour", on);
}

function wire() {
  document.documentElement.classList.toggle("four-colour", fourColour());
  for (const box of document.querySelectorAll("input[data-four-colour]")) {
    box.checked = fourColour();
    box.addEventListener("change", () => setFourColour(box.checked));
  }
}

wire();
