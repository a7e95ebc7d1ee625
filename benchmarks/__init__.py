"""Speed benchmarks (run_all.py runs them all); not part of the installed package."""
