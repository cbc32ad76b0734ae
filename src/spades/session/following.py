"""Following a game that another server process writes: each stored row after the ones a
session holds, replayed through the engine as the process that kept it applied it (a game
action, a person's entropy for a shuffle, an undo, a practice mark), so that the session
tells its listeners the same changes, in the same order, as if it had made them.

A row that does not replay (the store and the session disagree) is a ``FollowError``: the
session then takes the stored game whole (``Saver.reload``)."""

from __future__ import annotations

from dataclasses import dataclass

from spades.engine import (
    Action,
    GameState,
    add_entropy,
    apply,
    mark_practice,
    parse_action,
    undo,
)
from spades.store import ENTROPY, PRACTICE, ActionRow


class FollowError(ValueError):
    """A stored row that does not replay on the session's state."""


@dataclass(frozen=True, slots=True)
class Followed:
    """What one stored row did: the state after it, and what kind of change it was."""

    after: GameState
    seat: int
    #: the game action (None: entropy, an undo or a mark)
    action: Action | None = None
    #: (hand, seat) of a contribution to a shuffle
    entropy: tuple[int, int] | None = None
    undone: bool = False
    mark: bool = False

    @property
    def acts(self) -> bool:
        """Whether it is a step of the game (an action or an undo): the protocol's
        ``step`` counts it, and an intent made before it is stale."""
        return self.action is not None or self.undone


def replay_row(state: GameState, row: ActionRow) -> Followed:
    """The change a stored ``row`` made to ``state``; ``FollowError`` when it does not
    replay."""
    data = row.action
    try:
        if ENTROPY in data:
            hand, value = data["hand"], data[ENTROPY]
            if not isinstance(hand, int) or not isinstance(value, str):
                raise FollowError(f"step {row.seq} is not a contribution to a shuffle")
            after = add_entropy(state, hand, (*state.shuffle.entropy_of(hand), value))
            return Followed(after, row.seat, entropy=(hand, row.seat))
        if PRACTICE in data:
            return Followed(mark_practice(state, str(data[PRACTICE])), row.seat, mark=True)
        if "undo" in data:
            after = undo(state, row.seat)
            if len(after.undos[-1].taken) != data["undo"]:
                raise FollowError(f"step {row.seq}'s undo takes back another number of "
                                  "actions here")
            return Followed(after, row.seat, undone=True)
        seat, action = parse_action(data, state.rules)
        return Followed(apply(state, action), seat, action=action)
    except FollowError:
        raise
    except (ValueError, KeyError, TypeError) as error:
        raise FollowError(f"step {row.seq} does not replay: {error}") from error
