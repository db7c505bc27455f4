"""The read models' JSON shapes (projections/ledger.py, lobby.py, analytics.py): Bourré's and
Burraco's own, and the one any other game gets from the table kernel's ``seating`` alone.

Tables are built through the game contract (``decision`` on ``OpenTable`` and ``TakeSeat``,
bots playing the first legal command); hand results are the games' own events."""

from __future__ import annotations

from typing import Any, cast

from domain.bourre.events import CardPlayed, HandSettled
from domain.burraco.events import HandClosed, HandScored, MatchWon, Melded, PozzettoTaken, TeamScore
from domain.game import Game
from domain.games import game_named
from domain.house import House
from domain.table import OpenTable, PlayerSeated, TableEnded, TableOpened, TakeSeat
from projections.analytics import counters_of, tag_of
from projections.ledger import Ledger
from projections.lobby import Lobby

BOURRE = game_named("bourre")
BURRACO = game_named("burraco")


def seated(game: Game, options: dict[str, Any], names: dict[int, str]) -> Any:
    """``game``'s table opened with ``options`` and ``names`` seated (seat -> name)."""
    _, state = game.decision(None, OpenTable(game=game.name, options=options, seed=7))
    for seat, name in names.items():
        _, state = game.decision(state, TakeSeat(name=name, token_hash=f"h{seat}", seat=seat))
    return state


def first_settlement(game: Game, state: Any) -> tuple[Any, Any]:
    """Bots play the first legal command of the first seat to act until a hand settles;
    returns the state then and the settling event."""
    for _ in range(1_000):
        seat = min(game.to_act(state))
        events, state = game.decision(state, game.legal_commands(state, seat)[0])
        settled = [event for event in events if game.settles_hand(event)]
        if settled:
            return state, settled[0]
    raise AssertionError("no hand settled")


class Parlour:
    """Bourré under another name: a game that shows nothing of its own (the kernel's
    ``House``; its tables are Bourré tables, played by Bourré's rules)."""

    name = "parlour"
    house = House()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(BOURRE, attribute)


PARLOUR = cast(Game, Parlour())


# -- the lobby ------------------------------------------------------------------------------
def test_a_bourre_lobby_line_shows_the_open_seats_and_the_pot() -> None:
    waiting = seated(BOURRE, {"seats": 3}, {0: "ann"})
    assert Lobby.shape(BOURRE, waiting) == {
        "game": "bourre", "seats": 3, "names": ["ann", None, None], "openSeats": [1, 2],
        "status": "waiting", "hand": 0, "pot": 0,
    }  # fmt: skip
    playing = seated(BOURRE, {"seats": 2}, {0: "ann", 1: "bob"})
    assert Lobby.shape(BOURRE, playing) == {
        "game": "bourre", "seats": 2, "names": ["ann", "bob"], "openSeats": [],
        "status": "playing", "hand": 1, "pot": 2,  # each seat anted 1 (rule 5)
    }  # fmt: skip


def test_a_burraco_lobby_line_shows_the_match_so_far() -> None:
    waiting = seated(BURRACO, {"players": 4}, {0: "ann", 2: "cy"})
    status = BURRACO.view(waiting, None)["status"]  # the line says what the table's view says
    assert Lobby.shape(BURRACO, waiting) == {
        "game": "burraco", "seats": 4, "names": ["ann", None, "cy", None],
        "status": status, "hand": 0, "totals": [0, 0], "target": 2000,
    }  # fmt: skip
    playing = seated(BURRACO, {"players": 2, "target": 1500}, {0: "ann", 1: "bob"})
    line = Lobby.shape(BURRACO, playing)
    assert (line["status"], line["hand"], line["target"]) == ("playing", 1, 1500)


def test_any_other_game_gets_the_kernels_seats_names_status_and_hand() -> None:
    state = seated(BOURRE, {"seats": 3}, {1: "bob"})
    assert Lobby.shape(PARLOUR, state) == {
        "game": "parlour", "seats": 3, "names": [None, "bob", None], "openSeats": [0, 2],
        "status": "waiting", "hand": 0,
    }  # fmt: skip


# -- the ledger -----------------------------------------------------------------------------
def test_a_bourre_ledger_records_each_settled_hand_and_conserves_chips() -> None:
    assert Ledger.shape(BOURRE, None) == {"pot": 0, "players": [], "hands": []}
    state, settled = first_settlement(
        BOURRE, seated(BOURRE, {"seats": 3}, {0: "a", 1: "b", 2: "c"})
    )
    ledger = Ledger.shape(BOURRE, state)
    assert ledger["hands"] == [
        {
            "hand": 1,
            "pot": settled.pot,
            "winner": settled.winner,
            "bourre": settled.bourre,
            "tied": settled.tied,
        }
    ]
    assert [(p["seat"], p["name"]) for p in ledger["players"]] == [(0, "a"), (1, "b"), (2, "c")]
    # Rule 28: the nets and the pot sum to zero.
    assert sum(player["net"] for player in ledger["players"]) + ledger["pot"] == 0


def test_a_burraco_ledger_is_the_score_sheet_with_each_hands_breakdown() -> None:
    assert Ledger.shape(BURRACO, None) == {"teams": [], "hands": [], "winner": None}
    table = seated(BURRACO, {"players": 4}, {0: "a", 1: "b", 2: "c", 3: "d"})
    assert Ledger.shape(BURRACO, table) == {
        "teams": [{"team": "A", "total": 0}, {"team": "B", "total": 0}],
        "hands": [],
        "winner": None,
    }
    score = TeamScore(melds=95, in_hand=-5, burracos=200, closing=100, pozzetto=0, total=390)
    other = TeamScore(melds=0, in_hand=-60, burracos=0, closing=0, pozzetto=-100, total=-160)
    scored = HandScored(hand=1, scores=[score, other], totals=[390, -160], deck=[], salt="")
    ledger = Ledger.shape(BURRACO, BURRACO.evolve(table, scored))
    assert ledger["teams"] == [{"team": "A", "total": 390}, {"team": "B", "total": -160}]
    assert ledger["hands"] == [
        {
            "hand": 1,
            "scores": [390, -160],
            "breakdown": [
                {"team": "A", "melds": 95, "inHand": -5, "burracos": 200, "closing": 100,
                 "pozzetto": 0, "total": 390},
                {"team": "B", "melds": 0, "inHand": -60, "burracos": 0, "closing": 0,
                 "pozzetto": -100, "total": -160},
            ],
        }
    ]  # fmt: skip
    assert ledger["winner"] is None


def test_any_other_games_ledger_says_who_sits_where() -> None:
    state = seated(BOURRE, {"seats": 2}, {0: "ann", 1: "bob"})
    assert Ledger.shape(PARLOUR, state) == {
        "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
        "status": "playing",
        "hand": 1,
    }


# -- the counters ---------------------------------------------------------------------------
def test_every_event_counts_and_tables_count_as_they_open_and_end() -> None:
    opened = TableOpened(game="bourre", options={}, seed=1)
    assert counters_of(BOURRE, opened) == {"events": 1, "tables_opened": 1}
    assert counters_of(BOURRE, TableEnded(reason="closed")) == {"events": 1, "tables_ended": 1}
    # Burraco counts its tables too, beside the common counter.
    assert counters_of(BURRACO, opened) == {"events": 1, "tables_opened": 1, "tables": 1}


def test_bourre_counts_settlements_bourres_split_pots_and_cards() -> None:
    settled = HandSettled(
        hand=3, pot=9, cap=9, winner=None, payouts=[0, 0, 0], tricks=[2, 2, 1], bourre=[2],
        bourre_payment=9, tied=[0, 1], carried=9, solo=False, deck=[], salt="",
    )  # fmt: skip
    assert counters_of(BOURRE, settled) == {
        "events": 1, "hands": 1, "pot_chips": 9, "bourres": 1, "split_pots": 1, "solo_wins": 0,
    }  # fmt: skip
    assert counters_of(BOURRE, CardPlayed(hand=1, seat=0, card="AS")) == {
        "events": 1,
        "cards_played": 1,
    }
    seated_event = PlayerSeated(seat=0, name="ann", token_hash="h")
    assert counters_of(BOURRE, seated_event) == {"events": 1, "players_seated": 1}


def test_burraco_counts_melds_pozzetti_hand_endings_burracos_and_matches() -> None:
    def counted(event: Any) -> dict[str, int]:
        counts = counters_of(BURRACO, event)
        assert counts.pop("events") == 1
        return counts

    direct = PozzettoTaken(hand=1, seat=1, team=1, pozzetto=0, cards=[], direct=True)
    assert counted(direct) == {"pozzetti": 1, "pozzetti_direct": 1}
    assert counted(HandClosed(hand=1, reason="closed", seat=1, team=1)) == {"closings": 1}
    assert counted(HandClosed(hand=1, reason="stock")) == {"stock_exhausted": 1}
    assert counted(HandClosed(hand=1, reason="stalemate")) == {"stalemates": 1}
    assert counted(
        Melded(hand=1, seat=0, team=0, meld=1, kind="set", cards=["7S", "7H", "7C"])
    ) == {"melds": 1}
    score = TeamScore(melds=0, in_hand=0, burracos=300, closing=0, pozzetto=0, total=300,
                      clean_burracos=1, dirty_burracos=1)  # fmt: skip
    scored = HandScored(hand=1, scores=[score, score], totals=[0, 0], deck=[], salt="")
    assert counted(scored) == {"hands": 1, "burracos_clean": 2, "burracos_dirty": 2}
    assert counted(MatchWon(hand=3, team=1, totals=[0, 2000])) == {"matches": 1}
    assert counted(PlayerSeated(seat=0, name="ann", token_hash="h")) == {}


def test_any_other_game_counts_seated_players_and_settled_hands() -> None:
    _, settled = first_settlement(BOURRE, seated(BOURRE, {"seats": 2}, {0: "a", 1: "b"}))
    assert counters_of(PARLOUR, settled) == {"events": 1, "hands": 1}
    seated_event = PlayerSeated(seat=0, name="ann", token_hash="h")
    assert counters_of(PARLOUR, seated_event) == {"events": 1, "players_seated": 1}
    assert counters_of(PARLOUR, CardPlayed(hand=1, seat=0, card="AS")) == {"events": 1}


def test_events_are_told_apart_by_their_stored_type_name() -> None:
    assert tag_of(TableEnded(reason="closed")) == "TableEnded"
    assert tag_of(HandScored(hand=1, scores=[], totals=[0, 0], deck=[], salt="")) == "HandScored"
