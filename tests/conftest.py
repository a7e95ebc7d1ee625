"""Hypothesis profiles: derandomised in CI, random locally.

A property that fails only for some seeds would make CI fail at random and block unrelated work, so CI
(``CI`` set in the environment) runs every property on a fixed, derandomised set of examples.  Locally the
examples are random (and remembered in ``.hypothesis/``), so new counterexamples keep being found: each one
found becomes an explicit ``@example`` or a regression test.  ``HYPOTHESIS_PROFILE=thorough`` runs ten
times the examples, for a long local hunt.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
