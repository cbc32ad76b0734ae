"""The Normal player: every kind of decision, and a quick strength check against Easy.

The real strength measurement is the arena's (and ``bench/normal_vs_easy.py``); this test
only guards against a gross regression, with a wide margin, on fixed seeds.
"""

from __future__ import annotations

import random
import statistics

from test_scenarios import position

from spades.ai.base import Player
from spades.ai.easy import EasyPlayer
from spades.ai.normal import NormalPlayer
from spades.engine import (
    BLIND_NIL,
    DISCARD,
    KEEP,
    Bid,
    Exchange,
    Look,
    PassCards,
    Phase,
    PlayerView,
    Rules,
    apply,
    find_preset,
    make_rules,
    new_game,
    parse_card,
    player_view,
)


def _hand_points(rules: Rules, seed: int, normal_side: int) -> int:
    """One hand from 0-0: Normal's side's points minus Easy's (a bag counted at -10)."""
    players: list[Player] = [NormalPlayer() if rules.side_of[s] == normal_side else EasyPlayer()
                             for s in range(rules.players)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(rules.players)]
    state = new_game(rules, seed=seed)
    while not state.results:
        seat = state.hand.turn
        state = apply(state, players[seat].choose(player_view(state, seat), rngs[seat]))
    score = state.results[0].score
    points = [score.points[i] - 10 * score.bags[i] for i in range(2)]
    return points[normal_side] - points[1 - normal_side]


def test_normal_beats_easy_on_duplicate_hands() -> None:
    rules = find_preset("partnership")
    deals = [_hand_points(rules, seed, 0) + _hand_points(rules, seed, 1) for seed in range(160)]
    mean = statistics.mean(deals)
    error = statistics.stdev(deals) / len(deals) ** 0.5
    # measured about +45 points per deal; fail only on a clear regression
    assert mean - 2 * error > 10, f"Normal - Easy: {mean:+.1f} +- {error:.1f} per deal"


def _two_player_view(first: str, look: bool = True) -> PlayerView:
    """Seat 0's first draw in a two-player game, ``first`` the card shown (once seat 0 has
    looked: before, its cards and the card it draws are face down, blind nil open)."""
    rules = find_preset("two-player")
    top = parse_card(first)
    deck = [top] + [c for c in rules.deck if c != top]
    state = new_game(rules, seed=0, decks=[deck])
    assert state.hand.phase is Phase.DRAW and state.hand.turn == 0
    if look:
        state = apply(state, Look(0))
    return player_view(state, 0)


def test_draw_keeps_a_high_spade_and_throws_back_a_low_club() -> None:
    assert NormalPlayer().choose(_two_player_view("AS"), random.Random(0)) == KEEP
    view = _two_player_view("2C")
    assert NormalPlayer().choose(view, random.Random(0)) == DISCARD
    view = _two_player_view("2C", look=False)
    assert BLIND_NIL in view.legal
    for seed in range(5):  # blind nil is offered before the first draw; never taken by default
        assert NormalPlayer().choose(view, random.Random(seed)) != BLIND_NIL


def test_kitty_exchange_gives_up_the_two_of_clubs() -> None:
    rules = find_preset("three-player-kitty")
    for seed in range(20):
        state = new_game(rules, seed=seed)
        if state.hand.phase is Phase.KITTY:
            view = player_view(state, state.hand.turn)
            assert NormalPlayer().choose(view, random.Random(0)) == Exchange(True)
            return
    raise AssertionError("no kitty exchange in 20 deals")


def test_kitty_exchange_keeps_the_two_of_clubs_for_a_nil() -> None:
    rules = make_rules("three-player-kitty", nil=True)
    low = "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 2S 3S"
    mine = [parse_card(c) for c in low.split()]
    rest = [c for c in rules.deck if c not in set(mine)]
    kitty = rest.pop()  # a card other than the two of clubs: the exchange is offered
    deck = []
    for i in range(17 * 3):
        deck.append(mine[i // 3] if i % 3 == 0 else rest.pop())
    deck.append(kitty)
    state = new_game(rules, seed=0, decks=[deck])
    assert state.hand.phase is Phase.KITTY and state.hand.turn == 0
    view = player_view(state, 0)
    assert NormalPlayer().choose(view, random.Random(0)) == Exchange(False)


BLIND_PASS = make_rules("partnership", blind_nil=True, blind_nil_deficit=None, blind_nil_pass=2)


def test_blind_nil_pass_high_cards_over_and_low_cards_back() -> None:
    hands = {
        0: "AS KS 4S 2H 7H 9H 3C 8C TC 4D 6D JD AH",  # bids blind nil
        1: "QS JS 3S 3H 5H 8H 2C 5C 9C 2D 5D 8D KD",
        2: "2S 5S 6S 4H 6H JH 4C 6C QC 3D 7D TD QD",  # its partner
    }
    state = position(BLIND_PASS, hands, [], [])
    state = apply(state, Bid(0, nil=True, blind=True))
    for _ in range(3):
        state = apply(state, Bid(3))
    assert state.hand.phase is Phase.PASS and state.hand.turn == 0
    given = NormalPlayer().choose(player_view(state, 0), random.Random(0))
    assert isinstance(given, PassCards)
    assert {str(c) for c in given.cards} == {"AS", "KS"}
    state = apply(state, given)
    assert state.hand.turn == 2
    back = NormalPlayer().choose(player_view(state, 2), random.Random(0))
    assert isinstance(back, PassCards)
    assert {str(c) for c in back.cards} == {"3D", "4C"}, back


# ---------------------------------------------------------------- what the seat knows

def test_knowledge_reads_voids_masters_and_contracts() -> None:
    from spades.ai.knowledge import Knowledge

    hands = {
        0: "AC 7C AD 9D 2H 7H 3S 4S 5S 6S 7S 8S 9S",
        1: "2C 5C 8C 9C TC JC KC 2D 7D 8D TD AH KH",
        2: "3C 6C QC 3D QD KD 3H 5H 8H TH AS KS QS",
    }
    plays = ["AC", "2C", "3C", "4C", "AD", "2D", "3D", "4D", "2H", "AH", "3H", "4H",
             "KH", "5H", "6H", "7H", "5C", "6C", "2S", "7C"]  # seat 3 trumps a club
    state = position(find_preset("partnership"), hands, [1, 2, 1, 2], plays)
    knowledge = Knowledge(player_view(state, 2))
    clubs = 0
    # seat 3 showed a club void; seat 1 did not
    assert knowledge.voids[3] >> clubs & 1 and knowledge.prob_void(3, clubs) == 1.0
    assert not knowledge.voids[1] >> clubs & 1 and knowledge.prob_void(1, clubs) < 1.0
    jack = 1 << parse_card("JC")
    assert knowledge.prob_any(3, jack) == 0.0
    assert 0.0 < knowledge.prob_any(1, jack) <= 1.0
    assert knowledge.out & (1 << parse_card("JS")) and not knowledge.out & (1 << parse_card("AS"))
    # masters: no card still out is higher in the suit
    assert not knowledge.higher_out(parse_card("AS")) and not knowledge.higher_out(parse_card("KD"))
    assert knowledge.higher_out(parse_card("QC"))  # the king of clubs is still out
    mine, theirs = knowledge.sides  # seat 2 plays for side 0
    assert (mine.contract, mine.taken, mine.need) == (2, 2, 0)
    assert (theirs.contract, theirs.taken, theirs.need) == (4, 3, 1)
    # every hidden card is somewhere: the expected counts add up to the hands' sizes
    for seat in (0, 1, 3):
        held = sum(knowledge.prob_any(seat, 1 << c) for c in range(54) if knowledge.out >> c & 1)
        assert abs(held - knowledge.view.hand_sizes[seat]) < 0.05


def test_knowledge_knows_the_two_player_hand_and_the_passed_cards() -> None:
    from spades.ai.knowledge import Knowledge

    rules = find_preset("two-player")
    state = new_game(rules, seed=3)
    rng = random.Random(0)
    while state.hand.phase is not Phase.BID:
        state = apply(state, NormalPlayer().choose(player_view(state, state.hand.turn), rng))
    knowledge = Knowledge(player_view(state, state.hand.turn))
    other = 1 - state.hand.turn
    assert knowledge.known[other] == state.hand.hands[other]
    # the blind-nil pass: the giver knows where its cards went
    hands = {0: "AS KS 4S 2H 7H 9H 3C 8C TC 4D 6D JD AH"}
    state = position(BLIND_PASS, hands, [], [])
    state = apply(state, Bid(0, nil=True, blind=True))
    for _ in range(3):
        state = apply(state, Bid(3))
    given = NormalPlayer().choose(player_view(state, 0), random.Random(0))
    state = apply(state, given)
    assert isinstance(given, PassCards)
    knowledge = Knowledge(player_view(state, 0))
    assert all(knowledge.prob_any(2, 1 << c) == 1.0 for c in given.cards)
    assert knowledge.is_live_nil(0) and not knowledge.is_live_nil(2)
    partner = Knowledge(player_view(state, 2))
    assert partner.is_live_nil(0) and not partner.is_live_nil(2)
    # bags cost at this table (a bag is worth less than a point), and not with no bag limit
    assert knowledge.bag_value(knowledge.sides[0]) < 1.0
    free = Knowledge(player_view(state._replace(rules=BLIND_PASS.with_options(bag_limit=None)),
                                 2))
    assert free.bag_value(free.sides[0]) == 1.0
