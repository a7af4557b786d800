"""Versioned benchmark suites for any policy (``madang benchmark``), paired comparisons and the leaderboard.

* :mod:`.suites`: the suites (ids, seeds, counts, ladders, CI targets);
* :mod:`.runner`: :func:`play` runs one suite for one policy and returns its result;
* :mod:`.identity`: the hashes that make results comparable (rules, seeds, policy files);
* :mod:`.compare`: the paired test of two results on the same seeds;
* :mod:`.report`: results and comparisons as text;
* :mod:`.leaderboard`: ``python -m training.benchmark.leaderboard`` regenerates ``docs/benchmarks.md``.
"""

from .compare import compare, read_result
from .runner import play, result_filename, summarize
from .suites import SUITES, Suite, get_suite, suites_for

__all__ = ["SUITES", "Suite", "compare", "get_suite", "play", "read_result", "result_filename", "suites_for", "summarize"]
