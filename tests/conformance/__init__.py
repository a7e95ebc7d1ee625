"""The language's conformance suite: one small ruleset and test per documented key and behaviour.

The bundled games exercise the keys they use; users write files that use the rest of the language.
Each test here is written for one feature alone (``docs/language.md`` and ``docs/api.md`` say what the
engine does), plays it on a stacked deal and checks the documented outcome.  Each test names the keys it
checks with ``@documents("tricks.won_to", ...)``; ``tests/test_conformance_coverage.py`` fails when a key of
the model's schema has no such test, or when a test names a key the model does not have.
"""
