"""The ``madang`` command line: ``demo``, ``play``, ``serve``, ``bots``, ``bench``, ``train``, ``eval``,
``ship``, ``export``, ``benchmark``, ``solve`` (one module per command, each with ``add_parser``
and ``run``).

User mistakes (an unknown bot, a bad config, a missing checkpoint, ...) raise
:class:`~frontends.cli.common.UsageError`; :func:`main` prints them as ``madang: error: ...``
with a hint and returns 2, like argparse does for malformed arguments.  Anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .common import UsageError

COMMANDS = ("demo", "play", "serve", "bots", "bench", "train", "eval", "ship", "export", "benchmark", "solve")
"""The commands in the order ``madang --help`` lists them; each is the module ``frontends.cli.<command>``."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("madang")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``madang`` command."""
    p = argparse.ArgumentParser(prog="madang", description="madang: Yacht, Rainbow Dice and Go-Stop for RL")
    p.add_argument("--version", action="version", version=f"madang {_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        importlib.import_module(f"{__name__}.{command}").add_parser(sub)
    return p


def main(argv=None) -> int:
    """Entry point of the ``madang`` console script; returns the exit status (2 for user mistakes)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as e:
        print(f"madang: error: {e}", file=sys.stderr)
        if e.hint:
            print(f"hint: {e.hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("madang: interrupted", file=sys.stderr)
        return 130
