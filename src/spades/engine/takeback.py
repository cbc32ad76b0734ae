"""Undo against the computer (the house rule ``undo``), and the state at a hand's deal.

``undo(state, seat)`` takes back the seat's last card or bid of the hand in play and every
action after it: the hand is rebuilt from its deal by replaying the actions kept (pure and
deterministic: the deck, the seed and the shuffle's commitments are unchanged). Nothing is
forgotten: the state keeps each ``Undo`` with what it took back, and a record writes the
hand's actions as they happened, each undo an entry in its place (``hand_log``). An undo
never reaches into a finished hand. Who may ask for one (a person alone with computer
players) is the session's to decide; the engine checks the rule and the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, IllegalActionError, Look
from .game import apply, deal_deck
from .state import GameState, Undo

#: A hand's actions as they happened: an action, or an undo taking back the last ``count``.
LogEntry = tuple[int, Action | Undo]


def undo_blocker(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not undo now, in a player's words; None when it may."""
    if not state.rules.undo:
        return "undo is not allowed at this table (the house rule \"Allow undo\" is off)"
    if state.over:
        return "the game is over"
    if _last_own(state, seat) is None:
        return "you have no card or bid of this hand to take back"
    return None


def _last_own(state: GameState, seat: int) -> int | None:
    """The index of ``seat``'s last action (a look aside) among the hand's actions."""
    actions = state.hand.actions
    for index in range(len(actions) - 1, -1, -1):
        actor, action = actions[index]
        if actor == seat and not isinstance(action, Look):
            return index
    return None


def undo(state: GameState, seat: int) -> GameState:
    """The state with ``seat``'s last card or bid of the hand in play, and everything
    after it, taken back; ``IllegalActionError`` says why not (nothing changes)."""
    reason = undo_blocker(state, seat)
    if reason is not None:
        raise IllegalActionError(reason)
    index = _last_own(state, seat)
    assert index is not None
    actions = state.hand.actions
    entry = Undo(hand=state.hand.number, seat=seat, kept=index, taken=actions[index:])
    return replay_hand(state, actions[:index])._replace(undos=(*state.undos, entry))


def hand_start(state: GameState, number: int) -> GameState:
    """The game as it stood when hand ``number`` (from 0, not after the hand in play) was
    dealt: the scores and bags before it, none of its actions."""
    if not 0 <= number <= state.hand.number:
        raise ValueError(f"hand {number + 1} is not dealt yet")
    if number:
        score = state.results[number - 1].score
        scores, bags = score.scores, score.bags
    elif state.start is not None:
        scores, bags = state.start.scores, state.start.bags
    else:
        scores = bags = (0,) * len(state.rules.sides)
    if number == state.hand.number:
        deck, dealer = state.hand.deck, state.hand.dealer
    else:
        deck, dealer = state.results[number].deck, state.results[number].dealer
    return state._replace(scores=scores, bags=bags, results=state.results[:number],
                          hand=deal_deck(state.rules, deck, number, dealer), over=False,
                          winner=None)


def replay_hand(state: GameState, actions: Sequence[tuple[int, Action]]) -> GameState:
    """The hand in play of ``state`` from its deal with only ``actions`` played."""
    rebuilt = hand_start(state, state.hand.number)
    for _, action in actions:
        rebuilt = apply(rebuilt, action)
    return rebuilt


def hand_log(actions: Sequence[tuple[int, Action]], undos: Sequence[Undo]) -> list[LogEntry]:
    """Hand's actions as they happened, from its ``actions`` kept at the end and its
    ``undos`` in order: each undo in its place after the actions it took back."""
    if not undos:
        return list(actions)
    last = undos[-1]
    before = [*actions[:last.kept], *last.taken]
    return [*hand_log(before, undos[:-1]), (last.seat, last), *actions[last.kept:]]


__all__ = ["LogEntry", "hand_log", "hand_start", "replay_hand", "undo", "undo_blocker"]
