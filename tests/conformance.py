"""The conformance harness: game-agnostic tests every registered game passes (docs/interface.md).

It talks to a game only through its descriptor (:func:`envs.registration.game_spec`), the
shared core API and the adapters.  A test module runs it by subclassing
:class:`CoreConformance` and :class:`AdapterConformance` with ``game_name`` and ``config``
parametrized (:func:`harness`): ``tests/test_conformance.py`` over every game under ``envs``,
``tests/test_pig.py`` over a game registered from the tests.
"""

from __future__ import annotations

import copy
import importlib
import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from envs.adapters.pettingzoo_env import make_aec_env
from envs.adapters.vector_env import AUTORESET_MODES
from envs.core.sampling import sample_legal
from envs.registration import game_class, game_spec


def cases(specs) -> tuple[list, list[str]]:
    """``(cases, ids)``: ``(name, config)`` for every test configuration of every descriptor."""
    pairs = [(spec.name, dict(config)) for spec in specs for config in spec.test_configs]
    return pairs, [f"{g}-{'-'.join(f'{k}={v}' for k, v in c.items())}" for g, c in pairs]


def harness(specs) -> tuple[type, type]:
    """The harness's two test classes over every test configuration of ``specs``: a test module
    binds them to ``Test*`` names (``TestCore, TestAdapters = harness(GAMES.values())``)."""
    pairs, ids = cases(specs)
    mark = pytest.mark.parametrize("game_name,config", pairs, ids=ids)
    return (mark(type("TestCore", (CoreConformance,), {"__module__": __name__})),
            mark(type("TestAdapters", (AdapterConformance,), {"__module__": __name__})))


def first_legal(obs, mask, rng):
    """A deterministic bot for games whose descriptor names no ``test_bot``: the lowest legal action."""
    return np.asarray(mask).argmax(axis=1)


def seated_config(game_name: str) -> dict:
    """The first of the game's test configurations with two or more seats (tests of the seats
    the envs play); ``ValueError`` for a game without one."""
    for config in game_spec(game_name).test_configs:
        if game_class(game_name)(**config).num_players >= 2:
            return dict(config)
    raise ValueError(f"{game_name}: no test configuration with two or more seats")


def deterministic_bot(game_name: str):
    """An opponent that draws no randomness, for comparisons of batched and single envs (a
    batched bot shares one generator across the batch, a single env has its own)."""
    return game_spec(game_name).test_bot or first_legal


def _random_rollout(game, state, rng, max_steps=5000):
    """Play random legal moves in every game of ``state`` until all are over; check invariants."""
    for _ in range(max_steps):
        live = ~state.done
        if not live.any():
            return
        mask = game.legal_mask(state)
        assert mask[live].any(axis=1).all(), "a live game has an empty mask"
        assert not mask[~live].any(), "a finished game has legal actions"
        idx = np.flatnonzero(live)
        sub = state.take(idx)
        game.step(sub, sample_legal(mask[idx], rng))
        state.put(idx, sub)
    raise AssertionError("games did not finish")


class CoreConformance:
    """The core API of one game (a subclass parametrizes ``game_name`` and ``config``)."""

    def test_masks_never_empty_and_games_end(self, game_name, config):
        game = game_class(game_name)(**config)
        state = game.init(np.arange(64))
        _random_rollout(game, state, np.random.default_rng(0))
        assert state.done.all()

    def test_batch_n_equals_n_times_batch_1(self, game_name, config):
        game = game_class(game_name)(**config)
        seeds = np.arange(100, 108)
        batch = game.init(seeds)
        singles = [game.init([s]) for s in seeds]
        rng = np.random.default_rng(1)
        for _ in range(400):
            if batch.done.all():
                break
            game.reset_where(batch, batch.done)
            for i, s in enumerate(singles):
                if s.done[0]:
                    game.reset_where(s, s.done)
            mask = game.legal_mask(batch)
            actions = sample_legal(mask, rng)
            obs_b = game.observe(batch)
            rew_b = game.step(batch, actions)
            for i, s in enumerate(singles):
                np.testing.assert_array_equal(game.observe(s)[0], obs_b[i])
                np.testing.assert_array_equal(game.legal_mask(s)[0], mask[i])
                np.testing.assert_array_equal(game.step(s, actions[i : i + 1])[0], rew_b[i])
                assert s.equals(batch.take([i]))

    def test_observation_shape_dtype_bounds(self, game_name, config):
        game = game_class(game_name)(**config)
        state = game.init(np.arange(32))
        rng = np.random.default_rng(2)
        for _ in range(60):
            game.reset_where(state, state.done)
            for seat in range(game.num_players):
                obs = game.observe(state, np.full(32, seat))
                assert obs.shape == (32, game.obs_size) and obs.dtype == np.float32
                assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0
            game.step(state, sample_legal(game.legal_mask(state), rng))
        slices = game.obs_slices
        covered = np.zeros(game.obs_size, dtype=int)
        for sl in slices.values():
            covered[sl] += 1
        assert (covered == 1).all(), "obs_slices must tile the observation exactly"
        starts = [sl.start for sl in game.action_slices.values()]
        stops = [sl.stop for sl in game.action_slices.values()]
        assert starts == [0] + stops[:-1] and stops[-1] == game.num_actions, \
            "action_slices must tile the action ids in order"
        package = importlib.import_module(type(game).__module__.rpartition(".")[0])
        assert package.ACTION_SLICES is game.action_slices, "the game's package exports ACTION_SLICES"

    def test_seat_views_for_people(self, game_name, config):
        """Every seat's view is JSON, lists exactly the legal moves, renders, and explains each move."""
        game = game_class(game_name)(**config)
        text, rng = game.view_module, np.random.default_rng(3)
        state = game.init([5])
        for _ in range(150):
            if state.done[0]:
                break
            kept = state.copy()
            views = [game.seat_view(state, 0, s) for s in range(game.num_players)]
            json.dumps(views)
            moves = game.legal_moves(state, 0)
            assert [m["id"] for m in moves] == np.flatnonzero(game.legal_mask(state)[0]).tolist()
            assert all(isinstance(m["text"], str) and m["text"] and m["kind"] for m in moves)
            for s in range(game.num_players):
                assert isinstance(game.render_text(state, 0, seat=s), str)
            a = moves[int(rng.integers(len(moves)))]["id"]
            assert text.parse(str(a), views[int(state.to_move[0])], moves) == a
            assert state.equals(kept), "views must not change the state"
            game.step(state, np.array([a]))
            for s in range(game.num_players):
                info = text.explain(views[s], a, game.seat_view(state, 0, s))
                assert isinstance(info["text"], str) and info["text"]
                json.dumps(info)

    def test_illegal_and_malformed_actions_change_nothing(self, game_name, config):
        game = game_class(game_name)(**config)
        state = game.init(np.arange(4))
        before = state.copy()
        mask = game.legal_mask(state)
        illegal = np.flatnonzero(~mask[0])
        bad_batches = [
            np.array([0.5] * 4), np.array([True] * 4), np.zeros(3, np.int64),
            np.full(4, game.num_actions), np.full(4, -1),
        ]
        if illegal.size:
            acts = sample_legal(mask, np.random.default_rng(0))
            acts[0] = illegal[0]
            bad_batches.append(acts)
        for acts in bad_batches:
            with pytest.raises(ValueError):
                game.step(state, acts)
            assert state.equals(before)

    def test_position_round_trip(self, game_name, config):
        game = game_class(game_name)(**config)
        state = game.init(np.arange(16))
        rng = np.random.default_rng(3)
        for _ in range(40):
            for i in range(state.batch_size):
                if _exportable(game, state, i):
                    pos = game.to_position(state, i)
                    json.dumps(pos)
                    again = game.from_position(copy.deepcopy(pos), seed=0)
                    assert game.to_position(again, 0) == pos
                    np.testing.assert_array_equal(game.legal_mask(again)[0], game.legal_mask(state)[i])
                    np.testing.assert_array_equal(game.observe(again)[0], game.observe(state)[i])
            game.reset_where(state, state.done)
            game.step(state, sample_legal(game.legal_mask(state), rng))

    def test_malformed_positions_raise(self, game_name, config):
        game = game_class(game_name)(**config)
        state = game.init([5])
        pos = game.to_position(state, 0)
        for key in list(pos):
            broken = {k: v for k, v in pos.items() if k != key}
            with pytest.raises(ValueError):
                game.from_position(broken)
        for bad in ({**pos, "to_move": 99}, {**pos, "to_move": "0"}, [], "position"):
            with pytest.raises(ValueError):
                game.from_position(bad)


    def test_results_follow_the_descriptor(self, game_name, config):
        """Every finished game's result has exactly the descriptor's ``result_fields``, its
        ``reason`` (if any) one of ``result_reasons``, and it is JSON."""
        spec, game = game_spec(game_name), game_class(game_name)(**config)
        state = game.init(np.arange(16))
        _random_rollout(game, state, np.random.default_rng(4))
        for i in range(state.batch_size):
            result = game.result(state, i)
            json.dumps(result)
            assert tuple(result) == spec.result_fields
            if "reason" in result:
                assert result["reason"] in spec.result_reasons


def _exportable(game, state, i) -> bool:
    try:
        game.to_position(state, i)
        return True
    except ValueError:
        return False


class AdapterConformance:
    """The Gymnasium, PettingZoo and vector adapters over one game (parametrized as above)."""

    def test_gymnasium_check_env(self, game_name, config):
        env = gym.make(game_class(game_name).env_id, illegal_action="lose", **config)
        check_env(env.unwrapped, skip_render_check=True)

    def test_pettingzoo_api_test(self, game_name, config):
        api_test(make_aec_env(game_class(game_name), **config), num_cycles=200)

    def test_gym_masks_and_results(self, game_name, config):
        env = gym.make(game_class(game_name).env_id, **config)
        obs, info = env.reset(seed=7)
        rng = np.random.default_rng(0)
        for _ in range(3):
            terminated = False
            while not terminated:
                mask = info["action_mask"]
                assert mask.dtype == np.int8 and mask.any()
                np.testing.assert_array_equal(env.unwrapped.action_masks(), mask)
                np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), mask)
                obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
                assert isinstance(reward, float) and isinstance(terminated, bool) and truncated is False
            assert set(game_spec(game_name).result_fields) <= set(info)
            assert not info["action_mask"].any()
            with pytest.raises(ValueError):
                env.step(0)
            obs, info = env.reset()

    def test_gym_illegal_action_raises_and_changes_nothing(self, game_name, config):
        env = gym.make(game_class(game_name).env_id, **config).unwrapped
        env.reset(seed=3)
        pos = env.to_position() if _exportable(env.game, env.state, 0) else None
        before = env.state.copy()
        mask = env.action_masks()
        bad = [1.0, True, np.array([0]), game_class(game_name).num_actions, -1, "0", None]
        if (mask == 0).any():
            bad.append(int(np.flatnonzero(mask == 0)[0]))
        for a in bad:
            with pytest.raises(ValueError):
                env.step(a)
            assert env.state.equals(before)
        if pos is not None:
            assert env.to_position() == pos
        assert env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy ints are fine
        env.reset(seed=3)
        env.step(np.array(np.flatnonzero(mask)[0]))  # so are 0-d integer arrays

    def test_illegal_action_lose(self, game_name, config):
        env = gym.make(game_class(game_name).env_id, illegal_action="lose", illegal_penalty=2.5, **config)
        _, info = env.reset(seed=1)
        illegal = np.flatnonzero(info["action_mask"] == 0)
        if not illegal.size:
            pytest.skip("every action legal at the start")
        _, reward, terminated, truncated, info = env.step(int(illegal[0]))
        assert terminated and not truncated and reward == -2.5 and info["reason"] == "illegal"

    def test_single_env_determinism(self, game_name, config):
        def trajectory(seed):
            env = gym.make(game_class(game_name).env_id, **config)
            obs, info = env.reset(seed=seed)
            out, rng = [obs], np.random.default_rng(0)
            for _ in range(200):
                obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
                out.append(obs)
                if term:
                    obs, info = env.reset()
                    out.append(obs)
            return np.array(out)

        np.testing.assert_array_equal(trajectory(11), trajectory(11))
        assert not np.array_equal(trajectory(11), trajectory(12))

    @pytest.mark.parametrize("autoreset,obs_mode,illegal", [
        ("same_step", "flat", "raise"), ("same_step", "dict", "lose"),
        ("next_step", "flat", "lose"), ("next_step", "dict", "raise"), ("disabled", "dict", "lose"),
    ])
    def test_vector_env_matches_single_envs(self, game_name, config, autoreset, obs_mode, illegal):
        """Slot i of the vector env replays a single env seeded s + i, across autoresets, in every
        autoreset and observation mode (disabled: the test restarts finished slots with
        ``reset_mask``); with ``illegal_action="lose"`` some actions are illegal."""
        env_id = game_class(game_name).env_id
        n, mode = 3, AUTORESET_MODES[autoreset]
        config = dict(config, opponents=deterministic_bot(game_name), observation_mode=obs_mode,
                      illegal_action=illegal, illegal_penalty=1.5)
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point",
                            autoreset_mode=autoreset, **config)
        assert venv.metadata["autoreset_mode"] is mode and venv.unwrapped.autoreset_mode is mode
        assert venv.single_observation_space == gym.make(env_id, **config).observation_space
        singles = [gym.make(env_id, **config) for _ in range(n)]
        obs, info = venv.reset(seed=20)
        s_out = [e.reset(seed=20 + i) for i, e in enumerate(singles)]
        for i in range(n):
            _assert_same_obs(obs, i, s_out[i][0])
        rng = np.random.default_rng(5)
        finished, forfeits, ended = 0, 0, np.zeros(n, dtype=bool)
        for _ in range(150):
            actions = np.array([_pick(m, rng, illegal == "lose") for m in info["action_mask"]])
            obs, rew, term, trunc, info = venv.step(actions)
            assert venv.observation_space.contains(obs)
            for i, e in enumerate(singles):
                if ended[i]:  # next-step mode: this step starts the slot's next game
                    o, inf = e.reset()
                    r, t = 0.0, False
                else:
                    o, r, t, _, inf = e.step(int(actions[i]))
                assert r == pytest.approx(rew[i]) and t == term[i] and not trunc[i]
                if t:
                    finished += 1
                    forfeits += inf["reason"] == "illegal"
                    result = info["final_info"] if autoreset == "same_step" else info
                    for k in env_fields(game_name, inf):
                        assert _same(result[k][i], inf[k]), k
                    if autoreset == "same_step":
                        _assert_same_obs(info["final_obs"], i, o)
                        o, inf = e.reset()
                _assert_same_obs(obs, i, o)
                np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
            if autoreset == "disabled" and term.any():
                before = obs
                obs, info = venv.reset(options={"reset_mask": term})
                for i, e in enumerate(singles):
                    if term[i]:
                        o, inf = e.reset()
                        _assert_same_obs(obs, i, o)
                        np.testing.assert_array_equal(info["action_mask"][i], inf["action_mask"])
                    else:
                        _assert_same_obs(obs, i, {k: v[i] for k, v in before.items()})
            ended = term & (autoreset == "next_step")
        assert finished > 0 and (forfeits > 0) == (illegal == "lose")


def env_fields(game_name: str, info: dict) -> list[str]:
    """The result fields of a single env's info (what the vector env reports per slot)."""
    fields = dict.fromkeys((*game_spec(game_name).result_fields, "reason", "reason_code"))
    return [k for k in fields if k in info]


def _same(a, b) -> bool:
    return np.array_equal(np.asarray(a), np.asarray(b)) if a is not None else b is None


def _pick(mask, rng, sometimes_illegal: bool) -> int:
    """A legal action (an illegal one a tenth of the time if asked); 0 for an all-zero mask."""
    if sometimes_illegal and (mask == 0).any() and rng.random() < 0.1:
        return int(rng.choice(np.flatnonzero(mask == 0)))
    return int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0


def _assert_same_obs(batch, i: int, single) -> None:
    """Slot ``i`` of a batched observation (flat or dict) equals a single env's observation."""
    if isinstance(single, dict):
        assert set(batch) == set(single)
        for k in single:
            np.testing.assert_array_equal(batch[k][i], single[k])
    else:
        np.testing.assert_array_equal(batch[i], single)
