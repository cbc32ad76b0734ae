"""Matches between computer players, with duplicate deals and 95 % confidence intervals.

Two contenders (a level and its options, e.g. ``hard:iterations=300``) meet on the same
deals twice, once in each chair: in a partnership game contender A holds side 0 and then
side 1; in an each-for-yourself game the ways to split the chairs between them take turns
deal by deal, each played twice with the chairs swapped (``chairs.py``: ``rotate``; or
every way on every deal, ``every``; or the even chairs then the odd, ``swap``). Luck in
the cards cancels, so the difference of the runs is the skill. A contender's points in a
run are the mean of the seats it holds; its points per deal, the mean over the deal's
runs. ``deals`` mode plays one hand per deal from a 0-0 score; ``games`` mode plays whole
games to the target.

A contender may also be a player kept outside the package, named by the path of a Python
file or package directory with a ``make_player(**options)`` function: ``bench/yardstick``
(alias ``frozen``) is the frozen Normal that progress is measured against. Against a
``field`` of opponents, the first contender meets each in turn. Besides the duplicate
margin, the report gives each contender's set rate, bags per hand and bid calibration by
position in the bidding order (mean tricks taken minus mean bid).

Everything here is pure logic (no printing); ``spades arena`` shows it. Deals run in worker
processes (``concurrent.futures.ProcessPoolExecutor``) when ``jobs`` > 1.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from spades.engine import (
    BLIND_NIL,
    Action,
    Bid,
    GameState,
    HandResult,
    Look,
    PlayerView,
    Rules,
    apply,
    new_game,
    penalty_at_limit,
    player_view,
    preset_overrides,
)

from .base import Player
from .chairs import ChairPlan, Chairs
from .kernel import NIL, PLAIN, rulebook_of, side_points
from .levels import make_player

Mode = Literal["deals", "games"]
Z95 = 1.959963984540054


# ---------------------------------------------------------------------------- contenders

@dataclass(frozen=True)
class Contender:
    """A level and the options its player is built with."""

    level: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        if not self.options:
            return self.level
        return self.level + ":" + ",".join(f"{key}={value}" for key, value in self.options)

    def make(self) -> Player:
        return make_contender(self.level, **dict(self.options))


#: The short name of the frozen Normal kept under ``bench/`` (run from the project's root).
FROZEN = "frozen"
FROZEN_PATH = "bench/yardstick"


def make_contender(level: str, **options: Any) -> Player:
    """A level's player, or a player from outside the package: a path to a Python file or
    to a package directory whose ``make_player(**options)`` builds it (``frozen`` is the
    frozen Normal, ``bench/yardstick``). The measuring sticks of ``bench/`` stay out of
    ``src`` this way, and the arena can still seat them."""
    if level == FROZEN:
        level = FROZEN_PATH
        if not Path(level).is_dir():
            raise ValueError(f"{FROZEN}: {FROZEN_PATH} is not here; run from the project's "
                             f"root or give the yardstick's path")
    if "/" not in level and not level.endswith(".py"):
        return make_player(level, **options)
    factory = getattr(_player_module(level), "make_player", None)
    if not callable(factory):
        raise ValueError(f"{level}: the module has no make_player(**options) function")
    player: Player = factory(**options)
    return player


def _player_module(path: str) -> ModuleType:
    place = Path(path)
    if place.is_dir() and (place / "__init__.py").is_file():
        init, search = place / "__init__.py", [str(place)]
    elif place.suffix == ".py" and place.is_file():
        init, search = place, None
    else:
        raise ValueError(f"{path}: not a player module (a .py file or a package directory)")
    name = "spades_player_" + hashlib.sha1(str(init.resolve()).encode(),
                                               usedforsecurity=False).hexdigest()[:12]
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, init,
                                                      submodule_search_locations=search)
        if spec is None or spec.loader is None:
            raise ValueError(f"{path}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module


def parse_value(text: str) -> Any:
    """``3`` -> 3, ``0.5`` -> 0.5, ``true``/``false``, ``none``/``null`` -> None, else text."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text.strip()


def parse_contender(spec: str) -> Contender:
    """``"hard"`` or ``"hard:iterations=300,time_limit=none"``."""
    level, _, rest = spec.partition(":")
    level = level.strip()
    if "/" not in level and not level.endswith(".py"):
        level = level.lower()
    if not level:
        raise ValueError(f"{spec!r}: name a level, e.g. normal or hard:iterations=300")
    options: list[tuple[str, Any]] = []
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{spec!r}: write options as key=value, not {part!r}")
        options.append((key.strip(), parse_value(value)))
    return Contender(level, tuple(options))


@dataclass(frozen=True)
class ArenaConfig:
    contenders: tuple[Contender, Contender]
    rules: Rules
    deals: int = 100
    seed: int | str = 0
    mode: Mode = "deals"
    max_hands: int = 80
    #: how the contenders share the chairs (``chairs.py``)
    chairs: Chairs = "rotate"
    #: opponents of a field taking turns on the deals (the chairs move on once a round)
    turns: int = 1

    @property
    def plan(self) -> ChairPlan:
        return ChairPlan(self.rules, self.chairs, self.turns)


def seat_contenders(config: ArenaConfig, index: int, run: int) -> list[int]:
    """Which contender (0 or 1) plays each seat in run ``run`` of deal ``index``."""
    return config.plan.runs(index)[run]


def deal_runs(config: ArenaConfig, index: int) -> int:
    """How many runs deal ``index`` is played in (two, or two per arrangement)."""
    return len(config.plan.runs(index))


# ---------------------------------------------------------------------------- one deal

@dataclass
class Tally:
    """What one contender did in some hands. A side-hand is one side's part of one hand."""

    side_hands: int = 0
    contracts: int = 0
    made: int = 0
    sets: int = 0
    nil_attempts: int = 0
    nil_made: int = 0
    bags: int = 0
    points: int = 0
    games: int = 0
    wins: int = 0
    times: list[float] = field(default_factory=list)
    #: ``calibration[p]``: tricks taken minus tricks bid, one entry per plain (not nil) bid
    #: made from position ``p`` of the bidding order (0 = first to bid)
    calibration: list[list[float]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("side_hands", "contracts", "made", "sets", "nil_attempts", "nil_made",
                     "bags", "points", "games", "wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times.extend(other.times)
        for position, values in enumerate(other.calibration):
            self.bid_at(position).extend(values)

    def bid_at(self, position: int) -> list[float]:
        """The calibration list of a bidding position (made on first use)."""
        while len(self.calibration) <= position:
            self.calibration.append([])
        return self.calibration[position]


@dataclass
class DealOutcome:
    """Both runs of one deal: contender 0's duplicate margin (points as scored, and with
    each hand's new bags charged their share of the bag penalty) and the tallies."""

    index: int
    margin: float
    margin_bags_charged: float
    hands: int
    tallies: tuple[Tally, Tally]
    #: each contender's points: the mean over the runs of the mean of the seats it held
    #: (``margin`` is the first minus the second)
    points: tuple[float, float] = (0.0, 0.0)


def tally_hand(rules: Rules, result: HandResult, who: list[int],
                tallies: tuple[Tally, Tally]) -> None:
    book = rulebook_of(rules)
    bids = [b.tricks for b in result.bids]
    nils = [NIL if b.nil else PLAIN for b in result.bids]
    order = [seat for seat, action in result.actions if isinstance(action, Bid)]
    for position, seat in enumerate(order):
        bid = result.bids[seat]
        if not bid.nil:
            tallies[who[seat]].bid_at(position).append(result.tricks[seat] - bid.tricks)
    for index, side in enumerate(rules.sides):
        tally = tallies[who[side[0]]]
        tally.side_hands += 1
        tally.points += result.score.points[index]
        tally.bags += side_points(book, side, bids, nils, result.tricks)[1]
        bidders = [s for s in side if not result.bids[s].nil]
        for s in side:
            if result.bids[s].nil:
                tally.nil_attempts += 1
                tally.nil_made += result.tricks[s] == 0
        if bidders:
            contract = sum(result.bids[s].tricks for s in bidders)
            taken = sum(result.tricks[s] for s in bidders)
            tally.contracts += 1
            if taken >= contract:
                tally.made += 1
            else:
                tally.sets += 1


def _side_mean(rules: Rules, values: tuple[float, ...], who: list[int],
               contender: int) -> float:
    seats = [s for s in range(rules.players) if who[s] == contender]
    return statistics.fmean(values[rules.side_of[s]] for s in seats)


def run_start(config: ArenaConfig, index: int,
              run: int) -> tuple[list[int], list[Player], list[random.Random], GameState]:
    """Run ``run`` of deal ``index`` before its first action: each seat's contender (0 or
    1), its player and its random stream, and the new game."""
    n = config.rules.players
    who = seat_contenders(config, index, run)
    players = [config.contenders[who[s]].make() for s in range(n)]
    # a seat's random stream depends on the deal and the seat, not on the run: swapping the
    # contenders replays run 0 as run 1 exactly
    rngs = [random.Random(f"{config.seed}/{index}/{s}") for s in range(n)]
    state = new_game(config.rules, seed=f"{config.seed}/{index}", first_dealer=index % n)
    return who, players, rngs, state


def play_run(config: ArenaConfig, index: int, run: int,
             tallies: tuple[Tally, Tally]) -> tuple[float, float, int, GameState]:
    """Run ``run`` of deal ``index``: contender 0's margin (points as scored, and bags
    charged), the hands played and the final state; each hand is added to ``tallies``."""
    rules = config.rules
    who, players, rngs, state = run_start(config, index, run)
    one_hand = config.mode == "deals"
    while not state.over and len(state.results) < (1 if one_hand else config.max_hands):
        seat = state.hand.turn
        view = player_view(state, seat)
        start = time.perf_counter()
        action = seat_choice(players[seat], view, rngs[seat])
        tallies[who[seat]].times.append(time.perf_counter() - start)
        state = apply(state, action)
    for result in state.results:
        tally_hand(rules, result, who, tallies)
    points = run_points(config, state)
    if not one_hand:
        for c in (0, 1):
            tallies[c].games += 1
        if state.over and state.winner is not None:
            winner_seat = rules.sides[state.winner][0]
            tallies[who[winner_seat]].wins += 1
    margin = _side_mean(rules, points, who, 0) - _side_mean(rules, points, who, 1)
    charged = tuple(p - c for p, c in zip(points, _bag_debt(rules, state), strict=True))
    margin_charged = (_side_mean(rules, charged, who, 0)
                      - _side_mean(rules, charged, who, 1))
    return margin, margin_charged, len(state.results), state


def run_points(config: ArenaConfig, state: GameState) -> tuple[int, ...]:
    """Each side's points at the end of a run: the hand's (``deals``) or the game's."""
    return state.results[0].score.points if config.mode == "deals" else state.scores


def contender_points(config: ArenaConfig, index: int, run: int,
                     state: GameState) -> tuple[float, float]:
    """Each contender's points in a finished run: the mean over the seats it held."""
    who = seat_contenders(config, index, run)
    points = run_points(config, state)
    return (_side_mean(config.rules, points, who, 0),
            _side_mean(config.rules, points, who, 1))


def seat_choice(player: Player, view: PlayerView, rng: random.Random) -> Action:
    """The player's choice; with its cards face down it may bid blind nil (judged on the
    score, as the players do), else it looks at them first."""
    if not view.face_down:
        return player.choose(view, rng)
    wants = BLIND_NIL in view.legal and getattr(player, "blind_nil", False)
    if wants and player.choose(view, rng) == BLIND_NIL:
        return BLIND_NIL
    return Look(view.seat)


def _bag_debt(rules: Rules, state: GameState) -> tuple[float, ...]:
    """Each side's bags at the end, charged their share of the next penalty (a side with
    7 bags of 10 owes 70 of the coming 100): what the bags will cost in the rest of a game."""
    if rules.bag_limit is None:
        return (0.0,) * len(rules.sides)
    share = penalty_at_limit(rules) / rules.bag_limit
    return tuple(share * bags for bags in state.bags)


def play_deal(config: ArenaConfig, index: int) -> DealOutcome:
    """Deal ``index`` played in each of its runs (twice with the contenders' chairs
    swapped, or so in every arrangement)."""
    tallies = (Tally(), Tally())
    margins = []
    charged = []
    points: list[tuple[float, float]] = []
    hands = 0
    for run in range(deal_runs(config, index)):
        margin, margin_charged, count, state = play_run(config, index, run, tallies)
        margins.append(margin)
        charged.append(margin_charged)
        points.append(contender_points(config, index, run, state))
        hands += count
    return DealOutcome(index=index, margin=statistics.fmean(margins),
                       margin_bags_charged=statistics.fmean(charged), hands=hands,
                       tallies=tallies,
                       points=(statistics.fmean(p[0] for p in points),
                               statistics.fmean(p[1] for p in points)))


# ---------------------------------------------------------------------------- statistics

@dataclass(frozen=True)
class Interval:
    """A figure and its 95 % confidence interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        """JSON-ready: an unknown or unbounded figure is null."""
        return {name: value if math.isfinite(value) else None
                for name, value in (("value", self.value), ("low", self.low),
                                    ("high", self.high))}


def mean_interval(values: Iterable[float]) -> Interval:
    xs = list(values)
    if not xs:
        return Interval(math.nan, math.nan, math.nan)
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return Interval(mean, -math.inf, math.inf)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs))
    return Interval(mean, mean - half, mean + half)


def proportion_interval(hits: float, total: int) -> Interval:
    """Wilson's interval for a rate."""
    if total <= 0:
        return Interval(math.nan, math.nan, math.nan)
    p = hits / total
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def quantile_interval(values: Iterable[float], q: float) -> Interval:
    """A quantile and its distribution-free interval (order statistics, binomial ranks)."""
    xs = sorted(values)
    n = len(xs)
    if not n:
        return Interval(math.nan, math.nan, math.nan)
    point = xs[min(n - 1, max(0, math.ceil(q * n) - 1))]
    spread = Z95 * math.sqrt(n * q * (1 - q))
    low = xs[max(0, math.floor(n * q - spread) - 1)]
    high = xs[min(n - 1, math.ceil(n * q + spread))]
    return Interval(point, low, high)


@dataclass
class LevelReport:
    label: str
    #: the contender's own points per deal (or game): in each run the mean of the seats it
    #: held, then the mean over the deal's runs
    points: Interval
    #: its points minus the other contender's, deal by deal
    duplicate_points: Interval
    duplicate_points_bags_charged: Interval
    games_won: Interval | None
    games: int
    bids_made: Interval
    sets: Interval
    nil_made: Interval
    nil_attempts: int
    bags_per_hand: Interval
    decision_p50: Interval
    decision_p95: Interval
    decisions: int
    #: by position in the bidding order (first to bid first): mean tricks taken minus
    #: mean tricks bid over plain bids, negative when the seat overbids; and how many bids
    calibration: tuple[Interval, ...] = ()
    calibration_bids: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key in ("calibration", "calibration_bids"):
                continue
            out[key] = value.to_dict() if isinstance(value, Interval) else value
        out["calibration"] = [
            {"position": position + 1, "bids": count, "tricks_minus_bid": interval.to_dict()}
            for position, (interval, count) in enumerate(
                zip(self.calibration, self.calibration_bids, strict=True))]
        return out


@dataclass
class ArenaReport:
    rules: Rules
    mode: Mode
    deals: int
    hands: int
    seed: int | str
    levels: tuple[LevelReport, LevelReport]
    margin: Interval
    margin_bags_charged: Interval
    seconds: float
    #: against a field: the report against each opponent of the field
    field: tuple[ArenaReport, ...] = ()
    #: how the chairs were assigned (``ChairPlan.describe``)
    chairs: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "preset": self.rules.name,
            "rules": preset_overrides(self.rules),
            "mode": self.mode,
            "deals": self.deals,
            "hands": self.hands,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "chairs": self.chairs,
            "margin": self.margin.to_dict(),
            "margin_bags_charged": self.margin_bags_charged.to_dict(),
            "levels": [level.to_dict() for level in self.levels],
        }
        if self.field:
            out["field"] = [report.to_dict() for report in self.field]
        return out


def _bags_interval(outcomes: list[DealOutcome], contender: int) -> Interval:
    per_deal = [o.tallies[contender].bags / o.tallies[contender].side_hands
                for o in outcomes if o.tallies[contender].side_hands]
    return mean_interval(per_deal)


def summarise(config: ArenaConfig, outcomes: list[DealOutcome],
              seconds: float = 0.0) -> ArenaReport:
    """The report of a finished set of deals."""
    margins = [o.margin for o in outcomes]
    charged = [o.margin_bags_charged for o in outcomes]
    levels = []
    for c in (0, 1):
        total = Tally()
        for outcome in outcomes:
            total.add(outcome.tallies[c])
        sign = 1.0 if c == 0 else -1.0
        games = total.games
        levels.append(LevelReport(
            label=config.contenders[c].label,
            points=mean_interval(o.points[c] for o in outcomes),
            duplicate_points=mean_interval(sign * m for m in margins),
            duplicate_points_bags_charged=mean_interval(sign * m for m in charged),
            games_won=(proportion_interval(total.wins, games)
                       if config.mode == "games" else None),
            games=games,
            bids_made=proportion_interval(total.made, total.contracts),
            sets=proportion_interval(total.sets, total.contracts),
            nil_made=proportion_interval(total.nil_made, total.nil_attempts),
            nil_attempts=total.nil_attempts,
            bags_per_hand=_bags_interval(outcomes, c),
            decision_p50=quantile_interval(total.times, 0.5),
            decision_p95=quantile_interval(total.times, 0.95),
            decisions=len(total.times),
            calibration=tuple(mean_interval(values) for values in total.calibration),
            calibration_bids=tuple(len(values) for values in total.calibration),
        ))
    return ArenaReport(rules=config.rules, mode=config.mode, deals=len(outcomes),
                       hands=sum(o.hands for o in outcomes), seed=config.seed,
                       levels=(levels[0], levels[1]), margin=mean_interval(margins),
                       margin_bags_charged=mean_interval(charged),
                       seconds=seconds, chairs=config.plan.describe(o.index for o in outcomes))


def run_arena(config: ArenaConfig, *, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None,
              field: tuple[Contender, ...] = ()) -> ArenaReport:
    """Play every deal of ``config`` (in ``jobs`` processes) and summarise.

    With a ``field`` of opponents, the first contender meets them in turn (deal ``i``
    against ``field[i % len(field)]``) instead of ``config.contenders[1]``: the report's
    second level is the whole field, and ``report.field`` holds one report per opponent."""
    if config.deals < 1:
        raise ValueError(f"deals must be at least 1, not {config.deals}")
    configs = [config] if not field else [
        replace(config, contenders=(config.contenders[0], opponent), turns=len(field))
        for opponent in field]
    for each in configs:
        for contender in each.contenders:
            contender.make()  # an unknown level or option fails here, before any work
    start = time.perf_counter()
    total = config.deals
    outcomes: list[DealOutcome] = []
    if jobs <= 1:
        for index in range(total):
            outcomes.append(play_deal(configs[index % len(configs)], index))
            if progress:
                progress(len(outcomes), total)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_deal, configs[index % len(configs)], index)
                       for index in range(total)]
            for future in as_completed(futures):
                outcomes.append(future.result())
                if progress:
                    progress(len(outcomes), total)
    outcomes.sort(key=lambda o: o.index)
    seconds = time.perf_counter() - start
    if not field:
        return summarise(config, outcomes, seconds)
    whole = Contender("field[" + ",".join(c.label for c in field) + "]")
    report = summarise(replace(config, contenders=(config.contenders[0], whole),
                               turns=len(field)), outcomes, seconds)
    report.field = tuple(
        summarise(each, [o for o in outcomes if o.index % len(configs) == number], seconds)
        for number, each in enumerate(configs) if number < total)
    return report


def parse_field(text: str) -> tuple[Contender, ...]:
    """``"easy,normal,frozen"``; a player's options may follow it, also comma-separated:
    ``"easy,hard:iterations=300,time_limit=1,frozen"`` is three players."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    if not specs:
        raise ValueError(f"{text!r}: name the field's players, e.g. easy,normal,frozen")
    return tuple(parse_contender(spec) for spec in specs)
