"""What the ``madang`` commands share: user mistakes, ``KEY=VALUE`` options, loading bots, progress."""

from __future__ import annotations

import json
from contextlib import contextmanager


class UsageError(Exception):
    """A user mistake: :func:`frontends.cli.main` prints ``madang: error: <message>`` and ``hint: <hint>``, exit 2."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


@contextmanager
def user_input(hint: str = ""):
    """Report the ``ValueError`` of checking what the user asked for as a :class:`UsageError`.

    Wrap only the checks of arguments, files and names, never the work itself, so that a
    ``ValueError`` from a real bug keeps its traceback.
    """
    try:
        yield
    except ValueError as e:
        raise UsageError(str(e), hint) from e


def key_values(items, flag: str, example: str) -> dict:
    """``KEY=VALUE`` strings as a dict; a VALUE that parses as JSON (``3``, ``null``, ``[1]``) is decoded.
    A malformed item is a :class:`UsageError` whose hint is ``e.g. {flag} {example}``."""
    out = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"{flag} expects KEY=VALUE, got {item!r}", f"e.g. {flag} {example}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def bots_hint(game: str) -> str:
    """The hint for a bot name that does not load or does not play ``game``."""
    return (f"`madang bots {game}` lists the bots that play {game}; your own policy works too: a path (policy "
            "files, .onnx, SB3 .zip, RLlib checkpoint) or module:attr (docs/bots.md)")


def load_bots(names, game: str, options: dict | None = None) -> list:
    """Load the named bots (with ``options``, keyed by bot name or ``None`` for all), checking the game."""
    import agents
    from agents.registry import BotOptionError

    bots = []
    for name in names:
        kwargs = {**(options or {}).get(None, {}), **(options or {}).get(name, {})}
        try:
            bot = agents.load(name, **kwargs)
        except BotOptionError as e:
            raise UsageError(str(e), "--bot-option [BOT:]KEY=VALUE gives a bot a constructor option; "
                                     "without BOT: every bot gets it") from e
        except ValueError as e:
            raise UsageError(str(e), bots_hint(game)) from e
        with user_input(bots_hint(game)):
            if hasattr(bot, "check_game"):
                bot.check_game(game)
        bots.append(bot)
    return bots


def print_json(obj) -> None:
    """Print ``obj`` as indented JSON (the commands' ``--json``)."""
    print(json.dumps(obj, indent=1))


@contextmanager
def shard_progress(console=None):
    """A progress bar over the evaluation's shards on stderr, if it is a terminal; yields the
    ``progress(done, total)`` callback (None without a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with Progress(TextColumn("shards"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("shards", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
