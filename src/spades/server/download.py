"""A game record to download, holding nothing the player has not seen.

A finished game is its whole record. A game in play holds its finished hands whole and, of
the hand in play, the seat's own cards (none while they are face down for blind nil) and
the public actions, as ``{"seen": {"seat": s, "cards": [...]}, "actions": [...]}``.
"""

from __future__ import annotations

from typing import Any

from spades.engine import CODE_OF, GameState, PassCards, Play, action_to_json, record_of


def seen_cards(state: GameState, seat: int, face_down: bool) -> list[str]:
    """The cards ``seat`` has held in the hand in play: dealt or drawn, taken from the
    kitty, or passed to it (those it still holds, played or passed away)."""
    if face_down:
        return []
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
    return [CODE_OF[c] for c in range(len(CODE_OF)) if held >> c & 1]


def public_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The hand in play's actions as ``seat`` saw them: other seats' passes that did not
    come to it are left out."""
    partner_of = state.rules.partner_of
    out = []
    for actor, action in state.hand.actions:
        if isinstance(action, PassCards) and seat not in (actor, partner_of[actor]):
            continue
        out.append(action_to_json(actor, action))
    return out


def download(state: GameState, names: tuple[str, ...], seat: int,
             face_down: bool) -> dict[str, Any]:
    record = record_of(state, list(names))
    if state.over:
        record["result"] = {"scores": list(state.scores), "winner": state.winner}
        return record
    record["hands"] = record["hands"][: len(state.results)]
    record["hands"].append({"seen": {"seat": seat, "cards": seen_cards(state, seat, face_down)},
                            "actions": public_actions(state, seat)})
    return record
