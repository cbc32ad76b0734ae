"""Each preset's shape (issue 2's table), refused option combinations, and every rule option
doing what the rulebooks say, on hand-built decks."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from engine_testkit import cards, deck_for, draw_deck, forced_spade_lead

from spades.engine import (
    BLIND_NIL,
    DISCARD,
    KEEP,
    NIL,
    PRESETS,
    Action,
    Bid,
    Card,
    Exchange,
    GameState,
    IllegalActionError,
    Look,
    PassCards,
    Phase,
    Play,
    RecordError,
    Rules,
    RulesError,
    apply,
    cards_in,
    find_preset,
    legal_actions,
    load_record,
    make_rules,
    new_game,
    parse_card,
    player_view,
    record_of,
    trick_winner,
)

# ---------------------------------------------------------------------------- helpers


def start(rules: Rules, hands: dict[int, str], dealer: int | None = None,
          kitty: str | None = None) -> GameState:
    deck = deck_for(rules, {s: cards(h) for s, h in hands.items()}, dealer,
                    parse_card(kitty) if kitty else None)
    return new_game(rules, decks=[deck], first_dealer=dealer)


def bid(state: GameState, *bids: int | str) -> GameState:
    """Bids in turn order: a number, "nil" or "blind"."""
    for b in bids:
        action = NIL if b == "nil" else BLIND_NIL if b == "blind" else Bid(int(b))
        state = apply(state, action)
    return state


def play(state: GameState, text: str) -> GameState:
    """Plays in turn order, each checked to be the seat's legal play."""
    for code in text.split():
        action = Play(parse_card(code))
        assert action in legal_actions(state), f"{code} should be legal"
        state = apply(state, action)
    return state


def plays(state: GameState) -> set[str]:
    return {str(a.card) for a in legal_actions(state) if isinstance(a, Play)}


def held(state: GameState, seat: int) -> set[str]:
    return {str(c) for c in cards_in(state.hand.hands[seat])}


def bid_range(state: GameState) -> list[int | str]:
    return [b.code for b in legal_actions(state) if isinstance(b, Bid)]


def to_first_bid(state: GameState) -> GameState:
    """Through the two-player draw (always keep) or the kitty (no exchange)."""
    while state.hand.phase in (Phase.DRAW, Phase.KITTY):
        state = apply(state, KEEP if state.hand.phase is Phase.DRAW else Exchange(False))
    return state


def suit_cards(suit: str, ranks: str = "23456789TJQKA") -> str:
    return " ".join(r + suit for r in ranks)


# ---------------------------------------------------------------------------- the presets

ALL_52 = {str(c) for c in PRESETS["partnership"].deck}
PAIRS = ((0, 2), (1, 3))

TABLE: dict[str, dict[str, object]] = {
    "partnership": dict(players=4, sides=PAIRS, cards=ALL_52, hand=13,
                        bids=["nil", *range(1, 14)]),
    "two-player": dict(players=2, sides=((0,), (1,)), cards=ALL_52, hand=13,
                       bids=["nil", *range(1, 14)]),
    "cutthroat": dict(players=4, sides=((0,), (1,), (2,), (3,)), cards=ALL_52, hand=13,
                      bids=list(range(1, 14))),
    "three-player": dict(players=3, sides=((0,), (1,), (2,)), cards=ALL_52 | {"LJ", "BJ"},
                         hand=18, bids=list(range(1, 19))),
    "three-player-kitty": dict(players=3, sides=((0,), (1,), (2,)), cards=ALL_52, hand=17,
                               bids=list(range(1, 18))),
    "five-player": dict(players=5, sides=((0,), (1,), (2,), (3,), (4,)),
                        cards=(ALL_52 - {"2C", "2D", "2H", "2S"}) | {"LJ", "BJ"}, hand=10,
                        bids=list(range(1, 11))),
    "jokers": dict(players=4, sides=PAIRS, cards=(ALL_52 - {"2C", "2D"}) | {"LJ", "BJ"},
                   hand=13, bids=["nil", *range(1, 14)]),
    "suicide": dict(players=4, sides=PAIRS, cards=ALL_52, hand=13,
                    bids=["nil", *range(4, 14)]),
    "short": dict(players=4, sides=PAIRS, cards=ALL_52, hand=13, bids=["nil", *range(1, 14)]),
    "online": dict(players=4, sides=PAIRS, cards=ALL_52, hand=13, bids=["nil", *range(1, 14)]),
    "house": dict(players=4, sides=PAIRS, cards=ALL_52, hand=13, bids=["nil", *range(1, 14)]),
}

OPTIONS: dict[str, dict[str, object]] = {
    "partnership": dict(target_score=500, losing_score=None, nil=True, nil_value=100,
                        blind_nil=False, failed_nil="penalty-bags", spades_break="offsuit",
                        set_scoring="minus", bag_limit=10, bag_penalty=100,
                        bag_takeback=False, boston=False, first_lead="left-of-dealer"),
    "two-player": dict(draw=True, blind_nil=True, blind_nil_value=200, blind_nil_deficit=None,
                       failed_nil="bags", moon_value=250, spades_break="void",
                       target_score=500),
    "cutthroat": dict(partnership=False, nil=False, set_scoring="zero", target_score=500),
    "three-player": dict(jokers=True, nil=False, set_scoring="zero"),
    "three-player-kitty": dict(kitty=True, jokers=False, nil=False, set_scoring="zero"),
    "five-player": dict(jokers=True, nil=False, set_scoring="zero"),
    "jokers": dict(jokers=True, partnership=True, nil=True),
    "suicide": dict(suicide=True, suicide_min=4, nil=True),
    "short": dict(target_score=200, losing_score=-200),
    "online": dict(spades_break="any-spade", failed_nil="penalty-void", bag_takeback=True,
                   boston=True, target_score=500),
    "house": dict(spades_break="any-spade", target_score=500, nil=True, blind_nil=False,
                  blind_nil_value=200, blind_nil_deficit=100, blind_nil_pass=2, bag_limit=10,
                  losing_score=None, jokers=False),
}


def test_the_table_covers_every_preset() -> None:
    assert set(TABLE) == set(PRESETS) == set(OPTIONS)


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_shape(name: str) -> None:
    rules = find_preset(name)
    want = TABLE[name]
    assert rules.players == want["players"]
    assert rules.sides == want["sides"]
    assert {str(c) for c in rules.deck} == want["cards"]
    assert len(rules.deck) == len(set(rules.deck))
    assert rules.hand_size == want["hand"]
    for option, value in OPTIONS[name].items():
        assert getattr(rules, option) == value, option
    state = new_game(rules, seed=7)
    if not rules.draw:
        assert [h.bit_count() for h in state.hand.hands] == [rules.hand_size] * rules.players
    state = to_first_bid(state)
    assert [h.bit_count() for h in state.hand.hands] == [rules.hand_size] * rules.players
    assert state.hand.turn == 0, "the first dealer is the last seat: seat 0 bids first"
    assert bid_range(state) == want["bids"]


def test_find_preset_is_forgiving_and_clear() -> None:
    assert find_preset("Three Player_Kitty") is PRESETS["three-player-kitty"]
    with pytest.raises(RulesError, match="presets: partnership"):
        find_preset("bridge")


@pytest.mark.parametrize(("preset", "options", "names"), [
    ("partnership", dict(players=3), ["partnership", "players"]),
    ("partnership", dict(players=6, partnership=False), ["players"]),
    ("two-player", dict(draw=False), ["draw", "players"]),
    ("cutthroat", dict(draw=True), ["draw", "players"]),
    ("three-player-kitty", dict(jokers=True), ["kitty", "jokers"]),
    ("cutthroat", dict(kitty=True), ["kitty", "players"]),
    ("partnership", dict(nil=False, blind_nil=True), ["blind_nil", "nil"]),
    ("partnership", dict(min_bid=0), ["min_bid", "nil"]),
    ("partnership", dict(min_bid=14), ["min_bid"]),
    ("cutthroat", dict(blind_nil=True, nil=True, blind_nil_pass=2),
     ["blind_nil_pass", "partnership"]),
    ("partnership", dict(blind_nil_pass=-1), ["blind_nil_pass"]),
    ("partnership", dict(blind_nil_deficit=-5), ["blind_nil_deficit"]),
    ("partnership", dict(losing_score=600), ["losing_score", "target_score"]),
    ("partnership", dict(losing_score=100, target_score=200), ["losing_score"]),
    ("partnership", dict(target_score=0), ["target_score"]),
    ("partnership", dict(target_score="500"), ["target_score"]),
    ("partnership", dict(nil="yes"), ["nil"]),
    ("partnership", dict(bag_limit=0), ["bag_limit"]),
    ("partnership", dict(bag_limit=None, bag_takeback=True), ["bag_takeback", "bag_limit"]),
    ("cutthroat", dict(suicide=True), ["suicide", "partnership", "nil"]),
    ("partnership", dict(nil=False, suicide=True), ["suicide", "nil"]),
    ("suicide", dict(suicide_min=0), ["suicide_min"]),
    ("suicide", dict(suicide_min=14), ["suicide_min"]),
    ("partnership", dict(moon_value=250), ["moon_value", "partnership"]),
    ("partnership", dict(spades_break="sometimes"), ["spades_break", "offsuit"]),
    ("partnership", dict(failed_nil="ouch"), ["failed_nil", "penalty-bags"]),
    ("partnership", dict(set_scoring="double"), ["set_scoring", "minus"]),
    ("partnership", dict(first_lead="dealer"), ["first_lead", "lowest-club"]),
    ("partnership", dict(trumps="hearts"), ["unknown", "trumps"]),
])
def test_invalid_options_are_refused_by_name(preset: str, options: dict[str, object],
                                             names: list[str]) -> None:
    with pytest.raises(RulesError) as refused:
        make_rules(preset, **options)
    for name in names:
        assert name in str(refused.value), (name, str(refused.value))


def test_house_rules_are_replace_of_a_preset() -> None:
    rules = make_rules("house", target_score=300, nil=False, jokers=True, losing_score=-200)
    assert rules == dataclasses.replace(PRESETS["house"], target_score=300, nil=False,
                                        jokers=True, losing_score=-200)
    state = new_game(rules, seed=1)
    assert bid_range(state) == list(range(1, 14)), "nil off: bids 1-13 (004)"
    assert "2C" not in {str(c) for c in rules.deck} and "BJ" in {str(c) for c in rules.deck}


# ---------------------------------------------------------------------------- the deal


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left() -> None:
    rules = PRESETS["partnership"]
    deck = list(rules.deck)
    state = new_game(rules, decks=[deck])
    assert state.hand.dealer == 3
    for seat in range(4):
        assert cards_in(state.hand.hands[seat]) == sorted(deck[seat::4])
    state = new_game(rules, decks=[deck], first_dealer=1)
    assert cards_in(state.hand.hands[2]) == sorted(deck[0::4])
    assert cards_in(state.hand.hands[1]) == sorted(deck[3::4])
    assert state.hand.turn == 2, "the dealer's left bids first"


@pytest.mark.parametrize("name", ["three-player", "three-player-kitty", "five-player"])
def test_deal_of_the_odd_tables(name: str) -> None:
    rules = PRESETS[name]
    deck = list(reversed(rules.deck))
    state = new_game(rules, decks=[deck])
    n = rules.players
    for seat in range(n):
        assert cards_in(state.hand.hands[seat]) == sorted(deck[seat:n * rules.hand_size:n])
    if rules.kitty:
        assert state.hand.kitty == deck[-1]


def test_the_deal_bidding_and_lead_move_left_each_hand() -> None:
    rules = PRESETS["cutthroat"]
    state = new_game(rules, seed=3)
    rng = random.Random(3)
    for number in range(5):
        assert state.hand.number == number
        assert state.hand.dealer == (3 + number) % 4
        assert state.hand.turn == (4 + number) % 4, "bidding starts at the dealer's left"
        for _ in range(4):
            state = apply(state, rng.choice(legal_actions(state)))
        assert state.hand.phase is Phase.PLAY
        assert state.hand.turn == (4 + number) % 4, "the dealer's left leads"
        while len(state.results) == number:
            state = apply(state, rng.choice(legal_actions(state)))


def test_a_deck_that_is_not_the_variants_is_refused() -> None:
    rules = PRESETS["partnership"]
    deck = list(rules.deck)
    with pytest.raises(ValueError, match="twice: AS"):
        new_game(rules, decks=[[*deck[1:], parse_card("AS")]])
    with pytest.raises(ValueError, match="not in this variant's deck: BJ"):
        new_game(rules, decks=[[*deck[1:], parse_card("BJ")]])


# ---------------------------------------------------------------------------- play


def test_follow_suit_if_you_can_else_anything() -> None:
    state = start(PRESETS["partnership"], {
        0: suit_cards("H", "23456789") + " 2C 3C 4C 5C 6C",
        1: "AH KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        2: suit_cards("D"),
    })
    state = bid(state, 3, 3, 3, 3)
    state = play(state, "2H")
    assert plays(state) == {"AH", "KH"}
    with pytest.raises(IllegalActionError, match="you must follow hearts"):
        apply(state, Play(parse_card("2S")))
    state = play(state, "KH")
    assert plays(state) == held(state, 2), "void in hearts: any card"


def test_no_spade_lead_until_broken_unless_only_spades() -> None:
    state = start(PRESETS["partnership"], {0: "AS KS 2H", 1: suit_cards("S", "23456789TJ")})
    state = bid(state, 3, 3, 3, 3)
    assert "AS" not in plays(state) and "2H" in plays(state)
    with pytest.raises(IllegalActionError, match="spades are not broken yet"):
        apply(state, Play(parse_card("AS")))
    # a leader holding nothing but spades may lead one, on the first trick too
    only_spades = start(PRESETS["partnership"], {0: suit_cards("S")})
    only_spades = bid(only_spades, 13, 1, 1, 1)
    assert plays(only_spades) == held(only_spades, 0)


def _break_deck() -> dict[int, str]:
    """Seat 0 leads hearts; seats 1 and 2 are void in hearts; seat 3 holds the AH, spades and
    diamonds, so that it wins trick 1 and then leads."""
    return {
        0: suit_cards("H", "23456789TJQK") + " AS",
        1: suit_cards("C"),
        2: suit_cards("S", "89TJQK") + " " + suit_cards("D", "2345678"),
        3: "AH " + suit_cards("S", "234567") + " " + suit_cards("D", "9TJQKA"),
    }


@pytest.mark.parametrize(("spades_break", "broken"), [
    ("offsuit", False), ("any-spade", False), ("void", True)])
def test_a_discard_breaks_spades_only_under_void(spades_break: str, broken: bool) -> None:
    """000: spades break when a player cannot follow suit; 001/003/004 need a spade."""
    state = start(make_rules("partnership", spades_break=spades_break), _break_deck())
    state = bid(state, 3, 3, 3, 3)
    state = play(state, "2H 2C 2D AH")
    assert state.hand.turn == 3
    assert state.hand.broken is broken
    assert ("2S" in plays(state)) is broken


@pytest.mark.parametrize("spades_break", ["offsuit", "any-spade", "void"])
def test_a_spade_on_another_suits_lead_breaks_spades(spades_break: str) -> None:
    state = start(make_rules("partnership", spades_break=spades_break), _break_deck())
    state = bid(state, 3, 3, 3, 3)
    state = play(state, "2H 2C 8S AH")
    assert state.hand.turn == 2, "the only spade wins the trick"
    assert state.hand.broken
    assert {"9S", "TS", "JS", "QS", "KS"} <= plays(state)


def _after_forced_spade_lead(spades_break: str) -> GameState:
    state = forced_spade_lead(spades_break)
    history = state.hand.history
    assert [t.winner for t in history] == [0, 0, 0, 2]
    assert history[3].cards == tuple(cards("2S 5H AS JH"))
    assert held(state, 2) == {"QS", "KS", *suit_cards("C", "56789TJ").split()}
    return state


@pytest.mark.parametrize("spades_break", ["any-spade", "void"])
def test_a_spade_led_from_an_all_spade_hand_breaks_spades(spades_break: str) -> None:
    """003/004: spades are broken once any spade has been played; 000: once a player holds
    only spades."""
    state = _after_forced_spade_lead(spades_break)
    assert {"KS", "QS"} <= plays(state)


def test_offsuit_a_spade_led_from_an_all_spade_hand_does_not_break_spades() -> None:
    """001: "You can't lead a spade until spades are broken. That happens the first time
    someone plays a spade on another suit's lead. If you have nothing but spades, you may lead
    one anyway." Here no spade was played on another suit's lead."""
    state = _after_forced_spade_lead("offsuit")
    assert plays(state) == set(suit_cards("C", "56789TJ").split())
    assert not state.hand.broken


def test_highest_spade_wins_else_highest_of_the_suit_led() -> None:
    assert trick_winner(cards("2H AH KS QD"), 0, 4) == 2
    assert trick_winner(cards("2H AH 3H QD"), 1, 4) == 2
    assert trick_winner(cards("2H 2S 3S AH"), 3, 4) == 1
    assert trick_winner(cards("KD AC QD"), 2, 3) == 2


# ---------------------------------------------------------------------------- first lead


def test_lowest_club_leads_it_to_the_first_trick() -> None:
    rules = make_rules("partnership", first_lead="lowest-club")
    state = start(rules, {2: "2C 3C AS KS", 3: "4C " + suit_cards("H", "23456789TJQK")})
    state = bid(state, 3, 3, 3, 3)
    assert state.hand.phase is Phase.PLAY and state.hand.turn == 2
    assert plays(state) == {"2C"}
    with pytest.raises(IllegalActionError, match="the first lead must be the two of clubs"):
        apply(state, Play(parse_card("3C")))
    state = play(state, "2C")
    assert plays(state) == {"4C"}, "then follow suit as usual"


def test_lowest_club_without_the_two_of_clubs() -> None:
    rules = make_rules("jokers", first_lead="lowest-club")
    state = start(rules, {1: "3C 4C BJ"})
    state = bid(state, 3, 3, 3, 3)
    assert state.hand.turn == 1 and plays(state) == {"3C"}


def test_left_of_dealer_leads_by_default() -> None:
    state = start(PRESETS["partnership"], {2: "2C 3C AS KS"})
    state = bid(state, 3, 3, 3, 3)
    assert state.hand.turn == 0 and len(plays(state)) > 1


# ---------------------------------------------------------------------------- bidding


def test_suicide_one_partner_nil_the_other_four_or_more() -> None:
    state = new_game(PRESETS["suicide"], seed=5)
    assert bid_range(state) == ["nil", *range(4, 14)], "seat 0 chooses which"
    with pytest.raises(IllegalActionError, match="suicide"):
        apply(state, Bid(3))
    state = apply(state, NIL)                       # seat 0 nil
    assert bid_range(state) == ["nil", *range(4, 14)], "seat 1 is first of its pair"
    state = apply(state, Bid(5))                    # seat 1 five
    assert bid_range(state) == list(range(4, 14)), "seat 2: partner bid nil"
    with pytest.raises(IllegalActionError, match="your partner bid nil, so you must bid 4"):
        apply(state, NIL)
    state = apply(state, Bid(4))
    assert bid_range(state) == ["nil"], "seat 3: partner did not bid nil"
    with pytest.raises(IllegalActionError, match="partner did not bid nil, so you must bid nil"):
        apply(state, Bid(4))
    state = apply(state, NIL)
    assert state.hand.phase is Phase.PLAY


def test_suicide_with_blind_nil_deals_face_up_after_a_partners_nil() -> None:
    """A seat whose partner bid nil must bid 4 or more: blind nil is not among its bids, so
    its cards are face up (no look to ask for, nothing to bid without seeing); a seat whose
    partner bid a number may still bid blind nil, so its cards stay face down."""
    rules = make_rules("suicide", blind_nil=True, blind_nil_deficit=None)
    state = new_game(rules, seed=5)
    assert all(player_view(state, seat).face_down for seat in range(4))
    state = apply(apply(state, Look(0)), NIL)       # seat 0 nil
    state = apply(apply(state, Look(1)), Bid(5))    # seat 1 five
    assert not player_view(state, 2).face_down, "seat 2: partner bid nil"
    assert player_view(state, 2).hand, "and it sees its cards"
    assert Look(2) not in legal_actions(state) and BLIND_NIL not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="already face up"):
        apply(state, Look(2))
    with pytest.raises(IllegalActionError, match="partner bid nil, so you must bid 4"):
        apply(state, BLIND_NIL)
    assert player_view(state, 3).face_down, "seat 3: partner bid five, blind nil is open"
    state = apply(state, Bid(4))
    assert BLIND_NIL in legal_actions(state) and Look(3) in legal_actions(state)


def test_an_older_saves_look_after_a_partners_nil_still_replays() -> None:
    """Saves made while such a seat was dealt face down hold its look: replaying it changes
    nothing, and the game loads as it was played."""
    rules = make_rules("suicide", blind_nil=True, blind_nil_deficit=None)
    state = new_game(rules, seed=5)
    record = record_of(state, ["A", "B", "C", "D"])
    record["hands"][0]["actions"] = [
        {"seat": 0, "look": True}, {"seat": 0, "bid": "nil"},
        {"seat": 1, "look": True}, {"seat": 1, "bid": 5},
        {"seat": 2, "look": True}, {"seat": 2, "bid": 4},
        {"seat": 3, "look": True}, {"seat": 3, "bid": "nil"}]
    loaded = load_record(record)
    assert loaded.hand.phase is Phase.PLAY
    assert [b.label for b in loaded.hand.bids if b is not None] == ["nil", "5", "4", "nil"]
    record["hands"][0]["actions"].insert(6, {"seat": 2, "look": True})  # after its bid
    with pytest.raises(RecordError, match="already face up"):
        load_record(record)


def test_no_nil_bids_each_for_yourself() -> None:
    state = new_game(PRESETS["cutthroat"], seed=1)
    with pytest.raises(IllegalActionError, match="nil is not played"):
        apply(state, NIL)
    with pytest.raises(IllegalActionError):
        apply(state, Bid(14))


def test_blind_nil_only_when_behind_by_the_deficit() -> None:
    rules = make_rules("house", blind_nil=True)
    state = new_game(rules, seed=2)
    assert BLIND_NIL not in legal_actions(state), "0-0: nobody is behind"
    with pytest.raises(IllegalActionError, match="behind by 100 points or more"):
        apply(state, BLIND_NIL)
    assert BLIND_NIL in legal_actions(state._replace(scores=(-100, 0)))
    assert BLIND_NIL in legal_actions(state._replace(scores=(0, 100)))
    assert BLIND_NIL not in legal_actions(state._replace(scores=(-99, 0)))
    assert BLIND_NIL not in legal_actions(state._replace(scores=(100, 0))), "ahead"
    anytime = make_rules("partnership", blind_nil=True)
    assert BLIND_NIL in legal_actions(new_game(anytime, seed=2)), "deficit null: any time"


def test_blind_nil_after_a_real_deficit_then_the_two_card_pass() -> None:
    """004: offered only when the side is behind by 100 or more; then the blind-nil bidder
    passes two cards to the partner and gets two back."""
    rules = make_rules("house", blind_nil=True)
    state = new_game(rules, seed=11)
    state = bid(state, 13, 1, 13, 1)           # side 0 bids 26: set, -260
    rng = random.Random(0)
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.scores[0] == -260 and state.scores[1] > 0
    assert state.hand.dealer == 0 and state.hand.turn == 1
    assert BLIND_NIL not in legal_actions(state), "side 1 is ahead"
    state = bid(state, 3)
    assert BLIND_NIL in legal_actions(state), "seat 2's side is behind"
    state = bid(state, "blind", 3, 4)
    assert state.hand.phase is Phase.PASS and state.hand.turn == 2, "the blind bidder first"
    options = [a for a in legal_actions(state) if isinstance(a, PassCards)]
    assert len(options) == 13 * 12 // 2
    give = tuple(cards_in(state.hand.hands[2])[-2:])
    before0, before2 = state.hand.hands[0], state.hand.hands[2]
    with pytest.raises(IllegalActionError, match="pass exactly 2"):
        apply(state, PassCards(give[:1]))
    state = apply(state, PassCards(give))
    assert state.hand.turn == 0 and state.hand.phase is Phase.PASS
    assert {str(c) for c in give} <= held(state, 0)
    back = tuple(c for c in cards_in(before0)[:2])
    state = apply(state, PassCards(back))
    assert state.hand.hands[2] == (before2 & ~sum(1 << c for c in give)) | sum(
        1 << c for c in back)
    assert state.hand.phase is Phase.PLAY and state.hand.turn == 1, "dealer's left leads"
    seen_by = {seat: player_view(state, seat).passes for seat in range(4)}
    assert seen_by[1] == () and seen_by[3] == (), "the opponents do not see the passes"
    assert len(seen_by[0]) == len(seen_by[2]) == 2


# ---------------------------------------------------------------------------- two players


def test_the_draw_keep_or_discard() -> None:
    rules = PRESETS["two-player"]
    deck = list(rules.deck)
    state = new_game(rules, decks=[deck])
    assert state.hand.turn == 0, "the non-dealer draws first"
    assert player_view(state, 0).drawn is None, "face down until the seat looks"
    state = apply(state, Look(0))
    assert player_view(state, 0).drawn == deck[0]
    assert player_view(state, 1).drawn is None
    state = apply(state, KEEP)                    # seat 0 keeps deck[0], deck[1] face up
    assert cards_in(state.hand.hands[0]) == [deck[0]]
    assert state.hand.discards == (deck[1],)
    assert player_view(state, 1).drawn is None, "face down until the seat looks"
    state = apply(state, Look(1))
    assert player_view(state, 1).drawn == deck[2]
    state = apply(state, DISCARD)                 # seat 1 shows deck[2], keeps deck[3]
    assert cards_in(state.hand.hands[1]) == [deck[3]]
    assert state.hand.discards == (deck[1], deck[2])
    assert player_view(state, 0).discards == player_view(state, 1).discards
    for _ in range(24):
        state = apply(state, KEEP)
    assert state.hand.phase is Phase.BID and state.hand.turn == 0
    assert [h.bit_count() for h in state.hand.hands] == [13, 13]
    assert len(state.hand.discards) == 26


def test_two_player_blind_nil_before_the_first_draw_then_no_bid() -> None:
    rules = PRESETS["two-player"]
    state = new_game(rules, seed=4)
    assert BLIND_NIL in legal_actions(state)
    assert NIL not in legal_actions(state) and Bid(3) not in legal_actions(state)
    state = apply(state, BLIND_NIL)
    assert state.hand.turn == 0 and state.hand.phase is Phase.DRAW
    assert legal_actions(state) == [KEEP, DISCARD]
    state = apply(state, KEEP)
    assert BLIND_NIL in legal_actions(state), "seat 1 has not drawn yet"
    state = apply(state, KEEP)
    assert BLIND_NIL not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="you have already bid"):
        apply(state, BLIND_NIL)
    state = apply(state, KEEP)
    assert state.hand.turn == 1 and BLIND_NIL not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="before your first draw"):
        apply(state, BLIND_NIL)
    while state.hand.phase is Phase.DRAW:
        state = apply(state, DISCARD)
    assert state.hand.phase is Phase.BID and state.hand.turn == 1, "seat 0 skips the bidding"
    assert BLIND_NIL not in legal_actions(state)
    state = apply(state, Bid(6))
    assert state.hand.phase is Phase.PLAY and state.hand.turn == 0, "the non-dealer leads"
    assert state.hand.bids == (BLIND_NIL, Bid(6))


def test_two_player_deal_alternates() -> None:
    state = new_game(PRESETS["two-player"], seed=9)
    rng = random.Random(9)
    while not state.results:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.hand.dealer == 0 and state.hand.turn == 1


def test_two_player_spades_break_when_a_player_cannot_follow() -> None:
    rules = PRESETS["two-player"]
    deck = draw_deck(rules, {0: cards(suit_cards("H", "23456789TJ") + " 2S 3S 4S"),
                             1: cards(suit_cards("D") )})
    state = new_game(rules, decks=[deck])
    state = to_first_bid(state)
    state = bid(state, 3, 3)
    state = play(state, "2H 2D")                 # seat 1 cannot follow: spades are broken
    assert state.hand.broken and state.hand.turn == 0
    assert {"2S", "3S", "4S"} <= plays(state)


# ---------------------------------------------------------------------------- the kitty


def test_kitty_exchange_unseen() -> None:
    rules = PRESETS["three-player-kitty"]
    state = start(rules, {1: "2C 3C"}, kitty="AS")
    assert state.hand.phase is Phase.KITTY and state.hand.turn == 1
    assert legal_actions(state) == [Exchange(True), Exchange(False)]
    for seat in range(3):
        view = player_view(state, seat)
        assert parse_card("AS") not in view.hand and view.kitty_holder == 1
    with pytest.raises(IllegalActionError):
        apply(state, Bid(3))
    taken = apply(state, Exchange(True))
    assert "AS" in held(taken, 1) and "2C" not in held(taken, 1)
    assert taken.hand.kitty == parse_card("2C")
    assert taken.hand.phase is Phase.BID and taken.hand.turn == 0
    assert player_view(taken, 0).kitty_taken is True
    assert parse_card("AS") not in player_view(taken, 0).hand
    kept = apply(state, Exchange(False))
    assert "2C" in held(kept, 1) and kept.hand.kitty == parse_card("AS")
    assert kept.hand.phase is Phase.BID


def test_no_kitty_choice_when_the_kitty_is_the_two_of_clubs() -> None:
    state = start(PRESETS["three-player-kitty"], {}, kitty="2C")
    assert state.hand.phase is Phase.BID and state.hand.turn == 0
    assert not any(isinstance(a, Exchange) for a in legal_actions(state))
    with pytest.raises(IllegalActionError, match="exchange"):
        apply(state, Exchange(True))


# ---------------------------------------------------------------------------- jokers


def test_jokers_are_the_two_top_spades() -> None:
    code = parse_card
    assert trick_winner(cards("AS LJ KS BJ"), 0, 4) == 3
    assert trick_winner(cards("AS LJ KS QS"), 0, 4) == 1
    assert trick_winner(cards("2H AH LJ 3S"), 0, 4) == 2
    assert Card(code("BJ")).suit == Card(code("LJ")).suit == Card(code("AS")).suit


def test_jokers_follow_and_lead_as_spades() -> None:
    rules = PRESETS["jokers"]
    state = start(rules, {
        0: "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS LJ",
        1: "BJ " + suit_cards("H", "23456789TJQK"),
        2: "2S AH " + suit_cards("C", "3456789TJQK"),
    })
    state = bid(state, 10, 1, 1, 1)
    state = play(state, "3S")
    assert plays(state) == {"BJ"}, "a joker is the only spade: it must follow"
    state = play(state, "BJ")
    assert plays(state) == {"2S"}
    state = play(state, "2S")
    state = apply(state, legal_actions(state)[0])
    assert state.hand.turn == 1, "the Big Joker wins"
    # a joker may not be led before spades are broken (when other suits are held)
    fresh = start(rules, {0: "LJ BJ 2H " + suit_cards("S", "3456789TJQ")})
    fresh = bid(fresh, 3, 3, 3, 3)
    assert plays(fresh) == {"2H"}


def test_five_players_without_the_twos() -> None:
    rules = PRESETS["five-player"]
    deck = {str(c) for c in rules.deck}
    assert not {"2C", "2D", "2H", "2S"} & deck and {"LJ", "BJ"} <= deck
    state = new_game(rules, seed=1)
    assert [h.bit_count() for h in state.hand.hands] == [10] * 5
    assert not any(c.rank == 2 for h in state.hand.hands for c in cards_in(h))


# ---------------------------------------------------------------------------- refusals


def test_actions_out_of_their_phase_are_refused_with_reasons() -> None:
    state = new_game(PRESETS["partnership"], seed=1)
    first = cards_in(state.hand.hands[0])[0]
    cases: Sequence[tuple[Action, str]] = [
        (Play(first), "you cannot play a card now: it is time to bid"),
        (KEEP, "you cannot draw now"),
        (Exchange(True), "you cannot exchange with the kitty now"),
        (PassCards((first,)), "you cannot pass cards now"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            apply(state, action)
    state = bid(state, 3, 3, 3, 3)
    with pytest.raises(IllegalActionError, match="you cannot bid now"):
        apply(state, Bid(3))
    other = cards_in(state.hand.hands[1])[0]
    with pytest.raises(IllegalActionError, match="you do not hold the"):
        apply(state, Play(other))
