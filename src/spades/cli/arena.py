"""``spades arena``: pit two computer players against each other on duplicate deals.

    spades arena normal easy --deals 400 --jobs 2
    spades arena hard:iterations=300 normal --preset jokers --set target_score=300 --games 50
    spades arena hard normal --deals 20 --json --plot arena.png
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
    Interval,
    LevelReport,
    parse_contender,
    run_arena,
)
from spades.engine import RulesError

from .options import add_rules_arguments, rules_from_args


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena", help="pit two computer players against each other on duplicate deals",
        description="Play two computer players against each other. Every deal is played "
                    "twice with the players' chairs swapped, so the luck of the cards "
                    "cancels; figures come with 95 % confidence intervals. A player is a "
                    "level (random, easy, normal, hard) with optional settings, e.g. "
                    "hard:iterations=300,time_limit=0.5.")
    parser.add_argument("first", metavar="PLAYER", help="the first player, e.g. normal")
    parser.add_argument("second", metavar="OPPONENT", help="the second player, e.g. easy")
    add_rules_arguments(parser)
    parser.add_argument("--deals", type=int, default=100,
                        help="deals to play, each twice (default 100; one hand each)")
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="play N whole games to the target score instead, each twice")
    parser.add_argument("--max-hands", type=int, default=80,
                        help="stop a game after this many hands (default 80)")
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
    second = parse_contender(args.second)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    if args.games is not None:
        return ArenaConfig((first, second), rules, deals=args.games, seed=seed, mode="games",
                           max_hands=args.max_hands)
    return ArenaConfig((first, second), rules, deals=args.deals, seed=seed, mode="deals",
                       max_hands=args.max_hands)


def run(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
        if config.deals < 1:
            raise ValueError("--deals and --games must be at least 1")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        for contender in config.contenders:
            contender.make()
    except (RulesError, ValueError, TypeError, ImportError) as error:
        print(f"spades arena: {error}", file=sys.stderr)
        return 2
    report = _run_with_progress(config, args.jobs, quiet=args.json)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, default=str, allow_nan=False))
    else:
        print_report(report)
    if args.plot:
        plot_report(report, args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    return 0


def _run_with_progress(config: ArenaConfig, jobs: int, *, quiet: bool) -> ArenaReport:
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
    console = Console(stderr=True)
    with Progress(TextColumn(f"{first} vs {second}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn(unit), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, transient=quiet, disable=quiet) as progress:
        task = progress.add_task("arena", total=config.deals)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return run_arena(config, jobs=jobs, progress=advance)


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
        ("decision p50 (ms)", [_fmt(lv.decision_p50, 1000, 1) for lv in report.levels]),
        ("decision p95 (ms)", [_fmt(lv.decision_p95, 1000, 1) for lv in report.levels]),
        ("decisions", [str(lv.decisions) for lv in report.levels]),
    ]
    for name, cells in rows:
        table.add_row(name, *cells)
    console.print(table)
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
        ("bags per hand", [lv.bags_per_hand for lv in report.levels], 1.0),
        ("decision p95 (ms)", [lv.decision_p95 for lv in report.levels], 1000.0),
    ]
    if report.mode == "games":
        panels.insert(1, ("games won (%)", [lv.games_won for lv in report.levels], 100.0))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.6))
    colours = ["#1f6f8b", "#d1495b"]
    for ax, (title, values, scale) in zip(axes, panels, strict=True):
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
