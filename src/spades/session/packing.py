"""What goes down a thinking process's pipe: a job pickled for less CPU than pickle's own
way with the engine's values.

A computer player's decision sends its seat's view to a thinking process. Pickled as it
is, most of the server's work goes to the game's ``Rules`` (the same for every decision of
a game, and the largest value of a view) and to the frozen dataclasses' generic state
(``fields()`` looked up for every card, bid and score-sheet line). Here:

- the rules go once to each process, then by their number (``Packer``, one per process;
  the process keeps the last ``KEEP`` rules it was sent, as the ``Packer`` remembers
  sending them: both forget the oldest first, so a number always names what it named);
- cards, actions, score-sheet lines and views are pickled as their class and fields in
  order, which their ``__init__`` takes back (checked for each class when this module is
  imported);
- the cards of a view's hand and discards and of its finished tricks go as bytes, a byte a
  card (most of a view's objects are its cards: one object each, pickled alone, cost more
  than the rest of the view together);
- a view's score sheet, the same for all the views of a hand (the session keeps one), goes
  once to each process, then by its number, as the rules.

Only the server's own processes read these pickles: ``_learn``, ``_known``, ``_unview`` and
``_untrick`` are what the pickles call there.
"""

from __future__ import annotations

import copyreg
import dataclasses
import io
import pickle  # nosec B403 - between the server and its own thinking processes only
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from spades.engine import (
    CARDS,
    Bid,
    Card,
    Draw,
    Exchange,
    Look,
    PassCards,
    Play,
    PlayerView,
    Rules,
    SheetLine,
    Trick,
)

#: The rules a thinking process keeps (and a ``Packer`` remembers having sent it).
KEEP = 256
#: Classes pickled as ``cls(*fields)``: their fields are their slots, in order, each taken
#: by ``__init__`` in that order.
FLAT: tuple[type, ...] = (SheetLine, Bid, Play, Draw, Exchange, Look, PassCards)
#: A view's fields (its slots, in order) and those that hold cards, sent as bytes.
VIEW_FIELDS: tuple[str, ...] = PlayerView.__slots__
VIEW_CARDS: tuple[int, ...] = tuple(VIEW_FIELDS.index(name) for name in ("hand", "discards"))
#: Where a view's score sheet is (sent once a hand, then by its number, as the rules).
VIEW_SHEET = VIEW_FIELDS.index("sheet")

#: The rules this thinking process was sent, by number (in the process only).
_rules: OrderedDict[int, Rules] = OrderedDict()
#: The score sheets this thinking process was sent, by number (in the process only).
_sheets: OrderedDict[int, tuple[SheetLine, ...]] = OrderedDict()


def _learn(number: int, data: bytes) -> Rules:
    """In a thinking process: rules sent for the first time, kept under ``number``."""
    rules: Rules = pickle.loads(data)  # nosec B301 - the server's own pickle
    _rules[number] = rules
    while len(_rules) > KEEP:
        _rules.popitem(last=False)
    return rules


def _known(number: int) -> Rules:
    """In a thinking process: rules sent before under ``number``."""
    return _rules[number]


def _flat(value: Any) -> tuple[type, tuple[Any, ...]]:
    cls = type(value)
    return cls, tuple([getattr(value, name) for name in cls.__slots__])


def _card(card: Card) -> tuple[type, tuple[int]]:
    return Card, (int(card),)


def _unview(*values: Any) -> PlayerView:
    """In a thinking process: a view sent by ``Packer._view`` (its sheet a number, or a
    number and the sheet sent for the first time)."""
    fields = list(values)
    for index in VIEW_CARDS:
        fields[index] = tuple([CARDS[i] for i in fields[index]])
    sheet = fields[VIEW_SHEET]
    if isinstance(sheet, int):
        fields[VIEW_SHEET] = _sheets[sheet]
    else:
        number, fields[VIEW_SHEET] = sheet
        _sheets[number] = fields[VIEW_SHEET]
        while len(_sheets) > KEEP:
            _sheets.popitem(last=False)
    return PlayerView(*fields)


def _trick(trick: Trick) -> tuple[Callable[..., Trick], tuple[int, bytes, int]]:
    return _untrick, (trick.leader, bytes(trick.cards), trick.winner)


def _untrick(leader: int, cards: bytes, winner: int) -> Trick:
    """In a thinking process: a finished trick sent by ``_trick``."""
    return Trick(leader, tuple([CARDS[i] for i in cards]), winner)


def _check_flat(cls: type) -> None:
    fields = [f.name for f in dataclasses.fields(cls)]
    if fields != list(getattr(cls, "__slots__", ())):
        raise TypeError(f"{cls.__name__}: its fields are not its slots in order")


for _cls in (*FLAT, PlayerView):
    _check_flat(_cls)


class Packer:
    """Pickles the jobs for one thinking process, its rules sent once (a new process needs
    a new ``Packer``)."""

    def __init__(self) -> None:
        #: by kind ("rules", "sheet"): id of a value sent -> (the value, kept alive so that
        #: the id is not reused; its number)
        self._sent: dict[str, OrderedDict[int, tuple[Any, int]]] = {
            "rules": OrderedDict(), "sheet": OrderedDict()}
        self._next = 0
        #: the values first sent by the message being packed (kind, id)
        self._fresh: list[tuple[str, int]] = []
        table: dict[type, Callable[[Any], Any]] = dict(copyreg.dispatch_table)
        table.update({cls: _flat for cls in FLAT})
        table[Card] = _card
        table[PlayerView] = self._view
        table[Trick] = _trick
        table[Rules] = self._rules
        self._table = table

    def _number(self, kind: str, value: Any) -> tuple[int, bool]:
        """``value``'s number in this packer's process, and whether this message is the
        first to send it (the process forgets the oldest past ``KEEP``, as this does)."""
        sent = self._sent[kind]
        found = sent.get(id(value))
        if found is not None and found[0] is value:
            return found[1], False
        number, self._next = self._next, self._next + 1
        sent[id(value)] = (value, number)
        self._fresh.append((kind, id(value)))
        while len(sent) > KEEP:
            sent.popitem(last=False)
        return number, True

    def _rules(self, rules: Rules) -> tuple[Callable[..., Rules], tuple[Any, ...]]:
        number, fresh = self._number("rules", rules)
        if not fresh:
            return _known, (number,)
        return _learn, (number, pickle.dumps(rules, pickle.HIGHEST_PROTOCOL))

    def _view(self, view: PlayerView) -> tuple[Callable[..., PlayerView], tuple[Any, ...]]:
        """A view's fields in order; its cards as bytes, its score sheet (the same for a
        hand's views: the session keeps one) sent once, then by number."""
        values = [getattr(view, name) for name in VIEW_FIELDS]
        for index in VIEW_CARDS:
            values[index] = bytes(values[index])
        number, fresh = self._number("sheet", view.sheet)
        values[VIEW_SHEET] = (number, view.sheet) if fresh else number
        return _unview, tuple(values)

    def pack(self, message: Any) -> bytes:
        """``message`` pickled for this packer's process (which must read every message
        packed, in order: a number names rules sent in an earlier one)."""
        out = io.BytesIO()
        pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = self._table
        self._fresh.clear()
        try:
            pickler.dump(message)
        except BaseException:  # nothing is sent: what it would have sent first is not
            for kind, key in self._fresh:
                self._sent[kind].pop(key, None)
            raise
        return out.getvalue()
