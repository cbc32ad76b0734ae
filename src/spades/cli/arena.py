"""``spades arena``: pit two computer players against each other on duplicate deals.

    spades arena normal easy --deals 400 --jobs 2
    spades arena hard:iterations=300 normal --preset jokers --set target_score=300 --games 50
    spades arena hard normal --deals 20 --json --plot arena.png
    spades arena hard --field easy,normal,frozen --deals 300 --jobs 2

A player is a level with options, or a path to a player module outside the package
(``bench/yardstick``, the frozen Normal, also called ``frozen`` from the project's root).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from spades.ai.arena import (
    ArenaConfig,
    ArenaReport,
    Contender,
    Interval,
    LevelReport,
    parse_contender,
    parse_field,
    run_arena,
)
from spades.ai.chairs import CHAIRS
from spades.engine import RulesError

from .options import add_rules_arguments, rules_from_args


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena", help="pit two computer players against each other on duplicate deals",
        description="Play two computer players against each other. Every deal is played "
                    "twice with the players' chairs swapped (see --chairs), so the luck "
                    "of the cards cancels; figures come with 95 % confidence intervals. "
                    "A player is a level (random, easy, normal, hard) with optional "
                    "settings, e.g. "
                    "hard:iterations=300,time_limit=0.5, or the path of a player module "
                    "with a make_player() function; 'frozen' is the frozen Normal kept in "
                    "bench/yardstick (run from the project's root).")
    parser.add_argument("first", metavar="PLAYER", help="the first player, e.g. normal")
    parser.add_argument("second", metavar="OPPONENT", nargs="?", default=None,
                        help="the second player, e.g. easy (or give --field)")
    parser.add_argument("--field", metavar="PLAYERS", default=None,
                        help="play PLAYER against these opponents in turn, one deal each, "
                             "e.g. easy,normal,frozen; figures for the whole field and "
                             "for each opponent")
    add_rules_arguments(parser)
    parser.add_argument("--deals", type=int, default=100,
                        help="deals to play, each twice (default 100; one hand each)")
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="play N whole games to the target score instead, each twice")
    parser.add_argument("--max-hands", type=int, default=80,
                        help="stop a game after this many hands (default 80)")
    parser.add_argument("--chairs", choices=CHAIRS, default="rotate",
                        help="how the players share the chairs where each plays for "
                             "themselves: rotate (default) gives the deals in turn every "
                             "way to split the chairs, each twice with the chairs swapped; "
                             "every plays each deal in every way; swap is the arena before "
                             "issue 40 (the even chairs, then the odd). Partnership: the "
                             "sides swapped in every mode")
    parser.add_argument("--seed", default="0", help="seed of the deals (default 0)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="draw the report to a PNG file (matplotlib)")
    parser.set_defaults(func=run)


def _config(args: argparse.Namespace) -> ArenaConfig:
    rules = rules_from_args(args)
    first = parse_contender(args.first)
    if (args.second is None) == (args.field is None):
        raise ValueError("name one OPPONENT or a --field of opponents, not both or neither")
    field = parse_field(args.field) if args.field is not None else ()
    second = parse_contender(args.second) if args.second is not None else field[0]
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    if args.games is not None:
        return ArenaConfig((first, second), rules, deals=args.games, seed=seed, mode="games",
                           max_hands=args.max_hands, chairs=args.chairs)
    return ArenaConfig((first, second), rules, deals=args.deals, seed=seed, mode="deals",
                       max_hands=args.max_hands, chairs=args.chairs)


def run(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
        if config.deals < 1:
            raise ValueError("--deals and --games must be at least 1")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        field = parse_field(args.field) if args.field is not None else ()
        for contender in (*config.contenders, *field):
            contender.make()
    except (RulesError, ValueError, TypeError, ImportError, OSError) as error:
        print(f"spades arena: {error}", file=sys.stderr)
        return 2
    report = _run_with_progress(config, args.jobs, quiet=args.json, field=field)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, default=str, allow_nan=False))
    else:
        print_report(report)
    if args.plot:
        plot_report(report, args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    return 0


def _run_with_progress(config: ArenaConfig, jobs: int, *, quiet: bool,
                       field: tuple[Contender, ...] = ()) -> ArenaReport:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    unit = "games" if config.mode == "games" else "deals"
    first, second = (c.label for c in config.contenders)
    if field:
        second = "field " + ",".join(c.label for c in field)
    console = Console(stderr=True)
    with Progress(TextColumn(f"{first} vs {second}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn(unit), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, transient=quiet, disable=quiet) as progress:
        task = progress.add_task("arena", total=config.deals)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return run_arena(config, jobs=jobs, progress=advance, field=field)


def _fmt(interval: Interval | None, scale: float = 1.0, digits: int = 1,
         suffix: str = "") -> str:
    if interval is None or math.isnan(interval.value):
        return "-"
    low = interval.low * scale
    high = interval.high * scale
    bounds = "" if not (math.isfinite(low) and math.isfinite(high)) else (
        f" [{low:.{digits}f}, {high:.{digits}f}]")
    return f"{interval.value * scale:.{digits}f}{suffix}{bounds}"


def print_report(report: ArenaReport) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    unit = "game" if report.mode == "games" else "deal"
    table = Table(title=f"{report.rules.name}: {report.deals} duplicate {unit}s "
                        f"({report.hands} hands), seed {report.seed}, 95 % intervals")
    table.add_column("")
    for level in report.levels:
        table.add_column(level.label, justify="right")
    rows: list[tuple[str, list[str]]] = [
        (f"points per {unit} (its seats' mean)", [_fmt(lv.points) for lv in report.levels]),
        (f"points per {unit} (duplicate)",
         [_fmt(lv.duplicate_points) for lv in report.levels]),
        ("  with bags charged", [_fmt(lv.duplicate_points_bags_charged)
                                 for lv in report.levels]),
        ("games won", [_fmt(lv.games_won, 100, 1, " %") if lv.games_won else "-"
                       for lv in report.levels]),
        ("bids made", [_fmt(lv.bids_made, 100, 1, " %") for lv in report.levels]),
        ("sets", [_fmt(lv.sets, 100, 1, " %") for lv in report.levels]),
        ("nil made / attempted", [_nil(lv) for lv in report.levels]),
        ("bags per hand", [_fmt(lv.bags_per_hand, 1, 2) for lv in report.levels]),
        ("tricks - bid, by bid order", ["" for _ in report.levels]),
        *_calibration_rows(report),
        ("decision p50 (ms)", [_fmt(lv.decision_p50, 1000, 1) for lv in report.levels]),
        ("decision p95 (ms)", [_fmt(lv.decision_p95, 1000, 1) for lv in report.levels]),
        ("decisions", [str(lv.decisions) for lv in report.levels]),
    ]
    for name, cells in rows:
        table.add_row(name, *cells)
    console.print(table)
    console.print(f"chairs: {report.chairs}")
    if report.field:
        _print_field(console, report)
    margin = report.margin
    first, second = (lv.label for lv in report.levels)
    if margin.low > 0:
        verdict = f"{first} is stronger"
    elif margin.high < 0:
        verdict = f"{second} is stronger"
    else:
        verdict = "no clear difference yet: play more deals"
    console.print(f"{first} - {second}: {_fmt(margin)} points per {unit}; "
                  f"{_fmt(report.margin_bags_charged)} with bags charged their share of the "
                  f"penalty; {verdict} ({report.seconds:.1f} s)")


_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def _calibration_rows(report: ArenaReport) -> list[tuple[str, list[str]]]:
    """One row per position in the bidding order: mean tricks taken minus mean bid."""
    positions = max((len(lv.calibration) for lv in report.levels), default=0)
    rows = []
    for position in range(positions):
        cells = []
        for level in report.levels:
            if position < len(level.calibration) and level.calibration_bids[position]:
                cells.append(f"{_fmt(level.calibration[position], 1, 2)} "
                             f"({level.calibration_bids[position]} bids)")
            else:
                cells.append("-")
        rows.append((f"  {_ORDINALS[position]} to bid", cells))
    return rows


def _print_field(console: Any, report: ArenaReport) -> None:
    from rich.table import Table

    unit = "game" if report.mode == "games" else "deal"
    first = report.levels[0].label
    table = Table(title=f"{first} against each opponent of the field")
    for name in ("opponent", unit + "s", f"{first} points per {unit}", "with bags charged",
                 f"{first} sets", "opponent sets", f"{first} bags/hand", "opponent bags/hand"):
        table.add_column(name, justify="right")
    for part in report.field:
        mine, theirs = part.levels
        table.add_row(theirs.label, str(part.deals), _fmt(mine.duplicate_points),
                      _fmt(mine.duplicate_points_bags_charged),
                      _fmt(mine.sets, 100, 1, " %"), _fmt(theirs.sets, 100, 1, " %"),
                      _fmt(mine.bags_per_hand, 1, 2), _fmt(theirs.bags_per_hand, 1, 2))
    console.print(table)


def _nil(level: LevelReport) -> str:
    if not level.nil_attempts:
        return "0 / 0"
    made = round(level.nil_made.value * level.nil_attempts)
    return f"{made} / {level.nil_attempts}"


def plot_report(report: ArenaReport, path: str) -> None:
    """Bars with 95 % error bars: duplicate points, rates, bags and decision times."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [lv.label for lv in report.levels]
    panels: list[tuple[str, list[Interval | None], float]] = [
        (f"points per {'game' if report.mode == 'games' else 'deal'}",
         [lv.duplicate_points for lv in report.levels], 1.0),
        ("bids made (%)", [lv.bids_made for lv in report.levels], 100.0),
        ("sets (%)", [lv.sets for lv in report.levels], 100.0),
        ("bags per hand", [lv.bags_per_hand for lv in report.levels], 1.0),
        ("decision p95 (ms)", [lv.decision_p95 for lv in report.levels], 1000.0),
    ]
    if report.mode == "games":
        panels.insert(1, ("games won (%)", [lv.games_won for lv in report.levels], 100.0))
    fig, axes = plt.subplots(1, len(panels) + 1, figsize=(3.2 * (len(panels) + 1), 3.6))
    colours = ["#1f6f8b", "#d1495b"]
    _plot_calibration(axes[-1], report, colours)
    for ax, (title, values, scale) in zip(axes[:-1], panels, strict=True):
        heights = []
        errors: list[list[float]] = [[], []]
        for interval in values:
            if interval is None or not math.isfinite(interval.value):
                heights.append(0.0)
                errors[0].append(0.0)
                errors[1].append(0.0)
                continue
            v = interval.value * scale
            heights.append(v)
            low = interval.low * scale if math.isfinite(interval.low) else v
            high = interval.high * scale if math.isfinite(interval.high) else v
            errors[0].append(max(0.0, v - low))
            errors[1].append(max(0.0, high - v))
        ax.bar(labels, heights, yerr=errors, capsize=6, color=colours)
        ax.set_title(title, fontsize=10)
        ax.axhline(0, color="#444", linewidth=0.8)
        ax.tick_params(axis="x", labelrotation=15, labelsize=8)
    fig.suptitle(f"spades arena: {report.rules.name}, {report.deals} duplicate "
                 f"{'games' if report.mode == 'games' else 'deals'} (95 % intervals)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _plot_calibration(ax: Any, report: ArenaReport, colours: list[str]) -> None:
    """Grouped bars: mean tricks taken minus mean bid by position in the bidding order."""
    width = 0.38
    for number, level in enumerate(report.levels):
        xs, heights, low, high = [], [], [], []
        for position, interval in enumerate(level.calibration):
            if not math.isfinite(interval.value):
                continue
            xs.append(position + 1 + (number - 0.5) * width)
            heights.append(interval.value)
            low.append(interval.value - interval.low if math.isfinite(interval.low) else 0.0)
            high.append(interval.high - interval.value if math.isfinite(interval.high)
                        else 0.0)
        ax.bar(xs, heights, width=width, yerr=[low, high], capsize=4,
               color=colours[number], label=level.label)
    ax.set_title("tricks - bid, by bid order", fontsize=10)
    ax.axhline(0, color="#444", linewidth=0.8)
    ax.set_xlabel("position in the bidding", fontsize=8)
    ax.legend(fontsize=7)
