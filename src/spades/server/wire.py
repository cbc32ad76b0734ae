"""What goes over the wire to a seat: its view, its choices, and what just happened.

Everything here starts from ``player_view(state, seat)`` (never the state's hidden parts),
except for two facts the view does not carry: whether blind nil is open to the seat before
its turn (its cards then stay face down), and what an action just did (a played card, a
trick's winner, a finished hand), which is public once done.
"""

from __future__ import annotations

from typing import Any

from spades.engine import (
    BLIND_NIL,
    CODE_OF,
    NAME_OF,
    Action,
    Bid,
    Draw,
    Exchange,
    GameState,
    PassCards,
    Phase,
    Play,
    PlayerView,
    SheetLine,
    can_bid_blind_nil,
    trick_winner,
)

Json = dict[str, Any]


def cards_face_down(state: GameState, seat: int, looked: bool) -> bool:
    """Blind nil is open to ``seat`` this hand and it has not looked: its cards (and, in
    the draw, the card it would draw) must not be sent."""
    return not looked and can_bid_blind_nil(state, seat)


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
        "scores": list(line.scores),
    }


def view_json(view: PlayerView, hidden: bool) -> Json:
    """The seat's view as JSON; with ``hidden`` its cards and drawn card are withheld."""
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
        "sheet": [sheet_line(line, sides) for line in view.sheet],
        "over": view.over,
        "winner": view.winner,
    }


def legal_json(view: PlayerView, hidden: bool) -> Json | None:
    """What the seat may do now, ready to render; None when it is not its turn."""
    if not view.legal:
        return None
    phase = view.phase
    if hidden and phase in (Phase.BID, Phase.DRAW):
        return {"kind": "blind_nil", "actions": [
            {"bid": BLIND_NIL.code, "label": "Blind nil"},
            {"look": True, "label": "Look at my cards"}]}
    if phase is Phase.PLAY:
        cards = [CODE_OF[a.card] for a in view.legal if isinstance(a, Play)]
        return {"kind": "play", "cards": cards, "actions": [{"play": c} for c in cards]}
    if phase is Phase.BID:
        # blind nil is offered face down only: once the cards are seen it is gone
        bids = [{"bid": a.code, "label": bid_label(a)}
                for a in view.legal if isinstance(a, Bid) and not a.blind]
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


def events_for(before: GameState, after: GameState, seat: int, action: Action, step: int,
               speaker: Speaker) -> list[Json]:
    """What one action did, as the viewer may know it."""
    viewer = speaker.viewer
    hand = before.hand
    n = before.rules.players
    out: list[Json] = []
    if isinstance(action, Bid):
        out.append({"kind": "bid", "step": step, "seat": seat, "bid": action.code,
                    "text": speaker.says(seat, "bid", _bid_words(action))})
    elif isinstance(action, Play):
        out.append({"kind": "play", "step": step, "seat": seat, "card": CODE_OF[action.card],
                    "text": speaker.says(seat, "play", f"the {NAME_OF[action.card]}")})
        if after.hand.number == hand.number and after.hand.broken and not hand.broken:
            out.append({"kind": "broken", "step": step, "text": "Spades are broken."})
        if len(hand.trick) == n - 1:
            cards = (*hand.trick, action.card)
            winner = trick_winner(cards, hand.leader, n)
            out.append({"kind": "trick", "step": step, "winner": winner,
                        "cards": [{"seat": (hand.leader + i) % n, "card": CODE_OF[c]}
                                  for i, c in enumerate(cards)],
                        "text": speaker.says(winner, "win", "the trick")})
    elif isinstance(action, Draw):
        drawn, following = hand.deck[hand.stock], hand.deck[hand.stock + 1]
        shown = following if action.keep else drawn
        if seat == viewer:
            kept = drawn if action.keep else following
            text = (f"You keep the {NAME_OF[kept]}; the {NAME_OF[shown]} goes face up."
                    if action.keep else
                    f"You discard the {NAME_OF[shown]} and take the {NAME_OF[kept]}.")
        elif action.keep:
            text = f"{speaker.who(seat)} keeps a card; the {NAME_OF[shown]} goes face up."
        else:
            text = (f"{speaker.who(seat)} discards the {NAME_OF[shown]} and takes the "
                    "next card.")
        out.append({"kind": "draw", "step": step, "seat": seat, "keep": action.keep,
                    "card": CODE_OF[shown], "text": text})
    elif isinstance(action, PassCards):
        giver, receiver = hand.pending[0]
        event: Json = {"kind": "pass", "step": step, "from": giver, "to": receiver}
        if viewer in (giver, receiver):
            names = " and the ".join(NAME_OF[c] for c in action.cards)
            event["cards"] = codes(action.cards)
            target = "you" if receiver == viewer else speaker.who(receiver)
            event["text"] = speaker.says(giver, "pass", f"{target} the {names}")
        else:
            event["text"] = speaker.says(
                giver, "pass", f"{len(action.cards)} cards to {speaker.who(receiver)}")
        out.append(event)
    elif isinstance(action, Exchange):
        out.append({"kind": "exchange", "step": step, "seat": seat, "take": action.take,
                    "text": speaker.says(seat, "swap", "the two of clubs for the kitty")
                    if action.take else speaker.says(seat, "keep", "the two of clubs")})
    if len(after.results) > len(before.results):
        out.extend(hand_end_events(after, step, speaker))
    return out


def hand_end_events(after: GameState, step: int, speaker: Speaker) -> list[Json]:
    result = after.results[-1]
    sides = after.rules.sides
    line = SheetLine(number=result.number, dealer=result.dealer, bids=result.bids,
                     tricks=result.tricks, points=result.score.points,
                     bags=result.score.bags, scores=result.score.scores)
    parts = []
    for index, side in enumerate(sides):
        bid = " + ".join(_bid_words(result.bids[s]) for s in side)
        took = sum(result.tricks[s] for s in side)
        points = result.score.points[index]
        parts.append(f"{speaker.side(index)} bid {bid}, took {took}: {points} points.")
    scores = " to ".join(str(s) for s in result.score.scores)
    out: list[Json] = [{
        "kind": "hand", "step": step, "hand_number": result.number + 1,
        "line": sheet_line(line, sides),
        "text": f"Hand {result.number + 1}: " + " ".join(parts) + f" Score {scores}."}]
    if after.over:
        winner = after.winner
        text = "The game is over."
        if winner is not None:
            verb = "win" if speaker.viewer in sides[winner] or len(sides[winner]) > 1 else "wins"
            text = f"{speaker.side(winner)} {verb}, {scores}."
        out.append({"kind": "game", "step": step, "winner": winner,
                    "scores": list(after.scores), "text": text})
    else:
        new = after.hand
        out.append({"kind": "deal", "step": step, "hand_number": new.number + 1,
                    "dealer": new.dealer,
                    "text": f"Hand {new.number + 1}: {speaker.says(new.dealer, 'deal', '')}"})
    return out


def look_event(step: int) -> Json:
    return {"kind": "look", "step": step, "text": "You look at your cards."}
