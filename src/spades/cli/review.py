"""``spades review RECORD.json [--hand N] [--json]``: a double-dummy review of finished
hands (docs/review.md): for each play, the tricks its side could take under best play before
and after it, and the plays that cost a trick, took a bag that mattered or broke a nil."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from spades.ai.hindsight import HardChoice, choices_json, hard_choices
from spades.ai.review import HandReview, ReviewError, finished_hand, review_hand
from spades.engine import RecordError, parse_record, replay

from .replay import Unreadable, open_record, refuse


def register(sub: Any) -> None:
    parser = sub.add_parser("review", help="double-dummy review of a record's finished hands",
                            description="For each play of a finished hand, the tricks its "
                                        "side could still take under best play (every hand "
                                        "visible) before and after it; the plays that cost "
                                        "a trick, took a bag that mattered or broke a nil, "
                                        "and each side's double-dummy par beside its bids. "
                                        "Exit code 2 when the record cannot be read or the "
                                        "hand is not finished.")
    parser.add_argument("record", help="a game record (JSON); - reads standard input")
    parser.add_argument("--hand", type=int, default=None,
                        help="review only this hand (from 1); default: every finished hand")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--hard", default=None, metavar="SEATS",
                        help="what Hard would have done beside the bids and cards of these "
                             "seats (e.g. 0 or 0,2; 'none' for no Hard column); default: "
                             "the record's people (every seat when it does not say)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = parse_record(open_record(args.record))
        state = replay(record)
        seats = _hard_seats(args.hard, record.levels, state.rules.players)
    except (Unreadable, RecordError, ValueError) as error:
        return refuse("review", args.record, str(error))
    try:
        if args.hand is not None:
            finished_hand(state, args.hand)
            numbers = [args.hand]
        else:
            numbers = list(range(1, len(state.results) + 1))
            if not numbers:
                raise ReviewError("no hand is finished: a review is only for a finished hand")
    except ReviewError as error:
        return refuse("review", args.record, str(error))
    err = Console(stderr=True)
    reviews: list[HandReview] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        for number in numbers:
            task = bar.add_task(f"hand {number}", total=None)

            def step(done: int, total: int, task: Any = task) -> None:
                bar.update(task, completed=done, total=total)

            reviews.append(review_hand(state, number, step))
            bar.remove_task(task)
        hard = [[] if not seats else hard_choices(state, r.hand, r, seats=seats)
                for r in reviews]
    if args.json:
        print(json.dumps({"format": "spades-review/1",
                          "hands": [{**r.to_json(), **({"hard": choices_json(h)} if seats else {})}
                                    for r, h in zip(reviews, hard, strict=True)]}))
        return 0
    console = Console()
    for review, choices in zip(reviews, hard, strict=True):
        _show(console, review, choices)
    return 0


def _hard_seats(text: str | None, levels: tuple[str | None, ...] | None,
                players: int) -> tuple[int, ...]:
    """The seats of the Hard column: ``text`` ("0,2", "none"), else the record's people."""
    if text is None:
        people = tuple(s for s, level in enumerate(levels or ()) if level is None)
        return people if levels is not None else tuple(range(players))
    if text.strip().lower() == "none":
        return ()
    try:
        seats = tuple(sorted({int(part) for part in text.split(",")}))
    except ValueError:
        raise ValueError(f"--hard takes seats such as 0 or 0,2 (or none), not {text!r}") from None
    if any(not 0 <= s < players for s in seats):
        raise ValueError(f"--hard: the seats are 0 to {players - 1}, not {text!r}")
    return seats


def _show(console: Console, review: HandReview, choices: list[HardChoice]) -> None:
    sides = Table(title=f"Hand {review.hand}: bids and double-dummy par", box=box.SIMPLE)
    for name in ("side", "seats", "bids", "par", "took"):
        sides.add_column(name)
    for side in review.sides:
        par = ("" if side.exact else "≈ ") + str(side.par)
        sides.add_row(str(side.side), " ".join(str(s) for s in side.seats),
                      " + ".join(str(b) for b in side.bids), par, str(side.took))
    console.print(sides)
    for bid in (c for c in choices if c.kind == "bid"):
        console.print(f"Seat {bid.seat} bid {bid.played}; Hard would have bid {bid.hard}.")
    hard = {(c.trick, c.seat): c for c in choices if c.kind == "play"}
    plays = Table(box=box.SIMPLE, title=f"Hand {review.hand}: every play")
    for name in ("trick", "seat", "card", "before", "after", "hard", "note"):
        plays.add_column(name)
    for play in review.plays:
        note = " ".join(m.text for m in play.marks)
        style = "bold red" if play.marks else None
        about = "" if play.exact else "≈ "  # an estimate (docs/review.md)
        plays.add_row(str(play.trick), str(play.seat), play.card, about + str(play.before),
                      about + str(play.after), _hard_cell(hard.get((play.trick, play.seat))),
                      note, style=style)
    console.print(plays)
    if choices:
        console.print("hard: the card Hard would have played from that seat's view "
                      "(= the same), and the side's tricks under best play after it.")
    for text in review.notes:
        console.print(text)
    marked = sum(1 for p in review.plays if p.marks)
    console.print(f"{marked} play(s) marked; {review.positions} positions solved.")


def _hard_cell(choice: HardChoice | None) -> str:
    """"=" (the same card), "QH 4" (Hard's card and its worth), "QH" (worth unknown)."""
    if choice is None:
        return ""
    if choice.same:
        return "="
    worth = "" if choice.hard_tricks is None else f" {choice.hard_tricks}"
    return f"{choice.hard}{worth}"
