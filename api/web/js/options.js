// Each game's table options with their tooltips, as the rules docs define them
// (docs/rules/bourre.md §8–9, docs/rules/burraco.md §8; reveal and spectator_delay: design §5).
// tests/browser/test_options.py checks every key of the docs' option tables is here.

const COMMON = [
  { key: "reveal", kind: "choice", choices: ["after_hand", "never"], default: "after_hand",
    help: "after_hand: a settled hand's hidden cards become public in timelines and replays; "
      + "never: they stay hidden (design §5, visibility)." },
  { key: "spectator_delay", kind: "int", min: 0, max: 10000, default: 0,
    help: "Spectators see the table this many events behind live (design §5)." },
];

// The turn clock (docs/rules: options turn_seconds, timeouts_to_sit_out), the same in every game.
const CLOCK = [
  { key: "turn_seconds", kind: "optint", min: 1, max: 86400, default: null,
    help: "A turn clock: when a turn runs out the seat makes the rules' timeout move (Bourré: "
      + "pass or play the lowest legal card; Burraco: draw and discard the card drawn). Empty: "
      + "no clock." },
  { key: "timeouts_to_sit_out", kind: "int", min: 1, max: 1000, default: 3,
    help: "After this many timeouts the seat sits out and a bot plays it until the player "
      + "sits in again." },
];

export const OPTIONS = {
  bourre: [
    { key: "seats", kind: "int", min: 2, max: 8, default: 5, required: true,
      help: "Players at the table: 2–8 (rule 1)." },
    { key: "ante", kind: "int", min: 1, max: 1000000000, default: 1,
      help: "Chips each player puts into the pot before a hand (rules 5–7)." },
    { key: "pot_limit", kind: "optint", min: 1, max: 1000000000, default: null,
      help: "Rule 26: when the pot exceeds the limit the winner takes only the limit and a "
        + "bourré player pays only the limit. Empty: no limit (the pot can grow past 2^53)." },
    { key: "double_ante", kind: "bool", default: false,
      help: "Rule 30: every player antes, then each player who plays pays a second ante." },
    { key: "declaration", kind: "choice", choices: ["sequential", "two_round", "simultaneous"],
      default: "sequential",
      help: "Rule 31: sequential — each in turn plays or passes and discards; two_round — "
        + "everyone plays or passes, then the players in discard and draw; simultaneous — "
        + "sealed decisions revealed together." },
    { key: "trump_card", kind: "choice",
      choices: ["dealer_card", "separate", "separate_dealer_may_take"], default: "dealer_card",
      help: "Rule 32: dealer_card — the dealer's last card is turned for trump; separate — an "
        + "extra card that belongs to nobody; separate_dealer_may_take — the dealer who plays "
        + "may take it." },
    { key: "four_card", kind: "bool", default: false,
      help: "Rule 33: 4 cards each, a separate trump card, at most 3 discards, and a second "
        + "chance to pass after the draw." },
    { key: "max_discard", kind: "int", min: 0, max: 5, default: 5,
      help: "Rule 11: how many cards a player who plays may discard and replace (0–5)." },
    { key: "ace_forces_dealer", kind: "bool", default: true,
      help: "Rule 15: if the face-up trump card is an ace, the dealer must play." },
    { key: "cinch", kind: "choice", choices: ["equivalent", "strict", "off"], default: "equivalent",
      help: "Rules 19–22: a player who is sure to win must lead the highest trump; equivalent "
        + "accepts a trump equal in effect, strict only the highest, off disables cinch." },
    { key: "tie", kind: "choice", choices: ["carry", "split"], default: "carry",
      help: "Rule 34: tied for most tricks — carry the pot to the next hand, or split it." },
    { key: "reshuffle_pool", kind: "choice", choices: ["served_discards", "all_discards"],
      default: "served_discards",
      help: "Rule 14: when the stock runs out, reshuffle the discards of the players already "
        + "served, or all discards." },
    { key: "hands", kind: "optint", min: 1, max: 1000000, default: null,
      help: "Play this many hands, then the table ends; empty: until the table is closed." },
    { key: "target_chips", kind: "optint", min: 1, max: 1000000000, default: null,
      help: "The table ends after the hand that takes a player's net to this many chips; "
        + "empty: no target." },
    ...CLOCK,
    ...COMMON,
  ],
  burraco: [
    { key: "players", kind: "choice", choices: [4, 2], default: 4, required: true,
      help: "Four players in two partnerships, or two players head to head (rule 1)." },
    { key: "target", kind: "int", min: 1, max: 1000000, default: 2000,
      help: "Rule 27: the match goes to this many points." },
    { key: "bonuses", kind: "choice", choices: ["standard", "fitab"], default: "standard",
      help: "Rule 24: standard — clean burraco 200, dirty 100; fitab adds semi-clean 150 (only "
        + "wild at an end), royal 300 (clean A–K run of 13), super 250 (clean set of 8)." },
    { key: "close_requires", kind: "choice", choices: ["any_burraco", "clean_burraco"],
      default: "any_burraco", help: "Rule 18: the burraco a team needs before it may close." },
    { key: "set_ranks", kind: "choice", choices: ["any", "aces_and_threes"], default: "any",
      help: "Rule 8: sets of any rank, or only of aces and threes." },
    { key: "take_pile", kind: "choice", choices: ["free", "must_meld"], default: "free",
      help: "Rule 12: take the discard pile freely, or only if a card of it is melded this turn." },
    { key: "single_card_rediscard", kind: "bool", default: false,
      help: "Rule 13: whether a player who took a one-card pile may discard that same card." },
    { key: "stalemate_rounds", kind: "int", min: 1, max: 1000, default: 1,
      help: "Rule 21: full rounds of single-card pile takes, nobody drawing, that end the hand." },
    ...CLOCK,
    ...COMMON,
  ],
};

// The options object to post from a form's values: only keys that differ from the default
// (the server records every key with its default, rule spec "Options").
export function optionsFrom(game, read) {
  const out = {};
  for (const spec of OPTIONS[game]) {
    const value = read(spec);
    if (spec.required || value !== spec.default) out[spec.key] = value;
  }
  return out;
}
