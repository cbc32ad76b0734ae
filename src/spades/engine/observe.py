"""What a seat learns as the game goes on, and the record it may download.

With ``player_view`` these are the engine's three projections, the only routes out for
anything hidden (``seat_update`` gives the first two together, once per change and seat):

- ``events(before, after, seat)``: what ``seat`` learns between two states of one game, in
  order: the public events (a look, a bid, a card played, spades broken, a trick won, a draw's
  face-up card, a pass between two seats, a kitty exchange, a hand scored, the next deal, the
  game over) and the seat's own private facts (the card it keeps when it draws, the cards
  passed to or by it, the kitty card it takes when its cards are face up);
- ``seat_record(state, seat)``: the game record ``seat`` may download now: the finished hands
  whole and, of the hand in play, its own cards and the actions it saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, Bid, Draw, Exchange, Look, PassCards, Play
from .cards import CODE_OF, Card, cards_in
from .game import apply, can_bid_blind_nil
from .laws import trick_winner
from .record import CHOSEN, action_to_json, record_of
from .shuffle import COMMIT, CURRENT, commitment, hand_salt, hand_seed
from .state import GameState, Undo
from .takeback import hand_log, hand_start, replay_hand
from .view import NO_SEAT, PlayerView, SheetLine, player_view, public_view, sheet_line


@dataclass(frozen=True, slots=True)
class Looked:
    """``seat`` turned up its cards (blind nil is no longer open to it)."""

    seat: int


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    bid: Bid


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SpadesBroken:
    """Spades may be led from now on."""


@dataclass(frozen=True, slots=True)
class TrickWon:
    leader: int
    cards: tuple[Card, ...]
    winner: int

    def plays(self, players: int) -> tuple[tuple[int, Card], ...]:
        return tuple(((self.leader + i) % players, c) for i, c in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Two-player draw: ``shown`` went face up to the discards; ``kept`` is the card the
    drawer kept, told to the drawer only (None for everyone else)."""

    seat: int
    keep: bool
    shown: Card
    kept: Card | None


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """Blind-nil passing: ``count`` cards from ``giver`` to ``receiver``; the cards are
    told to those two only (None for everyone else)."""

    giver: int
    receiver: int
    count: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class KittyExchanged:
    """Three-player kitty: ``seat`` swapped the 2 of clubs for the kitty (``take``) or
    kept it; ``card`` is the kitty card taken, told to the taker only, and only when its
    cards are face up."""

    seat: int
    take: bool
    card: Card | None


@dataclass(frozen=True, slots=True)
class HandScored:
    line: SheetLine


@dataclass(frozen=True, slots=True)
class HandDealt:
    number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int | None
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakenBack:
    """``seat`` took back its last card or bid and what followed (an undo): ``count``
    actions; ``actions`` are those the listening seat saw (a pass between two other seats
    is left out), in order."""

    seat: int
    count: int
    actions: tuple[tuple[int, Action], ...]


Event = (Looked | BidMade | CardPlayed | SpadesBroken | TrickWon | CardDrawn | CardsPassed
         | KittyExchanged | HandScored | HandDealt | GameOver | TakenBack)


def actions_between(before: GameState, after: GameState) -> list[tuple[int, Action]]:
    """The actions that lead from ``before`` to ``after`` (a later state of the same game),
    in order, with their seats."""
    if len(after.results) < len(before.results) or (
            after.results[:len(before.results)] != before.results):
        raise ValueError("the second state does not follow the first")
    out: list[tuple[int, Action]] = []
    done = before.hand.action_count
    for number in range(before.hand.number, after.hand.number + 1):
        if number < len(after.results):
            out.extend(after.results[number].actions[done:])
        else:
            out.extend(after.hand.actions_from(done))
        done = 0
    return out


def events(before: GameState, after: GameState, seat: int) -> list[Event]:
    """What ``seat`` learns between ``before`` and a later state ``after`` of the same game:
    the public events and its own private facts, in order (an undo between them: what it
    took back, then what was played since)."""
    if after.undos[:len(before.undos)] != before.undos:
        raise ValueError("the second state does not follow the first")
    fresh = after.undos[len(before.undos):]
    if fresh:
        out: list[Event] = [_taken_back(u, seat, after.rules.partner_of) for u in fresh]
        last = fresh[-1]
        later = after.hand.actions if last.hand == after.hand.number else (
            after.results[last.hand].actions)
        since = replay_hand(hand_start(after, last.hand), later[:last.kept])
        return out + events(since._replace(undos=after.undos), after, seat)
    out = []
    state = before
    steps = actions_between(before, after)
    for number, (actor, action) in enumerate(steps, 1):
        # the last action leads to ``after`` itself: only the ones before it are replayed
        following = after if number == len(steps) else apply(state, action)
        out.extend(step_events(state, actor, action, following, seat))
        state = following
    return out


def _taken_back(entry: Undo, seat: int, partner_of: tuple[int | None, ...]) -> TakenBack:
    """An undo as ``seat`` learns it: the actions taken back it had seen (a pass is seen by
    its giver and the partner it went to)."""
    seen = tuple((actor, action) for actor, action in entry.taken
                 if not isinstance(action, PassCards) or seat in (actor, partner_of[actor]))
    return TakenBack(entry.seat, len(entry.taken), seen)


def step_events(before: GameState, actor: int, action: Action, after: GameState,
                seat: int) -> list[Event]:
    """What ``seat`` learns from one action (``after`` is ``apply(before, action)``)."""
    hand = before.hand
    n = before.rules.players
    out: list[Event] = []
    if isinstance(action, Look):
        out.append(Looked(action.seat))
    elif isinstance(action, Bid):
        out.append(BidMade(actor, action))
    elif isinstance(action, Play):
        out.append(CardPlayed(actor, action.card))
        if after.hand.number == hand.number and after.hand.broken and not hand.broken:
            out.append(SpadesBroken())
        if len(hand.trick) == n - 1:
            cards = (*hand.trick, action.card)
            out.append(TrickWon(hand.leader, cards, trick_winner(cards, hand.leader, n)))
    elif isinstance(action, Draw):
        drawn, following = hand.deck[hand.stock], hand.deck[hand.stock + 1]
        shown, kept = (following, drawn) if action.keep else (drawn, following)
        out.append(CardDrawn(actor, action.keep, shown, kept if seat == actor else None))
    elif isinstance(action, PassCards):
        giver, receiver = hand.pending[0]
        told = seat in (giver, receiver)
        out.append(CardsPassed(giver, receiver, len(action.cards),
                               action.cards if told else None))
    elif isinstance(action, Exchange):
        card = None
        if (action.take and seat == actor and hand.kitty is not None
                and not can_bid_blind_nil(after, seat)):
            card = hand.kitty
        out.append(KittyExchanged(actor, action.take, card))
    if len(after.results) > len(before.results):
        out.append(HandScored(sheet_line(after.results[-1])))
        if after.over:
            out.append(GameOver(after.winner, after.scores))
        else:
            out.append(HandDealt(after.hand.number, after.hand.dealer))
    return out


def public_events(before: GameState, after: GameState) -> list[Event]:
    """What everyone at the table learns between two states (a spectator): the public
    events only (no seat's kept draw, passed cards or kitty card)."""
    return events(before, after, NO_SEAT)


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """What one seat gets from one change of the game (``NO_SEAT``: a spectator): its view
    after it, the events it learned from it in order, and so its legal actions (those of
    the view: none unless it is the seat's turn)."""

    seat: int
    view: PlayerView
    events: tuple[Event, ...]

    @property
    def legal(self) -> tuple[Action, ...]:
        return self.view.legal


def seat_update(before: GameState, after: GameState, seat: int,
                view: PlayerView | None = None) -> SeatUpdate:
    """``seat``'s update from ``before`` to a later state ``after`` of the same game (its
    view of ``after``, ``events(before, after, seat)``); ``NO_SEAT``: the spectators'
    (``public_view``, ``public_events``). ``view``: that view of ``after`` if the caller
    made it already (made once, kept for the seat's every message of ``after``)."""
    if view is None:
        view = public_view(after) if seat == NO_SEAT else player_view(after, seat)
    if view.seat != seat:
        raise ValueError(f"the view is seat {view.seat}'s, not seat {seat}'s")
    return SeatUpdate(seat, view, tuple(events(before, after, seat)))


# ---------------------------------------------------------------------------- downloads

def seen_cards(state: GameState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` has held face up in the hand in play: dealt or drawn, taken from
    the kitty, or passed to it (those it still holds, played or passed away); none while
    they are face down."""
    if can_bid_blind_nil(state, seat):
        return ()
    hand = state.hand
    held = hand.hands[seat]
    for actor, action in hand.actions:
        if actor != seat:
            continue
        if isinstance(action, Play):
            held |= 1 << action.card
        elif isinstance(action, PassCards):
            for card in action.cards:
                held |= 1 << card
    return tuple(cards_in(held))


def seen_actions(state: GameState, seat: int) -> list[tuple[int, Action]]:
    """The hand in play's actions as ``seat`` saw them: passes between two other seats are
    left out."""
    out = []
    for actor, action in state.hand.actions:
        if isinstance(action, PassCards):
            receiver = next(r for g, r, cards in state.hand.passes
                            if g == actor and cards == action.cards)
            if seat not in (actor, receiver):
                continue
        out.append((actor, action))
    return out


def seat_record(state: GameState, seat: int,
                players: tuple[str, ...] | list[str] | None = None,
                levels: tuple[str | None, ...] | None = None) -> dict[str, Any]:
    """The record ``seat`` may download now. A finished game is its whole record (with its
    result); a game in play holds its finished hands whole and the hand in play as the seat
    saw it: ``{"seen": {"seat": s, "cards": [...]}, "actions": [...]}``. Finished hands dealt
    from the game's seed carry their revealed ``seed``, ``salt``, ``commitment`` and
    ``entropy`` (docs/shuffle.md), so ``spades verify`` checks a download."""
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0 to {rules.players - 1}, not {seat}")
    # finished hands' seeds: verifiable
    record = record_of(state, players, reveal=True, levels=levels)
    if state.over:
        record["result"] = {"scores": list(state.scores), "winner": state.winner}
        return record
    record["hands"] = record["hands"][: len(state.results)]
    record["hands"].append({
        "seen": {"seat": seat, "cards": [CODE_OF[c] for c in seen_cards(state, seat)]},
        "actions": _seen_log(state, seat)})
    return record


def _seen_log(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The hand in play's record entries as ``seat`` saw them: its actions, undos and the
    actions they took back included, less the passes between two other seats."""
    partner_of = state.rules.partner_of
    out = []
    for actor, entry in hand_log(state.hand.actions,
                                 [u for u in state.undos if u.hand == state.hand.number]):
        if isinstance(entry, Undo):
            out.append({"seat": actor, "undo": len(entry.taken)})
        elif not isinstance(entry, PassCards) or seat in (actor, partner_of[actor]):
            out.append(action_to_json(actor, entry))
    return out


# ---------------------------------------------------------------------------- shuffles

def _from_seed(state: GameState, number: int) -> bool:
    """Hand ``number`` is (or will be) dealt by ``spades-shuffle/1`` from the game's seed."""
    return number >= len(state.decks) and state.shuffle.version == CURRENT


#: Hands' secrets once derived, by the game's seed and the hand's number: the hand's seed,
#: salt and commitment (``shuffle_news``'s memo, kept by the caller).
Secrets = dict[tuple[str, int], tuple[str, str, str]]


def _secrets(state: GameState, number: int, memo: Secrets | None) -> tuple[str, str, str]:
    """Hand ``number``'s seed, salt and commitment, from ``memo`` when it holds them (five
    SHA-256 digests otherwise: a long game's news would hash every finished hand again)."""
    key = (str(state.seed), number)
    known = None if memo is None else memo.get(key)
    if known is None:
        seed, salt = hand_seed(state.seed, number), hand_salt(state.seed, number)
        known = (seed, salt, commitment(seed, salt))
        if memo is not None:
            memo[key] = known
    return known


def shuffle_news(state: GameState, memo: Secrets | None = None) -> dict[str, Any]:
    """What every seat may know of the shuffles now (docs/shuffle.md, "At the table"):

    - ``committed``: the hand in play and, while the game goes on, the next hand (whose
      players' entropy may still be given, before the hand in play ends), each as
      ``{"hand", "commitment", "commitment_scheme", "entropy"}``: never a seed or salt;
    - ``revealed``: each finished hand as ``{"hand", "seed", "salt", "commitment",
      "commitment_scheme", "entropy"}``.

    Hands are numbered from 0; hands whose deck the game was given (or dealt by the old
    shuffle) have no commitment and are left out, except a chosen deal (play a deal again),
    which says so openly: ``{"hand": 0, "commitment_scheme": "chosen", "commitment": None,
    "entropy": []}`` while it is in play and when it is over. The same for every seat.

    ``memo`` (kept by the caller, say one per game) spares deriving a hand's secrets
    again: they depend on the game's seed and the hand's number alone."""
    def shown(number: int) -> dict[str, Any]:
        return {"hand": number, "commitment": _secrets(state, number, memo)[2],
                "commitment_scheme": COMMIT,
                "entropy": list(state.shuffle.entropy_of(number))}

    chosen: dict[str, Any] = {"hand": 0, "commitment": None, "commitment_scheme": CHOSEN,
                              "entropy": []}
    committed = []
    if not state.over:
        for number in (state.hand.number, state.hand.number + 1):
            if _from_seed(state, number):
                committed.append(shown(number))
            elif number == 0 and state.start is not None:
                committed.append(chosen)
    revealed = []
    for result in state.results:
        if result.number == 0 and state.start is not None:
            revealed.append(chosen)
        elif _from_seed(state, result.number):
            seed, salt, _ = _secrets(state, result.number, memo)
            revealed.append({**shown(result.number), "seed": seed, "salt": salt})
    return {"committed": committed, "revealed": revealed}


__all__ = [
    "BidMade",
    "CardDrawn",
    "CardPlayed",
    "CardsPassed",
    "Event",
    "GameOver",
    "HandDealt",
    "HandScored",
    "KittyExchanged",
    "Looked",
    "SeatUpdate",
    "Secrets",
    "SpadesBroken",
    "TakenBack",
    "TrickWon",
    "actions_between",
    "events",
    "seat_record",
    "seat_update",
    "seen_actions",
    "seen_cards",
    "shuffle_news",
    "step_events",
]
