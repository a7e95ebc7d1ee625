"""Check that an optimised engine plays exactly the games an earlier one did.

Run:  python benchmarks/compare_traces.py [--base f11127e] [--matches 3] [--max-decisions 3000] [--only gin]

Speed work must not change a game: the same ruleset, seed and choices must give the same legal-action
lists (in the same order), the same histories and the same scores.  This plays seeded random games of
every bundled game and variant at every allowed player count with the checkout in this folder and with
an earlier commit (a temporary ``git worktree``), and compares a digest of every position's legal
actions, the action chosen, and the final scores and hand log.  It prints one line per ruleset and
exits 1 on any difference.  It is a development tool, not a test: the baseline is a commit, not data.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

#: the commit before the speed work of issue 11 (the figures' "today")
BASELINE = "f11127e"

PLAYER = r"""
import hashlib, json, random, sys
import rulesdsl
from rulesdsl.source.resolve import bundled_names
matches, cap, only = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
out = {}
for name, _ in bundled_names():
    if only and only not in name:
        continue
    rules = rulesdsl.load(name)
    lo, hi = rules.model.players.min, rules.model.players.max
    for n in sorted({lo, hi, min(max(lo, 4), hi)}):
        h = hashlib.sha256()
        for m in range(matches):
            try:
                g = rules.new_game(seed=m, players=n)
            except Exception as exc:
                h.update(repr(("new_game", type(exc).__name__, str(exc))).encode()); continue
            rng = random.Random(1000 + m)
            for _ in range(cap):
                if g.is_over:
                    break
                try:
                    acts = g.legal_actions()
                except Exception as exc:
                    h.update(repr(("stop", type(exc).__name__, str(exc))).encode()); break
                h.update("|".join(map(str, acts)).encode())
                g.apply(acts[rng.randrange(len(acts))])
            h.update(json.dumps([g.scores, g.hand_log, g.history[-50:], g.is_over], default=str).encode())
        out[f"{name}/{n}"] = h.hexdigest()[:16]
print(json.dumps(out))
"""


def digests(root: str, matches: int, cap: int, only: str = "") -> dict:
    env = dict(os.environ, PYTHONPATH=root)
    proc = subprocess.run([sys.executable, "-c", PLAYER, str(matches), str(cap), only], cwd=root, env=env,
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"playing with {root} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASELINE, help="the commit to compare with")
    ap.add_argument("--matches", type=int, default=3, help="matches per ruleset and player count")
    ap.add_argument("--max-decisions", type=int, default=3000, help="decisions per match at most")
    ap.add_argument("--only", default="", help="only rulesets whose name contains this text")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base")
        subprocess.run(["git", "worktree", "add", "--detach", "-q", base, args.base], cwd=ROOT, check=True)
        try:
            old = digests(base, args.matches, args.max_decisions, args.only)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", base], cwd=ROOT)
    new = digests(ROOT, args.matches, args.max_decisions, args.only)
    bad = 0
    for key in sorted(set(old) | set(new)):
        same = old.get(key) == new.get(key)
        bad += not same
        print(f"  {'same' if same else 'DIFFERENT':9} {key}")
    print(f"{len(new)} rulesets x player counts; {bad} differ from {args.base}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
