"""Inference from play: the clues a seat's plays leave, read from the view alone, and the
sampler's use of them."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from spades.ai import hard as hard_module
from spades.ai.clues import HIGHEST, LOWEST, WINNER, Clue, clues_of
from spades.ai.hard import PLAY_TRUST, HardPlayer
from spades.ai.levels import make_player
from spades.ai.sampler import DealSampler
from spades.engine import (
    NIL,
    PRESETS,
    Bid,
    Look,
    Phase,
    PlayerView,
    Trick,
    apply,
    new_game,
    parse_card,
    player_view,
)

RULES = PRESETS["partnership"]


def _mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


def _view(hands: Sequence[str], tricks: Sequence[tuple[int, str]], bids: Sequence[Bid],
          trick: tuple[int, str] | None = None) -> PlayerView:
    """Seat 0's view: ``hands`` are what each seat holds now, ``tricks`` the finished tricks
    (leader, cards in play order; the engine's winner), ``trick`` the one on the table."""
    from spades.engine import trick_winner

    state = new_game(RULES, seed=0)
    every = [c for h in hands for c in h.split()] + [c for _, t in tricks for c in t.split()]
    if trick is not None:
        every += trick[1].split()
    assert len(every) == len(set(every)), "a card twice in the position"
    history = []
    played = 0
    for leader, cards in tricks:
        parsed = tuple(parse_card(c) for c in cards.split())
        winner = trick_winner(parsed, leader, RULES.players)
        history.append(Trick(leader, parsed, winner))
        played |= sum(1 << c for c in parsed)
    on_table: tuple[int, ...] = ()
    leader = history[-1].winner if history else 0
    if trick is not None:
        leader, cards = trick
        on_table = tuple(parse_card(c) for c in cards.split())
        played |= sum(1 << c for c in on_table)
    taken = [0] * RULES.players
    for tr in history:
        taken[tr.winner] += 1
    hand = state.hand._replace(
        phase=Phase.PLAY, hands=tuple(_mask(h) for h in hands), played=played,
        trick=on_table, leader=leader, turn=(leader + len(on_table)) % RULES.players,
        bids=tuple(bids), history=tuple(history), tricks=tuple(taken), broken=True)
    return player_view(state._replace(hand=hand), 0)


THREES = (Bid(3), Bid(3), Bid(3), Bid(3))
# what each seat holds after one trick of hearts (seat 0 led the king)
AFTER_HEARTS = (
    "AS KS 4S 2S AD KD QD 8H 6H 5H 2C 3C",   # seat 0, the viewer
    "QS JS 3S KC QC JC 9D 8D 7D 6D 5D 4D",   # seat 1
    "10S 9S 8S AC 10C 9C 8C 7C 6C 5C 4C 7H",  # seat 2
    "7S 6S 5S AH QH JH 10H 2H 3D 2D JD 10D",  # seat 3
)


def _of(clues: list[Clue], seat: int) -> dict[int, Clue]:
    return {c.habit: c for c in clues if c.seat == seat}


def test_a_loser_says_no_lower_card() -> None:
    """Seat 0 leads the king of hearts; seat 1 (short of its contract) follows with the 9:
    it holds no lower heart that is not equivalent to the 9. (Second to play, it may have
    held the ace back: that says nothing.)"""
    view = _view(AFTER_HEARTS, [(0, "KH 9H 3H 4H")], THREES)
    clues = clues_of(view)
    assert all(c.seat != 0 for c in clues), "the viewer's own plays are not read"
    one = _of(clues, 1)
    assert set(one) == {LOWEST}
    low = one[LOWEST]
    assert low.card == parse_card("9H")
    # the hearts under the 9 still out when it fell (the 3 and 4 came after it)
    assert low.unlikely == _mask("2H 3H 4H 5H 6H 7H 8H")
    # a 7 with the 8 still out (the viewer holds it) was a cheaper loser: at odds
    assert low.broken(_mask("7H QC"))
    # the 8 is equivalent to the 9 (nothing out between): not at odds
    assert not low.broken(_mask("8H QC"))
    assert not low.broken(_mask("QC JC"))
    assert not low.broken(_mask("AH QC"))


def test_last_to_play_behind_an_opponent_had_no_winner() -> None:
    """Seat 3 plays last behind seat 0's king and follows low: it held no higher heart."""
    view = _view(AFTER_HEARTS, [(0, "KH 9H 3H 4H")], THREES)
    three = _of(clues_of(view), 3)
    assert set(three) == {LOWEST, WINNER}
    assert three[WINNER].broken(_mask("AH 2D"))
    assert not three[WINNER].broken(_mask("QH 2D"))
    # its 4 and a 2 it might hold are equivalent: the 3 was played before the 4
    assert three[LOWEST].unlikely == _mask("2H")
    assert not three[LOWEST].broken(_mask("2H 5D"))


def test_a_partner_winning_says_only_lowest() -> None:
    """Seat 2's partner (seat 0) is winning: its 3 says nothing about winners."""
    view = _view(AFTER_HEARTS, [(0, "KH 9H 3H 4H")], THREES)
    assert set(_of(clues_of(view), 2)) == {LOWEST}


def test_the_last_seat_takes_a_trick_as_cheaply_as_it_can() -> None:
    """Seat 1 is last behind the viewer's 7 of clubs and takes it with the king: a cheaper
    club that beat the 7 and is not equivalent to the king is at odds."""
    hands = ("AS KS 4S 2S AD KD QD 8H 6H 5H AH 3C", "QS JS 3S QC JC 9D 8D 7D 6D 5D 4D 2H",
             "10S 9S 8S AC 10C 9C 8C 6C 4C 7H 3H 4H", "7S 6S 5S QH JH 10H KH 3D 2D JD 10D 9H")
    view = _view(hands, [(2, "5C 2C 7C KC")], THREES)
    one = _of(clues_of(view), 1)
    assert set(one) == {LOWEST}
    cheap = one[LOWEST]
    assert cheap.unlikely == _mask("8C 9C 10C JC QC")
    assert cheap.broken(_mask("9C 2H"))       # the 10 was out between them
    assert not cheap.broken(_mask("QC 2H"))   # the queen and king were equivalent
    assert not cheap.broken(_mask("QC JC"))


def test_a_nil_bidder_ducks_with_its_highest_loser_and_a_live_nil_mutes_the_rest() -> None:
    """Seat 1 bid nil and ducks a diamond with the 5 under the queen: it holds no higher
    diamond under the queen (but the 6, equivalent, is no odds). While its nil lives the
    others' plays say nothing plain."""
    hands = ("AS KS 4S 2S AD KD 2H 8H 6H 5H AH 3C", "QS JS 3S QC JC 7D 6D 4D 2D 9H 10H 3H",
             "10S 9S 8S AC 10C 9C 8C 6C 4C 7H KH 4H", "7S 6S 5S QH JH 8D 2C 3D 5C 9D 10D 7C")
    bids = (Bid(4), NIL, Bid(4), Bid(4))
    view = _view(hands, [(0, "QD 5D JD KC")], bids)
    clues = clues_of(view)
    assert {c.seat for c in clues} == {1}
    duck = _of(clues, 1)[HIGHEST]
    # the diamonds between the 5 and the queen still out when the 5 fell
    assert duck.unlikely == _mask("6D 7D 8D 9D 10D JD")
    assert duck.broken(_mask("9D 2H"))
    assert not duck.broken(_mask("6D 2H"))


def test_a_side_that_has_made_its_bid_leaves_no_clue() -> None:
    """Seats 1 and 3 bid one each and seat 1 took two tricks: they may duck high to save
    bags, so seat 3's 3 of clubs after that is not read (its 5 of hearts before it is)."""
    hands = ("AS KS 4S 2S AD KD QD 8H 9H 5C", "QS JS 3S KC QC JC 9D 8D 7D 6D",
             "10S 9S 8S 10C 9C 8C 7C 6C 10H JH", "7S 6S 5S QH JD 10D 5D 4D 3D 2D")
    bids = (Bid(5), Bid(1), Bid(5), Bid(1))
    tricks = [(0, "4H AH 3H 5H"), (1, "KH 2H 6H 7H"), (1, "2C AC 3C 4C")]
    view = _view(hands, tricks, bids)
    cards = {c.card for c in clues_of(view) if c.seat == 3}
    assert parse_card("5H") in cards
    assert parse_card("3C") not in cards


def test_a_seat_that_broke_a_habit_is_not_read() -> None:
    """Seat 1 lost with the 9 of hearts, then later played the 2: the 9 was no lowest
    loser, so none of its plays are read."""
    hands = ("AS KS 4S 2S AD KD QD 6H 5H 2C 3C", "QS JS 3S KC QC JC 9D 8D 7D 6D 5D",
             "10S 9S 8S AC 10C 9C 8C 7C 6C 5C 4C", "7S 6S 5S AH QH JH 10D 4D 3D 2D JD")
    view = _view(hands, [(0, "KH 9H 3H 4H"), (0, "8H 2H 7H 10H")], THREES)
    assert not [c for c in clues_of(view) if c.seat == 1]
    assert [c for c in clues_of(view) if c.seat == 2]


def test_the_sampler_deals_fewer_hands_at_odds_with_the_clues() -> None:
    """After seat 1's 9 loses to the king, deals where it holds a lower heart that was no
    equivalent loser come up much less often with trust, and weigh less."""
    view = _view(AFTER_HEARTS, [(0, "KH 9H 3H 4H")], THREES)
    low = _of(clues_of(view), 1)[LOWEST]
    plain = DealSampler(view)
    read = DealSampler(view, trust=0.9)
    assert not plain.clues and read.clues
    rng = random.Random(3)
    draws = 1500
    plain_odds = sum(low.broken(plain.sample(rng)[1]) for _ in range(draws)) / draws
    read_odds = sum(low.broken(read.sample(rng)[1]) for _ in range(draws)) / draws
    assert plain_odds > 0.2
    assert read_odds < plain_odds / 2
    deal = read.uniform(rng)
    while not low.broken(deal[1]):
        deal = read.uniform(rng)
    assert read.weight(deal) < plain.weight(deal)


def _broken_share(hands: list[int], clues: list[Clue]) -> float:
    return sum(c.broken(hands[c.seat]) for c in clues) / len(clues)


def test_the_real_hands_keep_the_habits_far_more_often_than_random_deals() -> None:
    """Hands played by Normal at every seat: the clues read from seat 0's view are broken
    by the true holdings much less often than by deals drawn without them."""
    true_broken: list[float] = []
    random_broken: list[float] = []
    for index in range(8):
        players = [make_player("normal") for _ in range(RULES.players)]
        rngs = [random.Random(f"{index}/{s}") for s in range(RULES.players)]
        state = new_game(RULES, seed=f"clues/{index}", first_dealer=index % 4)
        rng = random.Random(index)
        while not state.results:
            seat = state.hand.turn
            view = player_view(state, seat)
            if state.phase is Phase.PLAY and seat == 0 and view.history:
                clues = clues_of(view)
                if clues:
                    hands = list(state.hand.hands)
                    true_broken.append(_broken_share(hands, clues))
                    sampler = DealSampler(view, evidence=False)
                    random_broken.append(sum(
                        _broken_share(sampler.uniform(rng), clues) for _ in range(10)) / 10)
            action = Look(seat) if view.face_down else players[seat].choose(view, rngs[seat])
            state = apply(state, action)
    assert len(true_broken) > 30
    truth = sum(true_broken) / len(true_broken)
    chance = sum(random_broken) / len(random_broken)
    assert truth < chance / 2, (truth, chance)


def test_hard_reads_plays_with_its_trust(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's play sampler is made with its trust (PLAY_TRUST unless told)."""
    seen: list[float] = []
    real = hard_module.DealSampler

    def spy(view: PlayerView, **options: object) -> DealSampler:
        seen.append(float(options.get("trust", 0.0)))  # type: ignore[arg-type]
        return real(view, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(hard_module, "DealSampler", spy)
    view = _view(AFTER_HEARTS, [(0, "KH 9H 3H 4H")], THREES)
    for trust in (None, 0.0, 0.5):
        player = HardPlayer(iterations=20) if trust is None else HardPlayer(iterations=20,
                                                                          trust=trust)
        player.choose(view, random.Random(0))
    assert seen == [PLAY_TRUST, 0.0, 0.5]
    assert 0 < PLAY_TRUST < 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_clues_are_read_in_every_variant_and_the_sampler_still_fits_the_view(
        name: str) -> None:
    """Hands played by Normal in each preset: clues come only from the other seats, and
    deals sampled with them give each seat its cards' count, none played, none twice."""
    rules = PRESETS[name]
    read = 0
    for index in range(3):
        players = [make_player("normal") for _ in range(rules.players)]
        rngs = [random.Random(f"{name}/{index}/{s}") for s in range(rules.players)]
        state = new_game(rules, seed=f"variant/{index}")
        rng = random.Random(index)
        while not state.results:
            seat = state.hand.turn
            view = player_view(state, seat)
            if state.phase is Phase.PLAY and view.history:
                clues = clues_of(view)
                read += len(clues)
                assert all(c.seat != seat for c in clues)
                sampler = DealSampler(view, trust=0.9)
                for _ in range(5):
                    deal = sampler.sample(rng)
                    union = 0
                    for s in range(rules.players):
                        assert deal[s].bit_count() == view.hand_sizes[s]
                        assert not deal[s] & union
                        union |= deal[s]
                    assert not union & view.played
            action = Look(seat) if view.face_down else players[seat].choose(view, rngs[seat])
            state = apply(state, action)
    assert read > 0
