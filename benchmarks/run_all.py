"""Run every benchmark in this folder and print one summary at the end.

Run:  python benchmarks/run_all.py [--hands 1000] [--seed 2024] [--arrange-n 20000]
      python -m benchmarks.run_all

Each benchmark runs in its own subprocess (so imports and caches start cold) and its full output is
shown as it comes; the summary then repeats the headline figures side by side (the "RLCard"
column is ``env.run`` for playouts, "RLCard core" drives its ``GinRummyGame`` directly).  Ratios are
rulesdsl/peer of the figure in that row (for rates, above 1 means rulesdsl is faster; for times,
below 1 means rulesdsl is faster).  Peers that are not importable show as "not installed".
A default run takes well under two minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(argv: list) -> tuple:
    """Run a benchmark, echoing its output; returns (exit code, output text, seconds)."""
    print("$ " + " ".join(os.path.relpath(a, ROOT) if os.path.isabs(a) and a.startswith(ROOT)
                          else a for a in argv), flush=True)
    t = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    lines = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line)
    code = proc.wait()
    return code, "".join(lines), time.perf_counter() - t


ARRANGE_ROW = re.compile(r"^\s*(10|11)\s+(cold/clr|cold|warm|melds|rlcard|openspiel)\s+"
                         r"([\d.]+)\s+([\d.]+)")


def parse_arrange(text: str) -> dict:
    """{(size, figure): median_us} from bench_arrange's table."""
    out = {}
    for line in text.splitlines():
        m = ARRANGE_ROW.match(line)
        if m:
            out[(int(m.group(1)), m.group(2))] = float(m.group(3))
    return out


def cell(value, fmt: str, ratio=None) -> str:
    if value is None:
        return "-"
    text = format(value, fmt)
    if ratio is not None:
        text += f" (x{ratio:.2f})"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per system for bench_gin")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--arrange-n", type=int, default=20000, help="hands per size for bench_arrange")
    args = ap.parse_args()

    t0 = time.perf_counter()
    py = sys.executable
    failures = []

    code, arrange_text, arrange_s = run([py, os.path.join(HERE, "bench_arrange.py"),
                                         "--n", str(args.arrange_n), "--seed", str(args.seed)])
    if code:
        failures.append(f"bench_arrange exited {code}")
    print()

    code, games_text, games_s = run([py, os.path.join(HERE, "bench_games.py"), "--seconds", "3"])
    if code != 0:
        failures.append(f"bench_games exited {code}")

    fd, json_path = tempfile.mkstemp(suffix=".json", prefix="bench_gin_")
    os.close(fd)
    try:
        code, _gin_text, gin_s = run([py, os.path.join(HERE, "bench_gin.py"), "--hands",
                                      str(args.hands), "--seed", str(args.seed), "--json", json_path])
        if code:
            failures.append(f"bench_gin exited {code}")
        try:
            with open(json_path) as f:
                gin = json.load(f)
        except (OSError, ValueError):
            gin = None
    finally:
        os.unlink(json_path)
    print()

    arrange = parse_arrange(arrange_text)
    total = time.perf_counter() - t0
    print("=" * 100)
    print(f"SUMMARY  (bench_arrange {arrange_s:.0f} s, bench_gin {gin_s:.0f} s, total {total:.0f} s)")
    if gin:
        v = gin["versions"]
        print(f"versions: rulesdsl {v['rulesdsl']}, rlcard {v['rlcard']}, open-spiel {v['open-spiel']}")
    print("ratio in brackets = rulesdsl/peer (rates: >1 rulesdsl faster; times: <1 rulesdsl faster)")
    print()
    rows = []
    if gin:
        p = gin["playouts"]
        base = p["rulesdsl"]

        def peer(label, key, fmt, ratio_key=None):
            r = p.get(label)
            if r is None:
                return "not installed"
            return cell(r[key], fmt, r.get(ratio_key) if ratio_key else None)

        n = gin["args"]["hands"]
        rows += [
            (f"Gin Rummy random playouts ({n} hands)", "", "", "", ""),
            ("  hands/s", cell(base["hands_per_s"], ",.0f"),
             peer("RLCard env.run", "hands_per_s", ",.0f", "ratio_hands"),
             peer("RLCard game core", "hands_per_s", ",.0f", "ratio_hands"),
             peer("OpenSpiel", "hands_per_s", ",.0f", "ratio_hands")),
            ("  decisions/s", cell(base["decisions_per_s"], ",.0f"),
             peer("RLCard env.run", "decisions_per_s", ",.0f", "ratio_decisions"),
             peer("RLCard game core", "decisions_per_s", ",.0f", "ratio_decisions"),
             peer("OpenSpiel", "decisions_per_s", ",.0f", "ratio_decisions")),
            ("  decisions/hand", cell(base["decisions_per_hand"], ".1f"),
             peer("RLCard env.run", "decisions_per_hand", ".1f"),
             peer("RLCard game core", "decisions_per_hand", ".1f"),
             peer("OpenSpiel", "decisions_per_hand", ".1f")),
        ]
        po = p.get("rulesdsl play_out")
        if po:
            rows.append(("  (rulesdsl play_out, whole matches)",
                         f"{po['hands_per_s']:,.0f} h/s", "", "", ""))
        dw = gin["deadwood_us"]
        b = dw.get("rulesdsl")
        rows += [
            ("10-card deadwood, us (median, cold)", cell(b, ".3f"),
             cell(dw.get("rlcard"), ".3f", b / dw["rlcard"])
             if "rlcard" in dw else "not installed", "",
             cell(dw.get("openspiel"), ".3f", b / dw["openspiel"])
             if "openspiel" in dw else "not installed"),
        ]
    if arrange:
        for size in (10, 11):
            c = arrange.get((size, "cold"))
            rl = arrange.get((size, "rlcard"))
            os_ = arrange.get((size, "openspiel"))
            rows.append((f"bench_arrange {size} cards, us (cold median)", cell(c, ".3f"),
                         cell(rl, ".3f", c / rl if c and rl else None) if rl else "-", "",
                         cell(os_, ".3f", c / os_ if c and os_ else None) if os_ else "-"))
            rows.append((f"bench_arrange {size} cards, us (warm median)",
                         cell(arrange.get((size, "warm")), ".3f"), "", "", ""))
    if gin and gin.get("cold_start_s"):
        runs = gin["args"]["cold_runs"]
        rows.append((f"cold start, ms (median of {runs} subprocess runs)", "", "", "", ""))
        for label, secs in gin["cold_start_s"].items():
            who = ("RLCard" if "rlcard" in label else "OpenSpiel" if "pyspiel" in label
                   else "python" if label == "python -c pass" else "rulesdsl")
            val = "not installed" if secs is None else f"{secs * 1000:.0f}"
            short = label.replace(" [PYTHONDONTWRITEBYTECODE=1]", ", no .pyc")
            rows.append((f"  {short}", val if who in ("rulesdsl", "python") else "",
                         val if who == "RLCard" else "", "", val if who == "OpenSpiel" else ""))

    head = ("figure", "rulesdsl", "RLCard", "RLCard core", "OpenSpiel")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)] if rows else [10] * 5
    widths[0] = min(widths[0], 70)
    for r in [head] + rows:
        first = r[0] if len(r[0]) <= widths[0] else r[0][:widths[0] - 3] + "..."
        print("  ".join([first.ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]))
    if gin:
        print()
        print("how hands ended:")
        for label, r in gin["playouts"].items():
            if r is None:
                print(f"  {label:<20} not installed")
                continue
            h = r["hands"]
            print(f"  {label:<20} " + ", ".join(f"{k} {100 * v / h:.1f}%" for k, v in r["endings"].items()))
    if failures:
        print()
        print("FAILED: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
