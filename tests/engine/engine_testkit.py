"""Helpers for the engine tests and the golden-record generator.

Everything here is written from the rulebooks (``../shared/seeds/``) and issue 2, not from
``spades.engine.scoring``: the scorer below is the tests' own arithmetic, so a test that
compares it with the engine can fail when the engine is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from spades.engine import (
    DISCARD,
    KEEP,
    NIL,
    Action,
    Bid,
    Card,
    Exchange,
    GameState,
    Look,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    apply,
    legal_actions,
    make_rules,
    new_game,
    parse_card,
    player_view,
)

# ---------------------------------------------------------------------------- cards


def cards(text: str) -> list[Card]:
    """``"AS KS 2C"`` -> the cards."""
    return [parse_card(code) for code in text.split()]


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (the jokers are spades)."""
    return 3 if card >= 52 else card // 13


def spade_rank(card: int) -> int:
    """Order within the spade suit: 2S..AS, then the Little Joker, then the Big Joker."""
    return card - 39


def rulebook_trick_winner(trick: Sequence[int], leader: int, players: int) -> int:
    """001: "The highest spade wins the trick. If no spade was played, the highest card of the
    suit led wins." Jokers: Big Joker > Little Joker > ace of spades."""
    spades = [(spade_rank(c), i) for i, c in enumerate(trick) if suit_of(c) == 3]
    if spades:
        best = max(spades)[1]
    else:
        led = suit_of(trick[0])
        best = max((c % 13, i) for i, c in enumerate(trick) if suit_of(c) == led)[1]
    return (leader + best) % players


def deck_for(rules: Rules, hands: dict[int, Sequence[Card]], dealer: int | None = None,
             kitty: Card | None = None) -> list[Card]:
    """A deck (top first) that deals ``hands[seat]`` to each seat; seats not given share the
    rest of the variant's cards, in deck order. Cards go one at a time from the top, starting
    at the dealer's left (the first dealer is the last seat unless ``dealer`` says otherwise).
    ``kitty`` is the last card for the three-player kitty game."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    used = {c for cs in hands.values() for c in cs}
    if kitty is not None:
        used.add(kitty)
    assert len(used) == sum(len(cs) for cs in hands.values()) + (kitty is not None)
    rest = [c for c in rules.deck if c not in used]
    full: dict[int, list[Card]] = {}
    for seat in range(n):
        given = list(hands.get(seat, ()))
        while len(given) < rules.hand_size:
            given.append(rest.pop(0))
        assert len(given) == rules.hand_size, f"seat {seat} holds {len(given)} cards"
        full[seat] = given
    deck: list[Card] = []
    for index in range(rules.hand_size * n):
        seat = (dealer + 1 + index) % n
        deck.append(full[seat][index // n])
    if rules.kitty:
        deck.append(kitty if kitty is not None else rest.pop(0))
    assert not rest and sorted(deck) == sorted(rules.deck)
    return deck


def draw_deck(rules: Rules, keep: dict[int, Sequence[Card]], dealer: int = 1) -> list[Card]:
    """Two-player: a deck where every draw is "keep" and each seat keeps ``keep[seat]`` (13
    cards each, the non-dealer first); the cards in between go face up to the discards."""
    first = (dealer + 1) % 2
    used = {c for cs in keep.values() for c in cs}
    others = [c for c in rules.deck if c not in used]
    deck: list[Card] = []
    for turn in range(26):
        seat = (first + turn) % 2
        deck.append(keep[seat][turn // 2])
        deck.append(others.pop(0))
    assert sorted(deck) == sorted(rules.deck)
    return deck


def forced_spade_lead(spades_break: str) -> GameState:
    """Partnership, a hand-built deal: seat 0 wins three heart tricks, then holds only spades
    and leads the 2S; seat 2 wins it with the AS and holds spades and clubs. No spade has
    been played on another suit's lead. The state is seat 2's lead."""
    def suit(letter: str, ranks: str) -> str:
        return " ".join(r + letter for r in ranks)

    rules = make_rules("partnership", spades_break=spades_break)
    hands = {
        0: "AH KH QH " + suit("S", "23456789TJ"),
        1: suit("H", "234567") + " " + suit("D", "2345678"),
        2: "QS KS AS " + suit("C", "23456789TJ"),
        3: suit("H", "89TJ") + " " + suit("D", "9TJQKA") + " QC KC AC",
    }
    state = new_game(rules, decks=[deck_for(rules, {s: cards(h) for s, h in hands.items()})])
    for _ in range(4):
        state = apply(state, Bid(3))
    for card in cards("AH 2H 2C 8H KH 3H 3C 9H QH 4H 4C TH 2S 5H AS JH"):
        state = apply(state, Play(card))
    assert state.hand.turn == 2
    return state


# ---------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class SideResult:
    points: int
    bags: int


def rulebook_side_points(rules: Rules, seats: Sequence[int], bids: Sequence[Bid],
                         tricks: Sequence[int], bags_before: int) -> SideResult:
    """One side's points for a hand and its bag count after it, from the rulebooks:

    - a contract (the side's non-nil bids added up) made scores 10 a trick bid and 1 a bag
      (001); missed, minus 10 a trick bid (001) or nothing ("zero", 001's each for yourself);
    - nil: +value when no trick is taken; when it fails, "penalty-bags" loses the value and
      its tricks are bags (001), "bags" loses nothing and its tricks are bags (000),
      "penalty-void" loses the value and its tricks count for nothing (003); a nil bidder's
      tricks never help the partner's bid;
    - the moon (000): one player bidding every trick scores moon_value when it takes them
      all, else its tricks are bags;
    - each time the bags reach bag_limit: minus bag_penalty, and with bag_takeback minus the
      point each of those bags scored (003: 8 + 7 bags net -95).
    """
    points = 0
    new_bags = 0
    contract = 0
    taken = 0
    contractors = 0
    for seat in seats:
        bid, won = bids[seat], tricks[seat]
        if bid.nil:
            value = rules.blind_nil_value if bid.blind else rules.nil_value
            if won == 0:
                points += value
            elif rules.failed_nil == "penalty-bags":
                points += -value + won
                new_bags += won
            elif rules.failed_nil == "bags":
                points += won
                new_bags += won
            elif rules.failed_nil == "penalty-void":
                points -= value
            else:  # pragma: no cover - a new option the tests do not know
                raise AssertionError(rules.failed_nil)
            continue
        contractors += 1
        contract += bid.tricks
        taken += won
    moon = (rules.moon_value is not None and len(seats) == 1 and contractors == 1
            and contract == rules.hand_size)
    if moon and taken == contract:
        points += rules.moon_value or 0
    elif moon:
        points += taken
        new_bags += taken
    elif contractors and taken >= contract:
        points += 10 * contract + (taken - contract)
        new_bags += taken - contract
    elif contractors:
        points += -10 * contract if rules.set_scoring == "minus" else 0
    bags = bags_before + new_bags
    if rules.bag_limit is not None:
        penalties = bags // rules.bag_limit
        bags -= penalties * rules.bag_limit
        points -= penalties * rules.bag_penalty
        if rules.bag_takeback:
            points -= penalties * rules.bag_limit
    return SideResult(points, bags)


def rulebook_hand(rules: Rules, bids: Sequence[Bid], tricks: Sequence[int],
                  bags_before: Sequence[int]) -> list[SideResult]:
    return [rulebook_side_points(rules, side, bids, tricks, bags_before[i])
            for i, side in enumerate(rules.sides)]


def rulebook_game_end(rules: Rules, scores: Sequence[int],
                      tricks: Sequence[int]) -> tuple[bool, int | None]:
    """(over, winning side) after a hand: Boston (003) wins at once; else the game ends when a
    side reaches the target or (mercy) falls to the losing score, the higher score winning;
    a tie for the top plays another hand (004)."""
    if rules.boston:
        for index, side in enumerate(rules.sides):
            if sum(tricks[s] for s in side) == rules.hand_size:
                return True, index
    ended = any(s >= rules.target_score for s in scores) or (
        rules.losing_score is not None and any(s <= rules.losing_score for s in scores))
    if not ended:
        return False, None
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    return (True, leaders[0]) if len(leaders) == 1 else (False, None)


# ---------------------------------------------------------------------------- players

Chooser = Callable[[GameState, random.Random], Action]


def random_chooser(state: GameState, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def _beats(card: int, best: int, led_suit: int) -> bool:
    if suit_of(card) == 3:
        return suit_of(best) != 3 or card > best
    return suit_of(card) == led_suit and suit_of(best) != 3 and card > best


def _rank(card: int) -> int:
    return spade_rank(card) + 20 if suit_of(card) == 3 else card % 13


def estimate_tricks(hand: Iterable[int], hand_size: int) -> float:
    """A rough count of winners: side-suit aces and guarded kings, high and long spades."""
    held = list(hand)
    by_suit: dict[int, list[int]] = {s: [] for s in range(4)}
    for card in held:
        by_suit[suit_of(card)].append(_rank(card))
    estimate = 0.0
    for suit in range(3):
        ranks = by_suit[suit]
        estimate += 12 in ranks
        estimate += 0.8 * (11 in ranks and len(ranks) >= 2)
        estimate += 0.3 * (10 in ranks and len(ranks) >= 3)
    spades = by_suit[3]
    estimate += sum(1 for r in spades if r >= 30)  # Q, K, A of spades and the jokers
    estimate += max(0, len(spades) - 3)
    return estimate * hand_size / 13


@dataclass
class SensiblePlayer:
    """A simple honest player for whole games: bids its estimate, tries to make its side's
    bid, ducks when the bid is safe or when it bid nil. It sees only its ``PlayerView``."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if view.phase is Phase.DRAW:
            drawn = view.drawn
            assert drawn is not None
            return KEEP if suit_of(drawn) == 3 or _rank(drawn) >= 9 else DISCARD
        if view.phase is Phase.KITTY:
            return Exchange(True)
        if view.phase is Phase.BID:
            return self._bid(view, legal)
        if view.phase is Phase.PASS:
            return self._pass(view, legal)
        return self._play(view, legal, rng)

    def _bid(self, view: PlayerView, legal: list[Action]) -> Action:
        estimate = estimate_tricks(view.hand, view.rules.hand_size)
        plain = [a for a in legal if isinstance(a, Bid) and not a.nil]
        if NIL in legal and (not plain or (estimate < 0.6 and view.rules.nil)):
            return NIL
        if view.rules.suicide and NIL in legal and estimate < 3:
            return NIL
        assert plain, legal
        want = max(1, round(estimate * 0.9))
        return min(plain, key=lambda b: (abs(b.tricks - want), b.tricks))  # type: ignore[union-attr]

    def _pass(self, view: PlayerView, legal: list[Action]) -> Action:
        bid = view.bids[view.seat]
        blind = bid is not None and bid.blind
        size = view.rules.blind_nil_pass
        order = sorted(view.hand, key=_rank, reverse=blind)
        chosen = tuple(sorted(order[:size]))
        action = PassCards(chosen)
        assert action in legal
        return action

    def _play(self, view: PlayerView, legal: list[Action], rng: random.Random) -> Action:
        plays = [a.card for a in legal if isinstance(a, Play)]
        rules = view.rules
        bid = view.bids[view.seat]
        assert bid is not None
        side = rules.sides[rules.side_of[view.seat]]
        contract = sum(b.tricks for s in side if (b := view.bids[s]) is not None and not b.nil)
        taken = sum(view.tricks[s] for s in side if (b := view.bids[s]) is not None
                    and not b.nil)
        partner = rules.partner_of[view.seat]
        partner_bid = view.bids[partner] if partner is not None else None
        covering = (partner is not None and partner_bid is not None and partner_bid.nil
                    and view.tricks[partner] == 0)
        want_tricks = not bid.nil and (taken < contract or covering)
        if not view.trick:
            ordered = sorted(plays, key=_rank)
            if want_tricks:
                aces = [c for c in plays if suit_of(c) != 3 and c % 13 == 12]
                return Play(Card(aces[0] if aces else ordered[-1]))
            return Play(Card(ordered[0]))
        led = suit_of(view.trick[0][1])
        best = view.trick[0][1]
        for _, card in view.trick[1:]:
            if _beats(card, best, led):
                best = card
        winners = sorted((c for c in plays if _beats(c, best, led)), key=_rank)
        losers = sorted((c for c in plays if not _beats(c, best, led)), key=_rank)
        if want_tricks and winners:
            return Play(Card(winners[0]))
        if losers:
            return Play(Card(losers[-1] if not want_tricks else losers[0]))
        return Play(Card(winners[-1] if bid.nil else winners[0]))


def sensible_chooser(state: GameState, rng: random.Random) -> Action:
    """The sensible player's choice; it looks at face-down cards before deciding."""
    seat = state.hand.turn
    view = player_view(state, seat)
    if view.face_down:
        return Look(seat)
    return SensiblePlayer().choose(view, rng)


def play_until(state: GameState, chooser: Chooser, rng: random.Random,
               stop: Callable[[GameState], bool], limit: int = 100_000) -> GameState:
    """Apply the chooser's actions until ``stop(state)``; fails after ``limit`` actions."""
    for _ in range(limit):
        if stop(state):
            return state
        state = apply(state, chooser(state, rng))
    raise AssertionError(f"no end after {limit} actions")


def hand_done(number: int) -> Callable[[GameState], bool]:
    """A stop condition: the hand ``number`` (from 0) is finished or the game is over."""
    return lambda state: state.over or len(state.results) > number


__all__ = [
    "SensiblePlayer", "SideResult", "cards", "deck_for", "draw_deck", "estimate_tricks",
    "forced_spade_lead", "hand_done", "play_until", "random_chooser", "rulebook_game_end",
    "rulebook_hand", "rulebook_side_points", "rulebook_trick_winner", "sensible_chooser",
    "spade_rank", "suit_of",
]
