"""The training example of docs/training.md (examples/train_reinforce.py) runs end to end at a tiny
size, so that it cannot rot.  No assertion on what it learns: that would flake.

Without pettingzoo this skips, except under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pettingzoo", reason="pip install '.[pettingzoo]'")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_reinforce.py"


def _module():
    spec = importlib.util.spec_from_file_location("train_reinforce", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tiny_run_reports_every_field():
    train = _module()
    report = train.run(episodes=6, eval_games=4, seed=3)
    assert report["ruleset"].startswith("variants/"), "the example is about a house-rule variant"
    assert report["episodes"] == 6 and report["learner_steps"] > 6
    for name in ("untrained", "trained"):
        r = report[name]
        assert r["games"] == 4
        assert 0.0 <= r["win_rate"] <= 1.0 and math.isfinite(r["mean_return"])
    assert math.isfinite(report["weight_norm"]) and report["weight_norm"] > 0, "training changed nothing"


def test_policy_gradient_moves_towards_the_chosen_number():
    """One REINFORCE step with a positive return makes the chosen number likelier; illegal numbers
    keep probability zero."""
    import numpy as np
    train = _module()
    policy = train.LinearPolicy(n_features=3, n_actions=4)
    x = np.array([1.0, 0.5, 0.0, 1.0])
    mask = np.array([1, 0, 1, 1], np.int8)
    before = policy.probabilities(x, mask)
    assert before[1] == 0 and before[[0, 2, 3]] == pytest.approx([1 / 3] * 3)
    policy.w += 0.5 * policy.gradient([(x, mask, 2)])
    after = policy.probabilities(x, mask)
    assert after[2] > before[2] and after[1] == 0 and after.sum() == pytest.approx(1.0)


def test_script_prints_its_report():
    out = subprocess.run([sys.executable, str(SCRIPT), "--episodes", "3", "--eval-games", "2", "--json"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert {"untrained", "trained", "learner_steps", "seconds"} <= set(report)
