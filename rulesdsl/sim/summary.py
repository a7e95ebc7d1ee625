"""What a run of matches says: the report of one run (a JSON-ready dict, and the text ``simulate``
prints from it).  Comparisons of runs are in ``compare.py``.

The report is built from the ``MatchResult`` list alone (plus what the caller knows about the run), so
a run played serially, in a pool or on Ray gives the same report but for its ``timing``.  Figures over
matches count finished matches only; unfinished and failed ones are listed with their seeds.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

from ..errors import printable
from .runner import FAILED, FINISHED, UNFINISHED, MatchResult
from .stats import Estimate, mean_interval, proportion_interval, ratio_interval

SCHEMA = "rulesdsl.simulate/1"

#: at most this many unfinished matches are listed one line each in the text report
MAX_LISTED = 10


def report(results: Sequence[MatchResult], *, ruleset: dict, players: int, teams: int, bots: Sequence[str],
           bot_options: dict, seed: int, games: int, max_decisions: int, role_names: Sequence[str] = (),
           seconds: float = 0.0, jobs: int = 1, stopped_early: bool = False) -> dict:
    """The JSON-ready report of a run.  ``ruleset`` is ``{name, source, overrides, digest}``;
    ``teams`` the number of teams (0: every seat for itself); ``role_names`` in the ruleset's order."""
    finished = [r for r in results if r.status == FINISHED]
    sides = teams or players
    side = "team" if teams else "seat"
    hands = [len(r.hands) for r in finished]
    decisions = [r.decisions for r in finished]
    total_hands = sum(hands)
    wins = Counter(r.winner for r in finished if r.winner is not None)
    shared = sum(1 for r in finished if r.winner is None)
    firsts = [r for r in finished if r.first_side is not None]
    first_wins = sum(1 for r in firsts if r.winner == r.first_side)
    rate = proportion_interval(first_wins, len(firsts))
    even = 1 / sides
    margins = [r.margin for r in finished if r.margin is not None]
    out = {
        "schema": SCHEMA,
        "ruleset": ruleset,
        "players": players,
        "side": side,
        "sides": sides,
        "bots": list(bots),
        "bot_options": dict(bot_options),
        "seed": seed,
        "games": games,
        "max_decisions": max_decisions,
        "matches": {
            "played": len(results),
            "finished": len(finished),
            "unfinished": [{"match": r.match + 1, "seed": r.seed, "decisions": r.decisions}
                           for r in results if r.status == UNFINISHED],
            "failed": [{"match": r.match + 1, "seed": r.seed, "error": r.error}
                       for r in results if r.status == FAILED],
            "stopped_early": stopped_early,
        },
        "hands": {"total": total_hands, "per_match": _at_least(mean_interval(hands), 0).as_dict()},
        "decisions": {"total": sum(r.decisions for r in results),
                      "per_match": _at_least(mean_interval(decisions), 0).as_dict()},
        "endings": endings(finished),
        "wins": {"by_side": [{"side": s, "wins": wins[s],
                              "rate": proportion_interval(wins[s], len(finished)).as_dict()}
                             for s in range(sides)],
                 "shared": shared},
        "first_player": {"wins": first_wins, "matches": len(firsts), "rate": rate.as_dict(), "even": even,
                         "edge": _shift(rate, -even).as_dict()},
        "margin": {"mean": _at_least(mean_interval(margins), 0).as_dict(), "max": max(margins)} if margins else None,
        "roles": _roles(finished, players, role_names),
        "timing": _timing(results, seconds, jobs),
        "per_match": [_brief(r) for r in results],
    }
    out["warnings"] = degenerate(finished, total_hands)
    return out


#: a run this short says too little for a warning about its figures
WARN_MIN_HANDS = 10
#: past this share of void hands, a run is reported as degenerate
WARN_VOID_SHARE = 0.9


def degenerate(finished: Sequence[MatchResult], total_hands: int) -> list[str]:
    """Figures that say the run measured almost nothing: nearly every hand void (a parameter that
    leaves no playable hand), or no match with a winner."""
    out = []
    void = sum(1 for r in finished for h in r.hands if h[0] == "void")
    if total_hands >= WARN_MIN_HANDS and void >= WARN_VOID_SHARE * total_hands:
        out.append(f"{void} of {total_hands} hands were void (nobody scored): check the parameters")
    if len(finished) >= 5 and all(r.winner is None for r in finished):
        out.append(f"none of the {len(finished)} finished matches had a single winner")
    return out


def endings(finished: Sequence[MatchResult]) -> list[dict]:
    """Each way hands ended (most frequent first): hands, share of all hands, mean points per hand."""
    counts: Counter = Counter()
    for r in finished:
        counts.update(r.endings())
    hands = [len(r.hands) for r in finished]
    out = []
    for name, k in counts.most_common():
        n_e = [sum(1 for h in r.hands if h[0] == name) for r in finished]
        pts = [sum(h[2] or 0 for h in r.hands if h[0] == name) for r in finished]
        out.append({"ending": name, "hands": k, "share": ratio_interval(n_e, hands, share=True).as_dict(),
                    "points_per_hand": ratio_interval(pts, n_e).as_dict()})
    return out


def _at_least(e: Estimate, floor: float) -> Estimate:
    """A count's interval does not reach below what a count can be (a t interval on a few skewed
    matches would)."""
    if e.low is None or e.low >= floor:
        return e
    return Estimate(e.value, floor, e.high, e.n)


def _shift(e: Estimate, by: float) -> Estimate:
    if e.value is None:
        return e
    return Estimate(e.value + by, None if e.low is None else e.low + by, None if e.high is None else e.high + by, e.n)


def _roles(finished: Sequence[MatchResult], players: int, names: Sequence[str]) -> Optional[dict]:
    if not any(r.roles for r in finished):
        return None
    counts = [Counter() for _ in range(players)]
    for r in finished:
        for seat, c in enumerate(r.roles):
            counts[seat].update(c)
    names = list(names) or sorted({k for c in counts for k in c})
    return {"names": names, "by_seat": [[c[n] for n in names] for c in counts]}


def _timing(results: Sequence[MatchResult], seconds: float, jobs: int) -> dict:
    seconds = max(seconds, 1e-9)
    hands = sum(len(r.hands) for r in results if r.status == FINISHED)
    decisions = sum(r.decisions for r in results)
    return {"seconds": seconds, "jobs": jobs, "hands_per_second": hands / seconds,
            "decisions_per_second": decisions / seconds,
            "match_seconds": sum(r.seconds for r in results)}


def _brief(r: MatchResult) -> dict:
    return {"match": r.match + 1, "seed": r.seed, "status": r.status, "winner": r.winner, "scores": r.scores,
            "hands": len(r.hands), "decisions": r.decisions, "first": r.first, "dealer": r.dealer}


# ------------------------------------------------------------------------------ text

def number_text(v) -> str:
    """A number as text, however large (Python refuses to print integers of more than 4,300 digits)."""
    if isinstance(v, float):
        return f"{v:.1f}"
    try:
        return str(v)
    except ValueError:
        return f"a number of about {int(v.bit_length() * 0.30103)} digits"


def interval_text(e: dict, pct: bool = False, digits: int = 1) -> str:
    """``6.2 [5.9, 6.5]`` (or ``49.0% [42.2, 55.9]``); the bare value without an interval."""
    v = e["value"]
    if v is None:
        return "n/a"
    if isinstance(v, int) and not isinstance(v, bool) and e["low"] is None:
        return number_text(v)
    scale, unit = (100.0, "%") if pct else (1.0, "")
    text = f"{v * scale:.{digits}f}{unit}"
    if e["low"] is not None:
        text += f" [{e['low'] * scale:.{digits}f}, {e['high'] * scale:.{digits}f}]"
    return text


def signed_interval_text(e: dict, scale: float = 1.0, unit: str = "", digits: int = 1) -> str:
    """``+1.8 [1.5, 2.1]``: a difference and its interval."""
    v = e["value"]
    if v is None:
        return "n/a"
    text = f"{v * scale:+.{digits}f}{unit}"
    if e["low"] is not None:
        text += f" [{e['low'] * scale:+.{digits}f}, {e['high'] * scale:+.{digits}f}]"
    return text


def text_lines(rep: dict) -> list[str]:
    """The report as ``simulate`` prints it (after the lines of matches that failed or did not end)."""
    lines = []
    m = rep["matches"]
    games, finished = rep["games"], m["finished"]
    unfinished, failed = len(m["unfinished"]), len(m["failed"])
    name = printable(rep["ruleset"]["name"])
    if unfinished or failed:
        played = f"{finished} of {games} matches finished"
        played += f", {unfinished} unfinished" if unfinished else ""
        played += f", {failed} failed" if failed else ""
    else:
        played = f"{games} matches"
    lines.append(f"{name}: {played}, {rep['players']} players, seed {rep['seed']}, bots {bots_text(rep['bots'])}")
    h = rep["hands"]
    per = "per finished match" if unfinished or failed else "per match"
    lines.append(f"hands (deals) played: {h['total']} ({interval_text(h['per_match'])} {per})")
    lines.append(f"decisions per match: {interval_text(rep['decisions']['per_match'])}")
    if h["total"]:
        lines.append("how hands ended: " + ", ".join(
            f"{printable(e['ending'])} {e['hands']} ({interval_text(e['share'], pct=True)})" for e in rep["endings"]))
        scored = [e for e in rep["endings"] if e["points_per_hand"]["value"]]
        if scored:
            lines.append("points per hand, by ending: " + ", ".join(
                f"{printable(e['ending'])} {interval_text(e['points_per_hand'])}" for e in scored))
    roles = rep["roles"]
    if roles:
        lines.append("roles by seat (deals finished in each role):")
        lines.append("  seat  " + "  ".join(f"{printable(r)[:14]:>14}" for r in roles["names"]))
        for seat, row in enumerate(roles["by_seat"]):
            lines.append(f"  {seat:>4}  " + "  ".join(f"{c:>14}" for c in row))
    side = rep["side"]
    w = rep["wins"]
    lines.append(f"match wins by {side}: " + ", ".join(f"{side} {s['side']}: {s['wins']}" for s in w["by_side"])
                 + (f", shared: {w['shared']}" if w["shared"] else ""))
    if finished:
        lines.append(f"win rate by {side}: " + ", ".join(
            f"{side} {s['side']} {interval_text(s['rate'], pct=True)}" for s in w["by_side"]))
    fp = rep["first_player"]
    if fp["matches"]:
        lines.append(f"first to act won {fp['wins']} of {fp['matches']}: {interval_text(fp['rate'], pct=True)}; "
                     f"edge over an even {100 * fp['even']:.1f}%: "
                     f"{signed_interval_text(fp['edge'], 100.0, ' pp')}")
    if rep["margin"]:
        lines.append(f"final margin: mean {interval_text(rep['margin']['mean'])}, "
                     f"max {number_text(rep['margin']['max'])}")
    t = rep["timing"]
    lines.append(f"speed: {_rate(t['hands_per_second'])} hands/s, {_rate(t['decisions_per_second'])} decisions/s "
                 f"({t['seconds']:.2f} s for {rep['decisions']['total']:,} decisions, {t['jobs']} "
                 f"{'job' if t['jobs'] == 1 else 'jobs'})")
    lines.extend(f"warning: {w}" for w in rep.get("warnings", ()))
    return lines


def bots_text(bots: Sequence[str]) -> str:
    """``random`` when every seat has it, else ``ismcts,greedy`` (the last repeated to every later seat)."""
    specs = list(bots)
    while len(specs) > 1 and specs[-1] == specs[-2]:
        specs.pop()
    return printable(",".join(specs))


def jsonable(value):
    """``value`` with integers too long for JSON (over 4,300 digits) written as text."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 14_000:
        return number_text(value)
    return value


def _rate(x: float) -> str:
    """A rate to three significant figures below 100 (0.38 hands/s with slow bots), whole above."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"
