"""Two runs of the same matches (same seeds, same bots) under two rulesets, figure by figure.

Because match ``k`` is dealt from the same seed in both runs, the differences are *paired*: each is
taken match by match, over the matches that finished in both, which cancels much of the luck both runs
share and gives far narrower intervals than two independent runs would.  The reading is one line that
names what differs between the rulesets and the figures that moved beyond chance, largest first:
``target_score=50: hands per match -1.8 [-2.1, -1.5]; out endings -31% (-2.1 pp [-3.2, -1.0])``.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import printable
from .runner import FINISHED, UNFINISHED, MatchResult
from .stats import Estimate, mean_interval, paired_difference, paired_ratio_difference, ratio_interval
from .summary import signed_interval_text

SCHEMA = "rulesdsl.compare/1"

#: at most this many figures in the reading line
READING_FIGURES = 4


def compare(a: Sequence[MatchResult], b: Sequence[MatchResult], *, label: str, side: str, sides: int) -> dict:
    """The figures of run ``b`` against run ``a`` (the same matches), each with ``a``, ``b`` and the
    paired difference ``b - a``; ``label`` names what differs between the rulesets."""
    if len(a) != len(b):
        raise ValueError("the runs compared must play the same matches")
    both = [(x, y) for x, y in zip(a, b) if x.status == FINISHED and y.status == FINISHED]
    xs, ys = [p[0] for p in both], [p[1] for p in both]
    figures: list[dict] = []

    def mean_figure(name: str, kind: str, fa: list, fb: list) -> None:
        d = paired_difference(fa, fb)
        figures.append({"figure": name, "kind": kind, "a": _clip(mean_interval(fa), kind, 0.0).as_dict(),
                        "b": _clip(mean_interval(fb), kind, 0.0).as_dict(), "difference": _clip(d, kind, -1.0).as_dict()})

    mean_figure("hands per match", "mean", [len(r.hands) for r in xs], [len(r.hands) for r in ys])
    mean_figure("decisions per match", "mean", [r.decisions for r in xs], [r.decisions for r in ys])
    for s in range(sides):
        mean_figure(f"{side} {s} win rate", "rate", [float(r.winner == s) for r in xs], [float(r.winner == s) for r in ys])
    firsts = [(x, y) for x, y in both if x.first_side is not None and y.first_side is not None]
    mean_figure("first to act's win rate", "rate", [float(x.winner == x.first_side) for x, _ in firsts],
                [float(y.winner == y.first_side) for _, y in firsts])
    margins = [(x.margin, y.margin) for x, y in both if x.margin is not None and y.margin is not None]
    if margins:
        mean_figure("final margin", "mean", [m[0] for m in margins], [m[1] for m in margins])
    names = list(dict.fromkeys([e for r in xs for e in r.endings()] + [e for r in ys for e in r.endings()]))
    hands_a, hands_b = [len(r.hands) for r in xs], [len(r.hands) for r in ys]
    for name in names:
        na, nb = _count(xs, name), _count(ys, name)
        figures.append({"figure": f"{name} endings", "kind": "share", "ending": name,
                        "a": ratio_interval(na, hands_a, share=True).as_dict(),
                        "b": ratio_interval(nb, hands_b, share=True).as_dict(),
                        "difference": _clip(paired_ratio_difference(na, hands_a, nb, hands_b), "share", -1.0).as_dict()})
        pa, pb = _points(xs, name), _points(ys, name)
        if sum(na) and sum(nb) and (any(pa) or any(pb)):      # (a void hand scores nothing)
            figures.append({"figure": f"points per {name} hand", "kind": "mean", "ending": name,
                            "a": ratio_interval(pa, na).as_dict(), "b": ratio_interval(pb, nb).as_dict(),
                            "difference": paired_ratio_difference(pa, na, pb, nb).as_dict()})
    ua, ub = [float(r.status == UNFINISHED) for r in a], [float(r.status == UNFINISHED) for r in b]
    if any(ua) or any(ub):
        figures.append({"figure": "unfinished matches", "kind": "rate", "a": mean_interval(ua).as_dict(),
                        "b": mean_interval(ub).as_dict(), "difference": paired_difference(ua, ub).as_dict()})
    return {"schema": SCHEMA, "label": label, "paired_matches": len(both), "figures": figures,
            "reading": reading(label, figures, len(both))}


def _clip(e: Estimate, kind: str, floor: float) -> Estimate:
    """A rate or share (or a difference of two) cannot leave [floor, 1]: its interval is cut there."""
    if kind not in ("rate", "share") or e.low is None:
        return e
    return Estimate(e.value, max(floor, e.low), min(1.0, e.high), e.n)


def _count(results: Sequence[MatchResult], ending: str) -> list[int]:
    return [sum(1 for h in r.hands if h[0] == ending) for r in results]


def _points(results: Sequence[MatchResult], ending: str) -> list:
    return [sum(h[2] or 0 for h in r.hands if h[0] == ending) for r in results]


def reading(label: str, figures: Sequence[dict], paired: int) -> str:
    """One line: what differs, then the figures whose interval excludes 0, the clearest first."""
    moved = []
    for f in figures:
        d = Estimate(**f["difference"])
        if not d.excludes_zero():
            continue
        half = (d.high - d.low) / 2
        strength = abs(d.value) / half if half > 0 else float("inf")
        moved.append((strength, f))
    moved.sort(key=lambda t: -t[0])
    parts = [figure_change(f) for _, f in moved[:READING_FIGURES]]
    if not parts:
        return f"{label}: no figure differs beyond chance over {paired} paired matches"
    more = len(moved) - len(parts)
    return f"{label}: " + "; ".join(parts) + (f"; {more} more in the table" if more > 0 else "")


def figure_change(f: dict) -> str:
    """A figure's change as text: ``hands per match +1.8 [+1.5, +2.1]``, ``out endings -31% (-2.1 pp
    [-3.2, -1.0])`` (relative to run a's share, then the interval in percentage points), ``seat 0 win
    rate +5.1 pp [...]``."""
    d = f["difference"]
    if f["kind"] == "share":
        base = f["a"]["value"]
        points = signed_interval_text(d, 100.0, " pp")
        if base:
            return f"{printable(f['figure'])} {100.0 * d['value'] / base:+.0f}% ({points})"
        return f"{printable(f['figure'])} {points}"
    if f["kind"] == "rate":
        return f"{printable(f['figure'])} {signed_interval_text(d, 100.0, ' pp')}"
    return f"{printable(f['figure'])} {signed_interval_text(d)}"


def text_lines(cmp: dict, name_a: str = "A", name_b: str = "B") -> list[str]:
    """The comparison as ``compare`` prints it: a table of every figure (columns A and B: the first
    ruleset and the one compared with it), then the reading."""
    def cell(e: dict, kind: str) -> str:
        v = e["value"]
        if v is None:
            return "n/a"
        return f"{100 * v:.1f}%" if kind in ("share", "rate") else f"{v:.1f}" if isinstance(v, float) else str(v)

    def diff(f: dict) -> str:
        d = f["difference"]
        if f["kind"] in ("share", "rate"):
            return signed_interval_text(d, 100.0, " pp")
        return signed_interval_text(d)

    width = max([len(f["figure"]) for f in cmp["figures"]] + [6])
    lines = [f"{name_b} against {name_a}: {cmp['paired_matches']} matches finished under both",
             f"  {'figure':<{width}}  {'A':>10}  {'B':>10}  B - A [95% interval]"]
    for f in cmp["figures"]:
        lines.append(f"  {printable(f['figure']):<{width}}  {cell(f['a'], f['kind']):>10}  "
                     f"{cell(f['b'], f['kind']):>10}  {diff(f)}")
    lines.append(f"reading: {printable(cmp['reading'])}")
    return lines


def difference_label(source_a: str, overrides_a: dict, source_b: str, overrides_b: dict,
                     params_b: Optional[dict] = None) -> str:
    """What ruleset b changes from ruleset a: its name if another, and each override that differs
    (``target_score=50``; an override of a's that b does not make shows b's value, or ``default``)."""
    parts = []
    if source_b != source_a:
        parts.append(source_b)
    for key in sorted(set(overrides_a) | set(overrides_b), key=str):
        if key in overrides_b:
            if key not in overrides_a or overrides_a[key] != overrides_b[key]:
                parts.append(f"{key}={_value_text(overrides_b[key])}")
        else:
            value = (params_b or {}).get(key, "default")
            parts.append(f"{key}={_value_text(value)}")
    return printable(" ".join(parts) if parts else "the same rules")


def _value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
