"""What a returning socket missed, rebuilt from the store when the hub no longer holds it (a
restart, or further back than the changes kept in memory; docs/protocol.md, "Reconnecting").

The store keeps every action as a row by step: the game is replayed through the engine from
its stored decks, and each action after ``since`` becomes, for the seat, the events the
engine's projection lets it learn (``Change.events``, as when it happened), marked
``played_for`` where the computer player acted for an absent person (``stand_ins``)."""

from __future__ import annotations

from spades.engine import GameState, apply, new_game, parse_action, rules_from_json
from spades.session import Change, Snapshot
from spades.store import Store, StoredGame

from .wire import Json, Speaker, mark_played_for, narrated_json


def replayed(stored: StoredGame, upto: int) -> list[GameState] | None:
    """The states after each of the first ``upto`` actions (index = step), replayed from
    the stored decks; None when the record does not replay so (an older game's looks were
    kept apart, or fewer actions are stored)."""
    if upto > len(stored.actions):
        return None
    game = stored.game
    try:
        rules = rules_from_json(game.rules)
        state = new_game(rules, game.seed, decks=stored.decks, first_dealer=game.first_dealer)
        states = [state]
        for row in stored.actions[:upto]:
            _, action = parse_action(row.action, rules)
            state = apply(state, action)
            states.append(state)
    except ValueError:  # the engine's errors of rules, cards, decks and actions
        return None
    return states


def missed_events(stored: StoredGame, stand_ins: dict[int, int], names: tuple[str, ...],
                  seat: int, since: int, upto: int) -> list[Json] | None:
    """The events ``seat`` missed after step ``since`` up to step ``upto``, in order and
    each once; None when the store cannot say."""
    states = replayed(stored, upto)
    if states is None or not 0 <= since <= upto:
        return None
    rules = states[0].rules
    speaker = Speaker(names, seat, rules.sides)
    events: list[Json] = []
    for step in range(since + 1, upto + 1):
        after = Snapshot(states[step], 0, step)
        actor = stand_ins.get(step)
        change = Change(states[step - 1], after, seat, None)
        told = narrated_json(change.events(seat), step, speaker, rules.players)
        if actor is not None:
            told = mark_played_for(told, actor, names[actor])
        events += told
    return events


def rebuild(store: Store, game_id: str, names: tuple[str, ...], seat: int, since: int,
            upto: int) -> list[Json] | None:
    """Blocking: ``missed_events`` of the stored game ``game_id``."""
    stored = store.load_game(game_id)
    if stored is None:
        return None
    stand_ins = store.friends.stand_ins(game_id) if stored.game.options.get("friends") else {}
    return missed_events(stored, stand_ins, names, seat, since, upto)
