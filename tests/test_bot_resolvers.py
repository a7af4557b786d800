"""Bot names reach the envs through the entry-point group ``madang.bot_resolvers``: agents registers
its resolver in pyproject.toml, and envs never imports agents (tests/test_architecture.py)."""

from __future__ import annotations

import pytest

from envs.adapters import seats
from envs.yacht import Yacht


class FirstLegal:
    """A bot object: used as it is, without any resolver."""

    def act(self, obs, mask, rng):
        return mask.argmax(axis=1)


class FakeEntryPoint:
    def __init__(self, name, resolve):
        self.name, self.value, self._resolve = name, f"fake:{name}", resolve

    def load(self):
        return self._resolve


def test_agents_registers_its_resolver():
    assert "agents.registry:resolve_bot" in [ep.value for ep in seats._resolvers()]


def test_names_and_functions_resolve_through_agents():
    def first_legal(obs, mask, rng):
        return mask.argmax(axis=1)

    bots = seats.resolve_opponents(Yacht(num_players=3), ["yacht-greedy", first_legal])
    assert bots[0].name == "yacht-greedy" and callable(bots[1].act)
    with pytest.raises(ValueError, match="unknown bot 'no-such-bot'"):
        seats.resolve_opponents(Yacht(num_players=2), "no-such-bot")


def test_without_a_resolver_a_name_is_a_clear_error_and_a_bot_object_still_plays(monkeypatch):
    monkeypatch.setattr(seats, "_resolvers", lambda: [])
    with pytest.raises(ValueError, match="no bot resolver is installed .*'madang.bot_resolvers'"):
        seats.resolve_opponents(Yacht(num_players=2), "yacht-greedy")
    bot = FirstLegal()
    assert seats.resolve_opponents(Yacht(num_players=2), bot) == [bot]


def test_the_first_resolver_that_takes_the_name_wins(monkeypatch):
    def refuse(spec):
        raise ValueError(f"a: unknown {spec}")

    def take(spec):
        return FirstLegal() if spec == "mine" else refuse(spec)

    monkeypatch.setattr(seats, "_resolvers", lambda: [FakeEntryPoint("a", refuse), FakeEntryPoint("b", take)])
    (bot,) = seats.resolve_opponents(Yacht(num_players=2), "mine")
    assert isinstance(bot, FirstLegal)
    with pytest.raises(ValueError, match="a: unknown other"):  # none takes it: the first one's error
        seats.resolve_opponents(Yacht(num_players=2), "other")
