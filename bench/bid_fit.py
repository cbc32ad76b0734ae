"""How players' bids follow their hands: the bid-to-strength relation fitted on a mix of styles.

Hard reads a bid already made as evidence about the bidder's hand, and imagines the bids of
seats still to speak (``spades.ai.sampler.BidReading``). This bench measures the relation it
needs: it deals hands, seats a random mix of players (Easy, Normal, the frozen Normal of
``bench/yardstick`` and Hard, by default), lets them bid in turn as at the table (each sees
the bids before it), and for every plain bid records the hand's quick count
(``estimate_tricks``, the count the sampler weighs deals with) and the bid. It then fits
``bid = intercept + slope * count`` by least squares, per style and over the whole mix (each
style weighed alike), with the spread of the bids about the line: the reading Hard uses is
the mix's. It also prints each style's mean gap (count minus bid, by bidding position).

Nil is read the same way: for every bid made on a seen hand whose partner has not bid nil
(players almost never bid nil beside a nil), the chance of nil is fitted by logistic
regression on the hand's count and the log of its nil likelihood (``nil_likelihood``, the
weight the sampler gives a nil bidder's hand), per style and over the mix, each style
weighed alike: Hard imagines the bids of seats still to speak with the mix's chance
(``spades.ai.reading.NIL_FITS``). Figures only; nothing here can fail.

    PYTHONPATH=src python3 bench/bid_fit.py --deals 1500 --seed 1      # from the project root
    PYTHONPATH=src python3 bench/bid_fit.py --styles normal,frozen --deals 400
    PYTHONPATH=src python3 bench/bid_fit.py --presets kinds --deals 3000 --seed nilread
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from spades.ai.arena import parse_contender, parse_field
from spades.ai.kernel import rulebook_of
from spades.ai.reading import NilReading, kind_of
from spades.ai.sampler import estimate_tricks, nil_likelihood
from spades.engine import Bid, Look, Phase, apply, find_preset, new_game, player_view

DEFAULT_STYLES = "easy,normal,frozen,hard:iterations=300"
#: One preset of each kind of table (``spades.ai.reading.kind_of``).
KINDS = ("partnership", "jokers", "cutthroat", "three-player", "three-player-kitty",
         "five-player", "two-player")


@dataclass(frozen=True)
class Row:
    """One bid on a seen hand: who made it, at which seat and position of the bidding order,
    on what hand (its count and nil likelihood), and whether it was nil (``bid`` 0) or came
    after the partner's nil."""

    style: str
    seat: int
    position: int
    count: float
    bid: int
    nil: bool = False
    likelihood: float = 1.0
    partner_nil: bool = False


@dataclass(frozen=True)
class Line:
    """``bid = intercept + slope * count``, the spread of bids about it, and how many bids."""

    intercept: float
    slope: float
    spread: float
    bids: int


@dataclass(frozen=True)
class NilLine:
    """The chance of nil: ``1 / (1 + exp(-z))``, ``z = intercept + count * hand's count +
    likelihood * log(its nil likelihood)``, fitted on ``calls`` bids of which ``nils`` nil."""

    intercept: float
    count: float
    likelihood: float
    calls: int
    nils: int


def fit(rows: Sequence[Row], weights: Sequence[float] | None = None) -> Line:
    """Weighted least squares of bid on count (at least three rows of two counts)."""
    w = [1.0] * len(rows) if weights is None else list(weights)
    total = sum(w)
    mx = sum(wi * r.count for wi, r in zip(w, rows, strict=True)) / total
    my = sum(wi * r.bid for wi, r in zip(w, rows, strict=True)) / total
    sxx = sum(wi * (r.count - mx) ** 2 for wi, r in zip(w, rows, strict=True))
    sxy = sum(wi * (r.count - mx) * (r.bid - my) for wi, r in zip(w, rows, strict=True))
    slope = sxy / sxx
    intercept = my - slope * mx
    sse = sum(wi * (r.bid - intercept - slope * r.count) ** 2
              for wi, r in zip(w, rows, strict=True))
    return Line(intercept, slope, math.sqrt(sse / total), len(rows))


def fit_mix(rows: Sequence[Row]) -> Line:
    """The line over every style, each style weighed alike whatever its number of bids."""
    return fit(rows, _weights(rows))


def _weights(rows: Sequence[Row]) -> list[float]:
    """Each row's weight so that every style weighs alike, whatever its number of bids."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.style] = counts.get(row.style, 0) + 1
    return [1.0 / counts[r.style] for r in rows]


def fit_nil(rows: Sequence[Row], weights: Sequence[float] | None = None) -> NilLine:
    """Weighted logistic regression of nil on the count and the log nil likelihood, by
    Newton's method (iteratively reweighted least squares); rows after a partner's nil are
    left out. Needs nils and plain bids both; where the two features separate them (a style
    that bids nil on the best nil hands alone) the coefficients grow without bound and stop
    after 50 steps."""
    w_all = [1.0] * len(rows) if weights is None else list(weights)
    pairs = [(r, w) for r, w in zip(rows, w_all, strict=True) if not r.partner_nil]
    data = [((1.0, r.count, math.log(r.likelihood)), r.likelihood, 1.0 if r.nil else 0.0, w)
            for r, w in pairs]
    beta = [0.0, 0.0, 0.0]
    for _ in range(50):
        model = NilReading(*beta)  # the chance Hard reads nil with (bounded where z runs away)
        grad = [0.0] * 3
        hess = [[0.0] * 3 for _ in range(3)]
        for x, likelihood, y, w in data:
            p = model.chance(x[1], likelihood)
            for i in range(3):
                grad[i] += w * (y - p) * x[i]
                for j in range(3):
                    hess[i][j] += w * p * (1.0 - p) * x[i] * x[j]
        step = _solve3(hess, grad)
        beta = [b + d for b, d in zip(beta, step, strict=True)]
        if max(abs(d) for d in step) < 1e-10:
            break
    return NilLine(beta[0], beta[1], beta[2], len(pairs), sum(1 for r, _ in pairs if r.nil))


def _solve3(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    m = [[*row, v] for row, v in zip(a, b, strict=True)]
    size = len(b)
    for i in range(size):
        pivot = max(range(i, size), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for j in range(i + 1, size):
            factor = m[j][i] / m[i][i]
            for c in range(i, size + 1):
                m[j][c] -= factor * m[i][c]
    x = [0.0] * size
    for i in reversed(range(size)):
        x[i] = (m[i][size] - sum(m[i][c] * x[c] for c in range(i + 1, size))) / m[i][i]
    return x


def auction(args: tuple[str, str, int, str]) -> list[Row]:
    """One deal's bidding with a random style at each seat."""
    preset, styles, index, seed = args
    rules = find_preset(preset)
    book = rulebook_of(rules)
    names = styles.split(";")
    pick = random.Random(f"{seed}/styles/{index}")
    seats = [pick.choice(names) for _ in range(rules.players)]
    players = [parse_contender(name).make() for name in seats]
    rngs = [random.Random(f"{seed}/{index}/{s}") for s in range(rules.players)]
    state = new_game(rules, seed=f"{seed}/{index}", first_dealer=index % rules.players)
    rows: list[Row] = []
    position = 0
    while state.hand.phase is not Phase.PLAY and not state.results:
        seat = state.hand.turn
        view = player_view(state, seat)
        action = Look(seat) if view.face_down else players[seat].choose(view, rngs[seat])
        if isinstance(action, Bid):
            if not action.blind:
                partner = rules.partner_of[seat]
                before = None if partner is None else view.bids[partner]
                hand = view.hand_mask
                rows.append(Row(seats[seat], seat, position, estimate_tricks(hand, book),
                                action.tricks, action.nil, nil_likelihood(hand, book),
                                before is not None and before.nil))
            position += 1
        state = apply(state, action)
    return rows


def report(calls: Sequence[Row]) -> tuple[dict[str, object], Line]:
    """Print each style's line and the mix's; return them (for ``--json``) and the mix's."""
    rows = [r for r in calls if not r.nil]
    styles = sorted({r.style for r in rows})
    out: dict[str, object] = {}
    print(f"{len(rows)} plain bids; bid = intercept + slope x count (count: estimate_tricks)")
    for style in styles:
        mine = [r for r in rows if r.style == style]
        line = fit(mine)
        gaps = [statistics.fmean(r.count - r.bid for r in mine if r.position == p)
                for p in range(4) if any(r.position == p for r in mine)]
        print(f"  {style:24} {line.intercept:+.2f} + {line.slope:.2f} x count, spread "
              f"{line.spread:.2f} ({line.bids} bids); count - bid by position "
              + " ".join(f"{g:+.2f}" for g in gaps))
        out[style] = line.__dict__
    mix = fit_mix(rows)
    print(f"  {'the mix':24} {mix.intercept:+.2f} + {mix.slope:.2f} x count, spread "
          f"{mix.spread:.2f} ({mix.bids} bids)")
    out["mix"] = mix.__dict__
    return out, mix


def report_nil(calls: Sequence[Row]) -> NilLine | None:
    """Print each style's chance of nil and the mix's; return the mix's (None: no nils)."""
    if not any(r.nil for r in calls):
        return None
    print(f"{len(calls)} bids; chance of nil = 1 / (1 + exp(-z)), z = a + b x count "
          "+ c x log(nil likelihood)")
    for style in sorted({r.style for r in calls}):
        mine = [r for r in calls if r.style == style]
        made = sum(r.nil for r in mine)
        if made:
            line = fit_nil(mine)
            print(f"  {style:24} {line.intercept:+.3f} {line.count:+.3f} {line.likelihood:+.3f}"
                  f" ({made} nils of {len(mine)} bids)")
        else:
            print(f"  {style:24} no nils of {len(mine)} bids")
    mix = fit_nil(calls, _weights(calls))
    print(f"  {'the mix':24} {mix.intercept:+.3f} {mix.count:+.3f} {mix.likelihood:+.3f}"
          f" ({mix.nils} nils of {mix.calls} bids)")
    return mix


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--styles", default=DEFAULT_STYLES,
                        help="the players mixed at the table, comma-separated "
                             f"(default {DEFAULT_STYLES})")
    parser.add_argument("--presets", default="partnership",
                        help="comma-separated; 'kinds' fits one preset of each kind of table "
                             "that spades.ai.reading tells apart")
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the fitted lines here")
    args = parser.parse_args(argv)
    if "frozen" in args.styles and not Path("bench/yardstick").is_dir():
        sys.exit("run from the project's root (bench/yardstick holds the frozen Normal)")
    styles = ";".join(c.label for c in parse_field(args.styles))
    presets = KINDS if args.presets == "kinds" else args.presets.split(",")
    out: dict[str, object] = {}
    fits: list[str] = []
    nil_fits: list[str] = []
    for preset in presets:
        print(f"\n{preset}:")
        work = [(preset, styles, i, args.seed) for i in range(args.deals)]
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=min(args.jobs, 2)) as pool:
                chunks = list(pool.map(auction, work, chunksize=20))
        else:
            chunks = [auction(w) for w in work]
        rows = [row for chunk in chunks for row in chunk]
        out[preset], mix = report(rows)
        fits.append(f"    {kind_of(find_preset(preset))}: ({mix.intercept:.2f}, {mix.slope:.2f}, "
                    f"{mix.spread:.2f}),  # {preset}, {mix.bids} bids")
        nil = report_nil(rows)
        if nil is not None:
            lines = out[preset]
            assert isinstance(lines, dict)
            lines["nil (the mix)"] = nil.__dict__
            nil_fits.append(f"    {kind_of(find_preset(preset))}: ({nil.intercept:.3f}, "
                            f"{nil.count:.3f}, {nil.likelihood:.3f}),  # {preset}, "
                            f"{nil.nils} nils of {nil.calls} bids")
    print("\nspades.ai.reading.FITS:\n" + "\n".join(fits))
    print("\nspades.ai.reading.NIL_FITS:\n" + "\n".join(nil_fits))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")

if __name__ == "__main__":
    main()
