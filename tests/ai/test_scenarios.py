"""Hand-built positions where one move is right and the wrong one fails the test.

Each position is reached through the engine: a deck is built so that the deal is exactly the
hands written here (cards are dealt one at a time starting at the dealer's left), then the
bids and plays are applied. The computer player then sees only its ``player_view``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from spades.ai.easy import EasyPlayer
from spades.ai.hard import HardPlayer
from spades.ai.normal import NormalPlayer
from spades.engine import (
    Bid,
    GameState,
    Play,
    Rules,
    apply,
    find_preset,
    make_rules,
    new_game,
    parse_card,
    player_view,
)


def deal(rules: Rules, hands: dict[int, str], first_dealer: int | None = None) -> list[int]:
    """A deck that deals ``hands`` (seat -> card codes). A seat given fewer cards than a hand,
    or none, is topped up from the rest of the deck, in deck order, seat by seat."""
    n = rules.players
    size = rules.hand_size
    cards = {s: [parse_card(c) for c in hands.get(s, "").split()] for s in range(n)}
    used = [c for held in cards.values() for c in held]
    assert len(used) == len(set(used)), "a card is dealt twice"
    rest = [c for c in rules.deck if c not in set(used)]
    for seat in range(n):
        held = cards[seat]
        assert len(held) <= size, f"seat {seat} holds {len(held)} cards, more than {size}"
        missing = size - len(held)
        held += rest[:missing]
        rest = rest[missing:]
    dealer = n - 1 if first_dealer is None else first_dealer
    first = (dealer + 1) % n
    deck: list[int] = [0] * (size * n)
    for seat, held in cards.items():
        offset = (seat - first) % n
        for i, card in enumerate(held):
            deck[offset + i * n] = card
    return deck


def position(rules: Rules, hands: dict[int, str], bids: Sequence[int | str],
             plays: Sequence[str], *, first_dealer: int | None = None,
             scores: tuple[int, ...] | None = None) -> GameState:
    """Deal ``hands``, apply ``bids`` (in bidding order) and ``plays`` (card codes, in order),
    and optionally set the running scores."""
    deck = deal(rules, hands, first_dealer)
    state = new_game(rules, seed=0, decks=[deck], first_dealer=first_dealer)
    if scores is not None:
        state = state._replace(scores=scores)
    for bid in bids:
        state = apply(state, Bid(0, nil=True) if bid == "nil" else Bid(int(bid)))
    for code in plays:
        state = apply(state, Play(parse_card(code)))
    return state


def normal_card(state: GameState, seed: int = 0) -> str:
    view = player_view(state, state.hand.turn)
    action = NormalPlayer().choose(view, random.Random(seed))
    assert isinstance(action, Play)
    return str(action.card)


PARTNERSHIP = find_preset("partnership")

# ---------------------------------------------------------------- covering a partner's nil

NIL_HANDS = {
    0: "7H 5H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",  # the nil bidder
    1: "3H KH QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
    2: "AH 9H 2H AC KC QC AD KD 8S 9S TS JS QS",  # Normal, the partner
}


# Seat 0 deals. Every side bids 1 and makes it in the first tricks, so from then on Normal
# would rather lose tricks (bags cost): only its partner's nil makes it play high.
COVER_BIDS = [1, 1, 1, "nil"]  # seats 1, 2, 3, 0


def test_normal_covers_partner_nil_when_the_partner_is_winning() -> None:
    # seat 3 leads the four of hearts, the nil partner plays the seven, seat 1 the two:
    # if Normal plays low, the seven wins and the nil is broken
    hands = {
        0: "2D 3C 3D 7H",
        1: "4D 5C 6D 2H",
        2: "AD 2C 9D AH 8H 3H 4C 6C TD 6S 8S JS QS",
        3: "5D KC QD 4H",
    }
    plays = ["4D", "AD", "5D", "2D",  # Normal wins: its side's bid is made
             "2C", "KC", "3C", "5C",  # seat 3 wins
             "QD", "3D", "6D", "9D",  # seat 3 wins: the other side's bid is made
             "4H", "7H", "2H"]
    state = position(PARTNERSHIP, hands, COVER_BIDS, plays, first_dealer=0)
    assert state.hand.turn == 2 and state.hand.tricks == (0, 0, 1, 2)
    card = normal_card(state)
    assert card in ("8H", "AH"), f"Normal played {card} under its nil partner's seven"


def test_normal_plays_high_over_a_nil_partner_still_to_play() -> None:
    # seat 1 leads the five of hearts; Normal plays second and its nil partner last: a low
    # card from Normal may leave the partner forced to win
    hands = {
        0: "2D 3C 3D 7H",
        1: "4D KC QD 5H",
        2: "AD 2C 9D KH 8H 3H 4C 6C TD 6S 8S JS QS",
        3: "5D 5C 7D",
    }
    plays = ["4D", "AD", "5D", "2D",  # Normal wins: its side's bid is made
             "2C", "5C", "3C", "KC",  # seat 1 wins
             "QD", "9D", "7D", "3D",  # seat 1 wins: the other side's bid is made
             "5H"]
    state = position(PARTNERSHIP, hands, COVER_BIDS, plays, first_dealer=0)
    assert state.hand.turn == 2 and state.hand.tricks == (0, 2, 1, 0)
    card = normal_card(state)
    assert card == "KH", f"Normal played {card}: the nil partner may be forced to win"


# ---------------------------------------------------------------- a partner's sure winner

def test_normal_does_not_trump_a_partner_sure_winner() -> None:
    hands = {
        0: "AH 7H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",  # leads the ace of hearts
        1: "5H KH QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "2C 9C TC AC KC QC AD KD 8S 9S TS JS QS",  # Normal: no hearts, can trump
    }
    state = position(PARTNERSHIP, hands, [3, 3, 5, 2], ["AH", "5H"])
    card = normal_card(state)
    assert not card.endswith("S"), f"Normal trumped its partner's ace with {card}"


def test_normal_does_not_overtake_a_partner_king_it_knows_is_good() -> None:
    hands = {
        0: "KH 7H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",  # leads the king of hearts
        1: "5H 6H QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "AH 2H 3H AC KC QC AD KD 8S 9S TS JS QS",  # Normal holds the ace
    }
    state = position(PARTNERSHIP, hands, [3, 3, 5, 2], ["KH", "5H"])
    card = normal_card(state)
    assert card in ("2H", "3H"), f"Normal overtook its partner's good king with {card}"


# ---------------------------------------------------------------- bags

BAG_HANDS = {
    0: "AC 6C AD 5D 6D 7D 2H 7H 2S 3S 4S 5S 6S",
    1: "2C 7C 8C 9C TC 2D JD QD KD AH 3H 7S QS",
    2: "3C 4C KC 3D 8D 9D TD 4H 6H 8S 9S TS JS",  # Normal
}
BAG_PLAYS = ["AC", "2C", "4C", "5C",  # seat 0 wins: side 0 has 1
             "AD", "2D", "3D", "4D",  # seat 0 wins: side 0 has 2, its bid (1 + 1) is made
             "2H", "AH", "4H", "5H",  # seat 1 wins: side 1 has 1
             "3H", "6H", "KH", "7H",  # seat 3 wins: side 1 has 2, its bid (1 + 1) is made
             "QC", "6C", "7C"]        # seat 3 leads the queen of clubs; Normal plays last


def test_normal_ducks_when_its_bid_is_made_and_bags_cost() -> None:
    state = position(PARTNERSHIP, BAG_HANDS, [1, 1, 1, 1], BAG_PLAYS)
    assert state.hand.turn == 2
    card = normal_card(state)
    assert card == "3C", f"Normal took a bag with {card}"


def test_normal_takes_the_trick_when_bags_cost_nothing() -> None:
    rules = make_rules("partnership", bag_limit=None)
    state = position(rules, BAG_HANDS, [1, 1, 1, 1], BAG_PLAYS)
    card = normal_card(state)
    assert card == "KC", f"with no bag penalty Normal gave away a free point ({card})"


# ---------------------------------------------------------------- setting the opponents

SET_HANDS = {
    0: "AC 7C AD 9D 2H 7H 3S 4S 5S 6S 7S 8S 9S",
    1: "2C 5C 8C 9C TC JC KC 2D 7D 8D TD AH KH",
    2: "3C 6C QC 3D QD KD 3H 5H 8H TH AS KS QS",  # Normal
}
SET_PLAYS = ["AC", "2C", "3C", "4C",  # side 0: 1
             "AD", "2D", "3D", "4D",  # side 0: 2, its bid (1 + 1) made
             "2H", "AH", "3H", "4H",  # side 1: 1
             "KH", "5H", "6H", "7H",  # side 1: 2
             "5C", "6C", "2S", "7C",  # seat 3 trumps: side 1: 3 of its 4, spades broken
             "6D", "9D", "TD", "QD"]  # Normal wins and leads to the seventh trick


@pytest.mark.parametrize("seed", range(4))
def test_normal_goes_for_the_set_when_the_opponents_are_one_trick_from_the_game(seed: int) -> None:
    # the opponents bid 4, have 3, and making it takes them to 510 of 500: Normal must not
    # hand them a trick (a low lead would); it cashes its top spades.
    state = position(PARTNERSHIP, SET_HANDS, [1, 2, 1, 2], SET_PLAYS, scores=(300, 470))
    assert state.hand.turn == 2 and state.hand.tricks == (2, 2, 1, 1)
    card = normal_card(state, seed)
    assert card in ("AS", "KS", "QS"), f"Normal led {card} and let them make the game"


# ---------------------------------------------------------------- nils at the table

def test_normal_lets_an_opponent_nil_win_the_trick() -> None:
    # seat 2 deals: seat 3 leads the two of hearts, Normal's partner plays the four, seat 1
    # (nil) plays the nine and is winning; Normal plays last and must stay under it.
    hands = {
        3: "2H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 7C",
        0: "4H 6H 7H 2C 6C 8C 7D 8D 9D 5S 6S 7S 9C",
        1: "9H 5H TC JC QH JH TD JD QD KD 8S 9S TS",  # the nil bidder
    }
    state = position(PARTNERSHIP, hands, [4, 4, "nil", 4], ["2H", "4H", "9H"], first_dealer=2)
    assert state.hand.turn == 2
    card = normal_card(state)
    assert card in ("3H", "8H"), f"Normal saved the opponents' nil with {card}"


def test_normal_nil_bidder_ducks() -> None:
    # Normal (seat 2) bid nil; its partner leads the five of hearts, seat 1 plays the three
    hands = {
        0: "5H 7H 3C 4C 5C 2D 3D 4D 6D 5D 2S 3S 4S",
        1: "3H KH QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "AH 9H 2H AC KC QC AD KD 8S 9S TS JS QS",
    }
    state = position(PARTNERSHIP, hands, [4, 4, "nil", 4], ["5H", "3H"])
    assert normal_card(state) == "2H"


# ---------------------------------------------------------------- Easy, never absurd

@pytest.mark.parametrize("seed", range(40))
def test_easy_never_throws_an_ace_under_its_partner_winning_king(seed: int) -> None:
    hands = {
        0: "KH 7H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",
        1: "5H 6H QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "AH 2H 3H AC KC QC AD KD 8S 9S TS JS QS",  # Easy holds the ace of hearts
    }
    state = position(PARTNERSHIP, hands, [3, 3, 5, 2], ["KH", "5H"])
    view = player_view(state, 2)
    action = EasyPlayer().choose(view, random.Random(seed))
    assert isinstance(action, Play)
    assert str(action.card) != "AH"


@pytest.mark.parametrize("seed", range(40))
def test_easy_never_discards_an_ace_or_trumps_under_its_partner_winner(seed: int) -> None:
    hands = {
        0: "KH 7H 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",
        1: "5H 6H QH JH 6C 7C 8C 7D 8D 9D 5S 6S 7S",
        2: "2C 9C TC AC KC QC AD KD 8S 9S TS JS QS",  # Easy: no hearts
    }
    state = position(PARTNERSHIP, hands, [3, 3, 5, 2], ["KH", "5H"])
    view = player_view(state, 2)
    action = EasyPlayer().choose(view, random.Random(seed))
    assert isinstance(action, Play)
    card = str(action.card)
    assert not card.startswith("A") and not card.endswith("S"), card


@pytest.mark.parametrize("seed", range(4))
def test_normal_leads_the_suit_its_nil_partner_is_void_in(seed: int) -> None:
    # seat 0 deals: seat 1 leads the ace of clubs and the nil bidder (seat 0) shows a club
    # void; Normal (seat 2) wins the next trick and leads: clubs let the nil partner discard.
    hands = {
        1: "AC 5H 9C TC JC 6D 7D 8D 9D 2S 3S 4S 5S",
        2: "3C KC QC 7C AH 3H 4H 3D 5D 6S 7S 8S 9S",  # Normal
        3: "4C 6H 2C 5C 6C 8C TD JD QD TS JS QS KS",
    }
    plays = ["AC", "3C", "4C", "KD",   # seat 1 wins; the nil bidder is void in clubs
             "5H", "AH", "6H", "2H"]   # Normal wins with the ace and leads
    state = position(PARTNERSHIP, hands, [3, 4, 3, "nil"], plays, first_dealer=0)
    assert state.hand.turn == 2
    card = normal_card(state, seed)
    assert card.endswith("C"), f"Normal led {card}, not a club its nil partner can discard on"


@pytest.mark.parametrize("seed", range(4))
def test_normal_leads_low_into_an_opponent_nil(seed: int) -> None:
    # seat 1 bid nil; Normal leads the first trick (seat 1 deals) and keeps its aces back:
    # a low card is what a nil bidder can be forced to win
    hands = {
        2: "AD KD 2H 3H 9H 2C 8C 9C QC 4S 6S 8S TS",  # Normal
        1: "3D 5D 7D 4H 6H 8H 3C 5C 7C 2S 3S 5S 7S",  # the nil bidder
    }
    state = position(PARTNERSHIP, hands, [4, 4, 3, "nil"], [], first_dealer=1)
    assert state.hand.turn == 2 and player_view(state, 2).bids[1] == Bid(0, nil=True)
    card = normal_card(state, seed)
    assert card in ("2H", "3H", "2C"), f"Normal led {card} against the nil"


# ---------------------------------------------------------------- weaknesses of issue 13
# Each of these failed on the code before issue 13's mending (checked against main).

def _bid_of(player: NormalPlayer | HardPlayer, state: GameState, seed: int = 0) -> Bid:
    view = player_view(state, state.hand.turn)
    action = player.choose(view, random.Random(seed))
    assert isinstance(action, Bid)
    return action


@pytest.mark.parametrize("hand", [
    "KD 8D 6D 2C 3C 5C 2H 3H 4H 5H 2S 3S 7C",  # ♦K86
    "KD 8D 7D 4D 2C 3C 5C 2H 3H 4H 6H 2S 3S",  # ♦K874
])
@pytest.mark.parametrize("partner_bid", [None, 1, 2])
def test_normal_no_nil_with_a_guarded_king_and_no_partner_cover(
        hand: str, partner_bid: int | None) -> None:
    # seat 3 deals; Normal (seat 2) bids third, after its partner (seat 0), or first of its
    # side (seat 0 deals): a partner of 1 or 2, or none yet, cannot be counted on to cover
    # the king, which the nil bidder cannot shed: it falls under the ace or wins a trick.
    if partner_bid is None:
        state = position(PARTNERSHIP, {2: hand}, [3], [], first_dealer=0)
    else:
        state = position(PARTNERSHIP, {2: hand}, [partner_bid, 3], [])
    assert state.hand.turn == 2
    bid = _bid_of(NormalPlayer(), state)
    assert not bid.nil, f"Normal bid nil with {hand.split()[:3]} and no cover"


def test_normal_no_nil_that_would_break_the_bag_limit_when_well_ahead() -> None:
    # 428 to 205 with 8 bags, ♣QJT62 beside a partner's 5: a failed nil's tricks are bags
    # past the limit (-100 more) and the side wins without gambling
    state = position(PARTNERSHIP, {2: "QC JC TC 6C 2C 5D 3D 7H 4H 2H 4S 3S 2S"}, [5, 3], [],
                     scores=(428, 205))
    state = state._replace(bags=(8, 2))
    bid = _bid_of(NormalPlayer(), state)
    assert not bid.nil, "Normal gambled a nil 223 points ahead with 8 bags"


@pytest.mark.parametrize("seed", range(2))
def test_hard_no_nil_that_would_break_the_bag_limit_when_well_ahead(seed: int) -> None:
    state = position(PARTNERSHIP, {2: "QC JC TC 6C 2C 5D 3D 7H 4H 2H 4S 3S 2S"}, [5, 3], [],
                     scores=(428, 205))
    state = state._replace(bags=(8, 2))
    bid = _bid_of(HardPlayer(), state, seed)
    assert not bid.nil, "Hard gambled a nil 223 points ahead with 8 bags"


def test_normal_still_bids_that_nil_when_level_and_clean() -> None:
    # the same cards at 205-205 without bags: the veto above is narrow (a broad bag veto
    # lost games to the yardstick), so the nil stays Normal's choice here
    state = position(PARTNERSHIP, {2: "QC JC TC 6C 2C 5D 3D 7H 4H 2H 4S 3S 2S"}, [5, 3], [],
                     scores=(205, 205))
    assert _bid_of(NormalPlayer(), state).nil


LATE_SEAT_HAND = "KH JH 3H QD 9D 5D 2D AC 6C 4C KS 5S 3S"


@pytest.mark.parametrize("seed", range(4))
def test_hard_does_not_overbid_from_the_last_seat(seed: int) -> None:
    # bids of 2, 2 and 1 before it: an ace, two guarded kings and a queen are two or three
    # tricks, not five (the playouts must not hand Hard tricks real defence does not give)
    state = position(PARTNERSHIP, {3: LATE_SEAT_HAND}, [2, 2, 1], [])
    assert state.hand.turn == 3
    bid = _bid_of(HardPlayer(), state, seed)
    assert not bid.nil and 2 <= bid.tricks <= 3, f"Hard bid {bid.tricks} with {LATE_SEAT_HAND}"


SET_DEAL = {
    0: "2H 7H TH 4S 5S 6S 2D 3D 5C 6C 7C 8C 9C",
    1: "AH KH QH JH TS JS 4D 5D TC JC QC 3C 4C",
    2: "3H 5H 8H 2S 3S KS AS 7S AD KD QD JD 2C",  # Hard
    3: "4H 6H 9H 8S QS 9S KC AC TD 9D 8D 7D 6D",
}
SET_DEAL_PLAYS = ["2H", "AH", "3H", "4H", "KH", "5H", "6H", "7H", "QH", "8H", "9H", "TH",
                  "JH", "2S", "8S", "4S", "QS", "5S", "TS", "3S", "9S", "6S", "JS", "KS",
                  "AS", "KC", "2D", "4D", "7S", "AC", "3D", "5D"]


@pytest.mark.parametrize("seed", range(8))
def test_hard_cashes_its_winners_to_set_the_opponents(seed: int) -> None:
    # Hard's side bid 3 and has 3; the opponents bid 7, have 5 and need 2 of the last 5.
    # Every spade and heart is out: Hard's four diamonds are sure tricks and cashing them
    # sets the opponents (140 points of swing for 4 bags); leading the two of clubs gives
    # them the lead and their contract.
    state = position(PARTNERSHIP, SET_DEAL, [1, 4, 2, 3], SET_DEAL_PLAYS)
    assert state.hand.turn == 2 and state.hand.tricks == (0, 3, 3, 2)
    view = player_view(state, 2)
    action = HardPlayer().choose(view, random.Random(seed))
    assert isinstance(action, Play)
    assert str(action.card).endswith("D"), f"Hard led {action.card} and let them make it"
