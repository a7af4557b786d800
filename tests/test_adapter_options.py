"""The adapter options of every game: observation, info and autoreset modes, and the vector
env's illegal actions.  (Batch-N = N x batch-1 in every mode: tests/test_conformance.py.)"""

from __future__ import annotations

import importlib

import gymnasium as gym
import numpy as np
import pytest

import envs
from envs.adapters.infos import REASON_CODES, REASONS
from envs.adapters.vector_env import AUTORESET_MODES
from envs.core.sampling import sample_legal
from envs.registration import GAMES, game_class
from tests.conformance import deterministic_bot, seated_config

CONFIGS = {name: seated_config(name) for name in GAMES}


def _vec(game, n=3, **kw):
    return gym.make_vec(game_class(game).env_id, num_envs=n, vectorization_mode="vector_entry_point",
                        **{**CONFIGS[game], **kw})


def _numeric(value) -> bool:
    return np.asarray(value).dtype.kind in "iufb"


def _play_gym(env, rng, episodes=2):
    """Infos of whole episodes of a single env (random legal play), one list per episode."""
    out = []
    for e in range(episodes):
        _, info = env.reset(seed=e)
        infos = [info]
        while True:
            _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            infos.append(info)
            if term or trunc:
                break
        out.append(infos)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("info_mode", ["full", "numeric"])
def test_single_env_infos_keep_their_keys_and_types(game, info_mode):
    """Every info of an episode has the same keys, each with one type; numeric mode is all
    numbers; the result fields are neutral until the end and ``reason_code`` encodes ``reason``."""
    env = gym.make(game_class(game).env_id, info_mode=info_mode, **CONFIGS[game])
    for infos in _play_gym(env, np.random.default_rng(0)):
        keys = list(infos[0])
        assert {"reason_code", "action_mask", "learner_seat", "reward_before_first_move"} <= set(keys)
        assert ("reason" in keys) == (info_mode == "full")
        for info in infos:
            assert list(info) == keys
            for k in keys:
                assert type(info[k]) is type(infos[0][k]), k
        if info_mode == "numeric":
            assert all(_numeric(v) for v in infos[-1].values())
        assert infos[0]["reason_code"] == 0
        last = infos[-1]
        if "scores" in last:
            assert np.asarray(infos[0]["scores"]).sum() == 0 and len(last["scores"]) == CONFIGS[game]["num_players"]
        else:
            assert infos[0]["winner"] == -1 and infos[0]["payout"] == 0 and last["reason_code"] > 0
        if info_mode == "full":
            assert last["reason_code"] == REASON_CODES[last["reason"]]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("info_mode", ["full", "numeric"])
def test_pettingzoo_infos_keep_their_keys(game, info_mode):
    aec = getattr(envs, game).env(info_mode=info_mode, **CONFIGS[game])
    aec.reset(seed=4)
    keys = {a: list(aec.infos[a]) for a in aec.agents}
    rng = np.random.default_rng(1)
    for agent in aec.agent_iter():
        obs, _, term, trunc, info = aec.last()
        assert list(info) == keys[agent]
        if info_mode == "numeric":
            assert all(_numeric(v) for v in info.values())
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert "reason_code" in info


@pytest.mark.parametrize("game", sorted(GAMES))
def test_vector_env_numeric_infos_are_arrays_of_the_single_envs_fields(game):
    n = 4
    venv = _vec(game, n, info_mode="numeric", autoreset_mode="next_step")
    _, info = venv.reset(seed=0)
    keys = set(info)
    rng, ended = np.random.default_rng(2), 0
    for _ in range(200):
        _, _, term, _, info = venv.step(sample_legal(info["action_mask"], rng))
        assert set(info) == keys
        for k, v in info.items():
            assert isinstance(v, np.ndarray) and v.shape[0] == n and _numeric(v), k
        for i in np.flatnonzero(term):
            ended += 1
            assert info["reason_code"][i] > 0 or "scores" in info
        for i in np.flatnonzero(~term):
            assert info["reason_code"][i] == 0
    assert ended


def test_every_reason_a_game_reports_has_a_code():
    from envs.gostop.state import REASONS as GOSTOP_REASONS

    assert set(GOSTOP_REASONS[1:]) | {"illegal"} <= set(REASONS)
    assert REASONS[0] == "" and len(set(REASONS)) == len(REASONS)


def test_dict_observations_hold_the_mask():
    env = gym.make("madang/GoStop-v0", observation_mode="dict")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
    assert obs["action_mask"].dtype == np.int8 and obs["observation"].dtype == np.float32
    assert env.observation_space == envs.gostop.env().observation_space("player_0")
    venv = _vec("gostop", 2, observation_mode="dict")
    obs, info = venv.reset(seed=3)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
    assert venv.single_observation_space == env.observation_space


@pytest.mark.parametrize("autoreset", ["same_step", "next_step"])
def test_vector_env_forfeits_an_illegal_action_in_lose_mode(autoreset):
    venv = _vec("yacht", 3, illegal_action="lose", illegal_penalty=2, autoreset_mode=autoreset)
    _, info = venv.reset(seed=5)
    actions = sample_legal(info["action_mask"], np.random.default_rng(0))
    actions[1] = 0  # "reroll no die": never legal
    obs, rew, term, trunc, info = venv.step(actions)
    assert term.tolist() == [False, True, False] and not trunc.any() and rew[1] == -2.0
    result = info["final_info"] if autoreset == "same_step" else info
    assert result["reason"][1] == "illegal" and result["reason_code"][1] == REASON_CODES["illegal"]
    if autoreset == "next_step":
        assert not info["action_mask"][1].any() and not venv.unwrapped.action_masks()[1].any()
        actions = sample_legal(info["action_mask"], np.random.default_rng(1))
        actions[1] = 0  # ignored: this step starts slot 1's next game
        _, rew, term, _, info = venv.step(actions)
        assert rew[1] == 0.0 and not term[1] and info["action_mask"][1].any()
    assert info["action_mask"][1].any() and info["reason_code"][1] == 0
    with pytest.raises(ValueError, match="out of range"):
        venv.step(np.array([0, 0, 99]))


def test_vector_env_raise_mode_changes_nothing():
    venv = _vec("gostop", 2).unwrapped
    _, info = venv.reset(seed=1)
    before = venv.state.copy()
    bad = sample_legal(info["action_mask"], np.random.default_rng(0))
    bad[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    for actions in (bad, bad.astype(float), bad[:1], np.array([True, False])):
        with pytest.raises(ValueError):
            venv.step(actions)
        assert venv.state.equals(before)


@pytest.mark.parametrize("kwargs", [dict(autoreset_mode="sometimes"), dict(observation_mode="tuple"),
                                    dict(info_mode="json"), dict(illegal_action="skip"),
                                    dict(illegal_penalty=0), dict(mask_dtype="int64")])
def test_bad_mode_values_raise(kwargs):
    makers = [lambda: _vec("yacht", 2, **kwargs)]
    if "autoreset_mode" not in kwargs:
        makers.append(lambda: gym.make("madang/Yacht-v0", **kwargs))
    if set(kwargs) & {"info_mode", "illegal_action", "illegal_penalty", "mask_dtype"}:
        makers.append(lambda: envs.yacht.env(**kwargs))
    for make in makers:
        with pytest.raises(ValueError):
            make()


def test_autoreset_mode_is_an_attribute_and_in_metadata():
    for mode, member in (("same_step", gym.vector.AutoresetMode.SAME_STEP),
                         ("next_step", gym.vector.AutoresetMode.NEXT_STEP)):
        venv = _vec("yacht", 2, autoreset_mode=mode)
        assert venv.unwrapped.autoreset_mode is member and venv.metadata["autoreset_mode"] is member
        assert _vec("yacht", 2, autoreset_mode=member).unwrapped.autoreset_mode is member
    assert _vec("yacht", 2).unwrapped.autoreset_mode is gym.vector.AutoresetMode.SAME_STEP


def test_gymnasium_sync_vector_env_stacks_the_infos():
    """SyncVectorEnv types each info array by its first value: the fields keep one type."""
    venv = gym.make_vec("madang/GoStop-v0", num_envs=6, vectorization_mode="sync")
    venv.reset(seed=0)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(150):
        masks = np.stack(venv.call("action_masks"))
        _, _, term, _, info = venv.step(sample_legal(masks, rng))
        ended += int(term.sum())
    assert ended > 6 and info["winner"].dtype == np.int64


DETERMINISTIC_BOT = {name: deterministic_bot(name) for name in GAMES}


def _assert_same_infos(ours: dict, theirs: dict, where: str = "infos") -> None:
    """The same keys and ``_key`` masks as ``theirs``, and the same values (and numeric dtypes)
    where a mask is set; ``final_obs`` is stacked in ours, an object array in theirs."""
    assert set(ours) == set(theirs), f"{where}: keys differ by {sorted(set(ours) ^ set(theirs))}"
    for k, value in theirs.items():
        if isinstance(value, dict):
            _assert_same_infos(ours[k], value, f"{where}[{k!r}]")
        elif k.startswith("_"):
            np.testing.assert_array_equal(ours[k], value, err_msg=f"{where}[{k!r}]")
        else:
            if value.dtype != object:
                assert ours[k].dtype == value.dtype, f"{where}[{k!r}]: {ours[k].dtype} != {value.dtype}"
            for i in np.flatnonzero(theirs[f"_{k}"]):
                a, b = ours[k][i], value[i]
                assert np.array_equal(np.asarray(a), np.asarray(b)) if b is not None else a is None, \
                    f"{where}[{k!r}][{i}]: {a!r} != {b!r}"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("autoreset", ["same_step", "next_step", "disabled"])
def test_vector_env_infos_are_those_of_sync_vector_env_over_single_envs(game, autoreset):
    """A loop written for ``gymnasium.vector.SyncVectorEnv`` over madang's single envs finds the
    same info keys, ``_key`` masks and values in madang's vector env (``final_info`` included;
    in disabled mode the restarts by ``reset_mask`` too)."""
    n, env_id = 4, game_class(game).env_id
    config = dict(CONFIGS[game], opponents=DETERMINISTIC_BOT[game])
    ours = _vec(game, n, autoreset_mode=autoreset, opponents=DETERMINISTIC_BOT[game])
    theirs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id, **config) for _ in range(n)],
                                      autoreset_mode=AUTORESET_MODES[autoreset])
    (_, info), (_, sync_info) = ours.reset(seed=7), theirs.reset(seed=7)
    _assert_same_infos(info, sync_info, "reset")
    rng, ended = np.random.default_rng(1), 0
    for t in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        _, reward, term, trunc, info = ours.step(actions)
        _, sync_reward, sync_term, sync_trunc, sync_info = theirs.step(actions)
        np.testing.assert_allclose(reward, sync_reward)
        assert (term == sync_term).all() and (trunc == sync_trunc).all()
        _assert_same_infos(info, sync_info, f"step {t}")
        ended += int(term.sum())
        if autoreset == "disabled" and term.any():
            (_, info), (_, sync_info) = (ours.reset(options={"reset_mask": term.copy()}),
                                         theirs.reset(options={"reset_mask": term.copy()}))
            _assert_same_infos(info, sync_info, f"reset_mask after step {t}")
    assert ended >= n


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mask_dtype_bool_gives_bool_masks_everywhere(game):
    """``mask_dtype="bool"`` (what TorchRL's MaskedCategorical takes) in infos, observations,
    ``action_masks()`` and the observation spaces of the single, vector and PettingZoo envs."""
    env = gym.make(game_class(game).env_id, observation_mode="dict", mask_dtype="bool", **CONFIGS[game])
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and env.observation_space["action_mask"].dtype == bool
    for mask in (obs["action_mask"], info["action_mask"], env.unwrapped.action_masks()):
        assert mask.dtype == bool and mask.any()
    int8_env = gym.make(game_class(game).env_id, observation_mode="dict", **CONFIGS[game])
    _, int8_info = int8_env.reset(seed=0)
    assert int8_info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(int8_info["action_mask"].astype(bool), info["action_mask"])
    venv = _vec(game, 3, observation_mode="dict", mask_dtype="bool")
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    assert obs["action_mask"].dtype == info["action_mask"].dtype == venv.unwrapped.action_masks().dtype == bool
    rng = np.random.default_rng(0)
    for _ in range(100):
        obs, _, term, _, info = venv.step(sample_legal(info["action_mask"], rng))
        assert obs["action_mask"].dtype == info["action_mask"].dtype == bool
        if term.any():
            assert info["final_obs"]["action_mask"].dtype == bool
    aec = importlib.import_module(f"envs.{game}").env(mask_dtype="bool", **CONFIGS[game])
    aec.reset(seed=0)
    for agent in aec.agents:
        obs = aec.observe(agent)
        assert obs["action_mask"].dtype == bool and aec.observation_space(agent).contains(obs)
    with pytest.raises(ValueError, match="mask_dtype"):
        gym.make(game_class(game).env_id, mask_dtype="float32")
