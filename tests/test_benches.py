"""Every bench under bench/ still runs (issue 37 item 9): each script is run for a few
seconds on a tiny input and must exit 0 and print figures (a bench that crashes, or that
measures nothing, fails here). bench/experiments and bench/yardstick are not benches.

A new script under bench/ must be added to ``RUNS`` (a test fails until it is)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

#: Each bench's tiny run and what its output must show (a figure it measured).
RUNS: dict[str, tuple[list[str], str]] = {
    "append.py": (["--count", "20", "--rounds", "1"],
                  r"lone: CPU \d+\.\d+ ms an action, wall \d+\.\d+ ms an action, "
                  r"database CPU \d+\.\d+ ms an action"),
    "advice.py": (["--deals", "1", "--preset", "two-player"],
                  r"card hint \(Hard\) +n=\d+ +median \d+\.\d+ s"),
    "ai.py": (["--levels", "random", "--deals", "1", "--seconds", "0.2", "--rounds", "1"],
              r"random +\d+ decisions +p50 +\d+\.\d+ ms"),
    "bid_fit.py": (["--styles", "easy,normal", "--deals", "8", "--jobs", "1"],
                   r"the mix +[-+]\d+\.\d+ \+ \d+\.\d+ x count"),
    "card.py": (["--games", "1", "--hands", "1"],
                r"server time per card: \d+ cards, median \d+\.\d+ ms"),
    "decisions.py": (["--presets", "house", "--pairs", "normal-easy", "--deals", "1",
                      "--reviews", "0"], r"house +normal-easy [0-9a-f]{16}"),
    "engine.py": (["--seconds", "0.2", "--rounds", "1"], r"\d+ random hands/s"),
    "fairness.py": (["--easy", "2", "--hard", "0", "--seconds", "2", "--workers", "1"],
                    r"turns, median \d+\.\d+ ms, p95 \d+\.\d+ ms"),
    "flood.py": (["--seconds", "1", "--port", "8791", "--signin-delay", "0.1"],
                 r"sign-ups, 4 loops from one address: answers \{[^}]*429: \d+"),
    "hub_log.py": (["--preset", "two-player"], r"the last \d+ changes hold \d+ KiB"),
    "load.py": (["--mode", "flat", "--tables", "4", "--seconds", "3", "--warmup", "2",
                 "--workers", "1"],
                r"(?s)intent to every person's seat: \d+, p50 \d+\.\d ms, p95 \d+\.\d ms, "
                r"p99 \d+\.\d ms.*server-side CPU a game action: \d+\.\d+ ms"),
    "normal_vs_easy.py": (["--games", "1", "--seconds", "20"],
                          r"normal decision time: p50 \d+\.\d+ ms"),
    "review.py": (["--hands", "1", "--preset", "two-player"], r"wall median +\d+\.\d+ s"),
    "review_queue.py": (["--decisions", "3", "--workers", "1", "--preset", "two-player"],
                        r"beside a review: +median \d+ ms, p95 \d+ ms"),
    "server.py": (["--hands", "1", "--workers", "1", "--limit", "30", "--brief"],
                  r"(?s)next decision over \d+ cards .* p95 \d+\.\d+ ms.*messages received: "
                  r"\d+ \(brief states\), \d+ bytes each as sent, \d+ as permessage-deflate"),
    "signin.py": (["--count", "3", "--time", "1", "--memory", "1024", "--lanes", "1"],
                  r"sign-in over HTTP: p50 +\d+\.\d+ ms"),
    "soak.py": (["--seconds", "4", "--rounds", "1", "--tables", "2", "--attacks", "heads",
                 "--workers", "1", "--pause", "0.05"],
                r"\[heads\] beside it: \d+ cards, median \d+\.\d ms, p95 \d+\.\d ms"),
    "solver.py": (["--deals", "2", "--full", "0"], r"wall median +\d+\.\d+ ms"),
    "stats.py": (["--games", "2", "--rounds", "1"], r"warm \(.*\): \d+\.\d+ ms"),
}


def text_of(output: str | bytes | None) -> str:
    """What a timed-out run printed (bytes, even with ``text=True``, or nothing)."""
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""


def test_every_bench_has_a_tiny_run() -> None:
    scripts = {path.name for path in BENCH.glob("*.py")}
    assert scripts == set(RUNS), ("bench/ and RUNS differ: add a tiny run for each new "
                                  f"bench ({sorted(scripts ^ set(RUNS))})")


#: Seconds a tiny run may take beside the other tests (110 unless said here): the soak
#: starts a server and a hostile process and waits for each to stop.
LONGER = {"soak.py": 240}


@pytest.mark.timeout(300)
@pytest.mark.xdist_group("benches")  # one bench at a time: they time what they run
@pytest.mark.parametrize("script", sorted(RUNS))
def test_a_bench_runs_and_measures(script: str) -> None:
    args, figures = RUNS[script]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT,
                              env=env, capture_output=True, text=True,
                              timeout=LONGER.get(script, 110))
    except subprocess.TimeoutExpired as late:  # what it printed says where the time went
        pytest.fail(f"{script} ran over {late.timeout:g} s\n"
                    f"stdout:\n{text_of(late.output)[-3000:]}\n"
                    f"stderr:\n{text_of(late.stderr)[-3000:]}")
    shown = f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, shown
    assert re.search(figures, done.stdout), f"no figures in its output\n{shown}"
