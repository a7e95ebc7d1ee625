"""``simulate --plot FILE``: the distributions of a run as one figure (PNG or SVG, by the extension).

matplotlib is an optional extra (``pip install 'rulesdsl[plot]'``), imported only here and only when a
plot is asked for, with the Agg backend (no display needed).  Three panels: match length in hands,
final score margins, and wins by seat (or team) with their 95% intervals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .parallel import SimError
from .runner import FINISHED, MatchResult
from .summary import bots_text

FORMATS = {".png": "png", ".svg": "svg"}
PLOT_MISSING = "--plot needs matplotlib, an optional extra: pip install 'rulesdsl[plot]'"


def plot_format(path: str) -> str:
    """The format a file name asks for; anything but .png and .svg is refused."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise SimError(f"--plot writes a .png or an .svg file, not `{path}`")
    return fmt


def write_plot(path: str, results: Sequence[MatchResult], rep: dict) -> None:
    """Draw the run's distributions into ``path``."""
    fmt = plot_format(path)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimError(PLOT_MISSING) from None
    finished = [r for r in results if r.status == FINISHED]
    hands = [len(r.hands) for r in finished]
    margins = [_as_float(r.margin) for r in finished if r.margin is not None]
    margins = [m for m in margins if m is not None]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    try:
        title = f"{rep['ruleset']['name']}: {rep['matches']['finished']} matches, bots {bots_text(rep['bots'])}"
        fig.suptitle(title)
        ax = axes[0]
        if hands:
            ax.hist(hands, bins=_bins(hands), color="#4878a8", edgecolor="white")
        ax.set_title("match length")
        ax.set_xlabel("hands per match")
        ax.set_ylabel("matches")
        ax = axes[1]
        if margins:
            whole = all(float(m).is_integer() for m in margins)
            bins = _bins([int(m) for m in margins]) if whole else 30
            ax.hist(margins, bins=bins, color="#6a9f58", edgecolor="white")
        ax.set_title("final margin")
        ax.set_xlabel("winner's lead")
        ax.set_ylabel("matches")
        ax = axes[2]
        by_side = rep["wins"]["by_side"]
        xs = [s["side"] for s in by_side]
        rates = [s["rate"]["value"] or 0.0 for s in by_side]
        low = [max(0.0, r - (s["rate"]["low"] if s["rate"]["low"] is not None else r)) for r, s in zip(rates, by_side)]
        high = [max(0.0, (s["rate"]["high"] if s["rate"]["high"] is not None else r) - r) for r, s in zip(rates, by_side)]
        ax.bar(xs, rates, yerr=[low, high], capsize=4, color="#c4743c")
        ax.axhline(1 / max(1, len(xs)), color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(xs)
        ax.set_title(f"wins by {rep['side']} (95% intervals)")
        ax.set_xlabel(rep["side"])
        ax.set_ylabel("share of matches")
        fig.tight_layout()
        try:
            fig.savefig(path, format=fmt)
        except OSError as exc:
            raise SimError(f"cannot write `{path}`: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _bins(values: Sequence[int]):
    """One bar per whole number over a short range, else 40 bars."""
    lo, hi = min(values), max(values)
    if hi - lo <= 40:
        return [x - 0.5 for x in range(lo, hi + 2)]
    return 40


def _as_float(v):
    try:
        return float(v)
    except OverflowError:
        return None
