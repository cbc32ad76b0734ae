"""What goes over the wire to a seat: its view, its choices, and what just happened.

Everything here serialises what the engine projects for a seat, as the session hands it
out (``Snapshot.view``, ``Change.update``: the seat's view, its cards face down for blind nil
until it looks, and the events it learned); it never sees the game's state.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from spades.engine import (
    BLIND_NIL,
    CODE_OF,
    NAME_OF,
    Bid,
    BidMade,
    CardDrawn,
    CardPlayed,
    CardsPassed,
    GameOver,
    HandScored,
    KittyExchanged,
    Look,
    Looked,
    Phase,
    Play,
    PlayerView,
    SheetLine,
    SpadesBroken,
    TakenBack,
    TrickWon,
    action_to_json,
)
from spades.session import GameEnded, Narrated, Snapshot

Json = dict[str, Any]


def codes(cards: Any) -> list[str]:
    return [CODE_OF[c] for c in cards]


def bid_label(bid: Bid) -> str:
    return bid.label[:1].upper() + bid.label[1:]


def sheet_line(line: SheetLine, sides: tuple[tuple[int, ...], ...]) -> Json:
    return {
        "hand": line.number + 1,
        "dealer": line.dealer,
        "bids": [b.code for b in line.bids],
        "tricks": list(line.tricks),
        "side_bids": [sum(line.bids[s].tricks for s in side) for side in sides],
        "side_tricks": [sum(line.tricks[s] for s in side) for side in sides],
        "points": list(line.points),
        "bags": list(line.bags),
        "bags_taken": list(line.bags_taken),
        "scores": list(line.scores),
    }


#: Score sheets as JSON by the id of the engine's sheet (a game's views share one sheet
#: until a hand ends: a change's messages and the changes of a hand make it once), each
#: kept with its sheet so that the id means that sheet; the oldest go first.
_sheets: OrderedDict[int, tuple[tuple[SheetLine, ...], list[Json]]] = OrderedDict()
SHEETS_KEPT = 2048


def sheet_json(sheet: tuple[SheetLine, ...], sides: tuple[tuple[int, ...], ...]) -> list[Json]:
    """The score sheet as JSON, made once for a sheet (the list is shared: not to be
    changed)."""
    kept = _sheets.get(id(sheet))
    if kept is not None and kept[0] is sheet:
        return kept[1]
    made = [sheet_line(line, sides) for line in sheet]
    _sheets[id(sheet)] = (sheet, made)
    while len(_sheets) > SHEETS_KEPT:
        _sheets.popitem(last=False)
    return made


def view_json(view: PlayerView) -> Json:
    """The seat's view as JSON (its cards and drawn card are face down, withheld by the
    engine, while blind nil is open to it and it has not looked)."""
    hidden = view.face_down
    last = view.last_trick
    kitty: Json | None = None
    if view.kitty_holder is not None:
        kitty = {"holder": view.kitty_holder, "taken": view.kitty_taken}
    sides = view.rules.sides
    return {
        "phase": view.phase.value,
        "turn": view.turn,
        "hand_number": view.hand_number + 1,
        "dealer": view.dealer,
        "leader": view.leader,
        "hand": None if hidden else codes(view.hand),
        "hand_hidden": hidden,
        "can_look": hidden,
        "hand_sizes": list(view.hand_sizes),
        "bids": [None if b is None else b.code for b in view.bids],
        "tricks": list(view.tricks),
        "trick": [{"seat": s, "card": CODE_OF[c]} for s, c in view.trick],
        "last_trick": None if last is None else {
            "leader": last.leader, "winner": last.winner,
            "cards": [{"seat": s, "card": CODE_OF[c]}
                      for s, c in last.plays(view.rules.players)]},
        "tricks_played": len(view.history),
        "broken": view.broken,
        "discards": codes(view.discards),
        "drawn": None if hidden or view.drawn is None else CODE_OF[view.drawn],
        "stock_left": view.stock_left,
        "kitty": kitty,
        "passes": [{"from": g, "to": r, "cards": codes(cards)} for g, r, cards in view.passes],
        "scores": list(view.scores),
        "bags": list(view.bags),
        "sheet": sheet_json(view.sheet, sides),
        "over": view.over,
        "winner": view.winner,
    }


#: The last snapshot whose shuffles were made JSON, and that JSON (every seat's message of
#: a change is made one after the other: the same for them all).
_shuffled: tuple[Snapshot, Json] | None = None


def shuffle_json(snapshot: Snapshot) -> Json:
    """What every seat may know of the shuffles (docs/shuffle.md, the engine's
    ``shuffle_news``, made once a snapshot), hands counted from 1: ``committed``, the
    commitments of the hand in play and the next (never a seed); ``revealed``, the last
    finished hand's seed and salt with its deck (it is over: its deck is in the record
    anyway), or null. Made once for the snapshot of the last call (shared: not to be
    changed)."""
    global _shuffled
    if _shuffled is not None and _shuffled[0] is snapshot:
        return _shuffled[1]
    made = _shuffle_json(snapshot)
    _shuffled = (snapshot, made)
    return made


def _shuffle_json(snapshot: Snapshot) -> Json:
    news = snapshot.shuffle_news()
    committed = [{**entry, "hand": entry["hand"] + 1} for entry in news["committed"]]
    revealed: Json | None = None
    finished = snapshot.finished_deck
    if news["revealed"] and finished is not None:
        last = news["revealed"][-1]
        number, deck = finished
        if last["hand"] == number:
            revealed = {**last, "hand": last["hand"] + 1, "deck": codes(deck)}
    return {"committed": committed, "revealed": revealed}


def legal_json(view: PlayerView) -> Json | None:
    """What the seat may do now, ready to render; None when it is not its turn."""
    if not view.legal:
        return None
    hidden = view.face_down
    phase = view.phase
    if hidden and phase in (Phase.BID, Phase.DRAW):
        return {"kind": "blind_nil", "actions": [
            {"bid": BLIND_NIL.code, "label": "Blind nil"},
            {"look": True, "label": "Look at my cards"}]}
    if phase is Phase.PLAY:
        cards = [CODE_OF[a.card] for a in view.legal if isinstance(a, Play)]
        return {"kind": "play", "cards": cards, "actions": [{"play": c} for c in cards]}
    if phase is Phase.BID:
        # face up: the engine no longer offers blind nil (it is bid before the look)
        bids = [{"bid": a.code, "label": bid_label(a)}
                for a in view.legal if isinstance(a, Bid)]
        return {"kind": "bid", "bids": bids, "actions": bids}
    if phase is Phase.DRAW:
        drawn = NAME_OF[view.drawn] if view.drawn is not None else "card"
        return {"kind": "draw", "card": None if view.drawn is None else CODE_OF[view.drawn],
                "actions": [
                    {"draw": "keep", "label": f"Keep the {drawn}"},
                    {"draw": "discard", "label": f"Discard the {drawn} and take the next card"}]}
    if phase is Phase.PASS:
        return {"kind": "pass", "count": view.rules.blind_nil_pass, "to": view.partner,
                "cards": codes(view.hand), "actions": []}
    if phase is Phase.KITTY:
        return {"kind": "exchange", "card": "2C", "actions": [
            {"exchange": True, "label": "Swap the two of clubs for the kitty"},
            {"exchange": False, "label": "Keep the two of clubs"}]}
    return None


# ------------------------------------------------------------------------ events

class Speaker:
    """Sentences for a screen reader, from the point of view of ``viewer``."""

    def __init__(self, names: tuple[str, ...], viewer: int, sides: tuple[tuple[int, ...], ...]):
        self.names = names
        self.viewer = viewer
        self.sides = sides

    def who(self, seat: int) -> str:
        return "You" if seat == self.viewer else self.names[seat]

    def says(self, seat: int, verb: str, rest: str) -> str:
        """"You play ..." / "Bramble plays ..."."""
        if seat == self.viewer:
            return f"You {verb} {rest}".rstrip() + "."
        ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
        return f"{self.names[seat]} {verb}{ending} {rest}".rstrip() + "."

    def side(self, index: int) -> str:
        members = [self.who(s) for s in self.sides[index]]
        return " and ".join(members)


def _bid_words(bid: Bid) -> str:
    return bid.label


#: The events a seat's own action makes (the ones a stand-in's action is marked on).
ACTION_KINDS = frozenset({"bid", "play", "draw", "pass", "exchange", "look"})


def mark_played_for(events: list[Json], seat: int, name: str) -> list[Json]:
    """The events of an action the computer player made for the absent person at ``seat``,
    marked so (``played_for``) and said so ("Played for Ann: ...")."""
    out = []
    for event in events:
        actor = event.get("seat", event.get("from"))
        if event.get("kind") in ACTION_KINDS and actor in (seat, None):
            event = {**event, "played_for": name, "text": f"Played for {name}: {event['text']}"}
        out.append(event)
    return out


def narrated_json(told: list[Narrated], step: int, speaker: Speaker,
                  players: int) -> list[Json]:
    """The session's events for the viewer, as the protocol's event objects."""
    out: list[Json] = []
    for event in told:
        out.extend(event_json(event, step, speaker, players))
    return out


def undo_json(event: TakenBack, step: int, speaker: Speaker) -> Json:
    """An undo: who took back what (the cards and bids the viewer saw, in order), said
    plainly for a screen reader."""
    words = []
    seen = [(s, a) for s, a in event.actions
            if not isinstance(a, Look) or s == speaker.viewer]  # as the look events
    for seat, action in seen:
        whose = "your" if seat == speaker.viewer else f"{speaker.names[seat]}'s"
        if isinstance(action, Play):
            words.append(f"{whose} {NAME_OF[action.card]}")
        elif isinstance(action, Bid):
            words.append(f"{whose} bid of {_bid_words(action)}")
    count = event.count
    what = ", ".join(words) if words else f"{count} action{'' if count == 1 else 's'}"
    return {"kind": "undo", "step": step, "seat": event.seat, "count": count,
            "taken": [action_to_json(s, a) for s, a in seen],
            "text": speaker.says(event.seat, "take", f"back {what}")}


def event_json(event: Narrated, step: int, speaker: Speaker, players: int) -> list[Json]:
    """One engine event as the protocol's event objects (none for another seat's look)."""
    viewer = speaker.viewer
    if isinstance(event, TakenBack):
        return [undo_json(event, step, speaker)]
    if isinstance(event, Looked):
        if event.seat != viewer:
            return []
        return [{"kind": "look", "step": step, "text": "You look at your cards."}]
    if isinstance(event, BidMade):
        return [{"kind": "bid", "step": step, "seat": event.seat, "bid": event.bid.code,
                 "text": speaker.says(event.seat, "bid", _bid_words(event.bid))}]
    if isinstance(event, CardPlayed):
        return [{"kind": "play", "step": step, "seat": event.seat, "card": CODE_OF[event.card],
                 "text": speaker.says(event.seat, "play", f"the {NAME_OF[event.card]}")}]
    if isinstance(event, SpadesBroken):
        return [{"kind": "broken", "step": step, "text": "Spades are broken."}]
    if isinstance(event, TrickWon):
        return [{"kind": "trick", "step": step, "winner": event.winner,
                 "cards": [{"seat": s, "card": CODE_OF[c]} for s, c in event.plays(players)],
                 "text": speaker.says(event.winner, "win", "the trick")}]
    if isinstance(event, CardDrawn):
        shown, kept, seat = event.shown, event.kept, event.seat
        if kept is not None:
            text = (f"You keep the {NAME_OF[kept]}; the {NAME_OF[shown]} goes face up."
                    if event.keep else
                    f"You discard the {NAME_OF[shown]} and take the {NAME_OF[kept]}.")
        elif event.keep:
            text = f"{speaker.who(seat)} keeps a card; the {NAME_OF[shown]} goes face up."
        else:
            text = (f"{speaker.who(seat)} discards the {NAME_OF[shown]} and takes the "
                    "next card.")
        return [{"kind": "draw", "step": step, "seat": seat, "keep": event.keep,
                 "card": CODE_OF[shown], "text": text}]
    if isinstance(event, CardsPassed):
        giver, receiver = event.giver, event.receiver
        out: Json = {"kind": "pass", "step": step, "from": giver, "to": receiver}
        if event.cards is not None:
            names = " and the ".join(NAME_OF[c] for c in event.cards)
            out["cards"] = codes(event.cards)
            target = "you" if receiver == viewer else speaker.who(receiver)
            out["text"] = speaker.says(giver, "pass", f"{target} the {names}")
        else:
            out["text"] = speaker.says(
                giver, "pass",
                f"{event.count} card{'' if event.count == 1 else 's'} to {speaker.who(receiver)}")
        return [out]
    if isinstance(event, KittyExchanged):
        return [{"kind": "exchange", "step": step, "seat": event.seat, "take": event.take,
                 "text": speaker.says(event.seat, "swap", "the two of clubs for the kitty")
                 if event.take else speaker.says(event.seat, "keep", "the two of clubs")}]
    if isinstance(event, HandScored):
        return [hand_json(event.line, step, speaker)]
    if isinstance(event, GameEnded):
        return [game_json(event, step, speaker)]
    if isinstance(event, GameOver):  # the session tells GameEnded instead
        return [game_json(GameEnded(event.winner, event.scores, None), step, speaker)]
    return [{"kind": "deal", "step": step, "hand_number": event.number + 1,
             "dealer": event.dealer,
             "text": f"Hand {event.number + 1}: {speaker.says(event.dealer, 'deal', '')}"}]


def hand_json(line: SheetLine, step: int, speaker: Speaker) -> Json:
    sides = speaker.sides
    parts = []
    for index, side in enumerate(sides):
        bid = " + ".join(_bid_words(line.bids[s]) for s in side)
        took = sum(line.tricks[s] for s in side)
        points = line.points[index]
        parts.append(f"{speaker.side(index)} bid {bid}, took {took}: "
                     f"{points} point{'' if abs(points) == 1 else 's'}.")
    scores = " to ".join(str(s) for s in line.scores)
    return {"kind": "hand", "step": step, "hand_number": line.number + 1,
            "line": sheet_line(line, sides),
            "text": f"Hand {line.number + 1}: " + " ".join(parts) + f" Score {scores}."}


#: Why the game ended, in words (``GameEnded.reason``).
REASONS = {"boston": "{side} took every trick of a hand (a Boston).",
           "moon": "{side} shot the moon.",
           "mercy": "The mercy rule ends the game.", "target": ""}


def game_json(event: GameEnded, step: int, speaker: Speaker) -> Json:
    sides = speaker.sides
    winner = event.winner
    scores = " to ".join(str(s) for s in event.scores)
    text = "The game is over."
    if winner is not None:
        verb = "win" if speaker.viewer in sides[winner] or len(sides[winner]) > 1 else "wins"
        text = f"{speaker.side(winner)} {verb}, {scores}."
    why = REASONS.get(event.reason or "", "")
    if why and winner is not None:
        text = f"{text} {why.format(side=speaker.side(winner))}"
    return {"kind": "game", "step": step, "winner": winner, "scores": list(event.scores),
            "reason": event.reason, "text": text}
