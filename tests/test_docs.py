"""The README and docs: every Python block runs alone, layouts match the code, links stay inside.

A block's info string names the extra it needs: ```` ```python torchrl ```` runs here when
torchrl is installed (``requires("torchrl")``: always under CI), ```` ```python onnx ```` when the
onnx extra is (``requires("onnx")``), ```` ```python rllib ```` runs in the RLlib venv, by
tests/rllib/test_rllib.py (ray pins its own gymnasium).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envs.registration import GAMES, game_class

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PAGES = DOCS + sorted(p for p in (ROOT / "examples").rglob("README.md") if "node_modules" not in p.parts)
BLOCK = re.compile(r"^```python( [a-z]+)?\n(.*?)^```", re.S | re.M)
TAGS = ("", "torchrl", "onnx", "rllib")  # the extra a block needs ("": none)

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def blocks(tag: str = "") -> list:
    """The Python blocks of README.md and docs/ whose info string names ``tag`` ("": none)."""
    out = []
    for path in DOCS:
        text = path.read_text()
        for m in BLOCK.finditer(text):
            block_tag = (m.group(1) or "").strip()
            assert block_tag in TAGS, f"{path.name}: unknown block tag {block_tag!r}"
            if block_tag == tag:
                line = text.count("\n", 0, m.start()) + 1
                out.append(pytest.param(m.group(2), id=f"{path.relative_to(ROOT)}:{line}"))
    return out


def test_readme_and_docs_have_python_blocks():
    assert len(blocks()) >= 8 and blocks("torchrl") and blocks("onnx") and blocks("rllib")


def _run_alone(code, cwd) -> None:
    """A block in a fresh interpreter, from an empty directory: imports included, no placeholders."""
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("code", blocks())
def test_python_block_runs_alone(code, tmp_path):
    _run_alone(code, tmp_path)


@pytest.mark.requires("torchrl")
@pytest.mark.parametrize("code", blocks("torchrl"))
def test_torchrl_block_runs_alone(code, tmp_path):
    _run_alone(code, tmp_path)


@pytest.mark.requires("onnx")
@pytest.mark.parametrize("code", blocks("onnx"))
def test_onnx_block_runs_alone(code, tmp_path):
    _run_alone(code, tmp_path)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_never_point_outside_the_project(page):
    text = page.read_text()
    assert "shared/" not in text, f"{page.name} mentions shared/, which is not part of the project"
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if not re.match(r"[a-z]+:", target):  # a relative link: it must exist in the project
            assert (page.parent / target).resolve().exists(), f"{page.name} links to missing {target}"


def _rows(text: str, header: str) -> list[list[str]]:
    """The cells of the Markdown table whose header starts with ``| header |`` (backticks removed)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip().strip("|").split("|")])
    return rows


def _ranges(text: str, header: str) -> list[tuple[str, int, int]]:
    """``(name, first, last)`` of a layout table: a name, then ids ``first..last`` (or one id)."""
    out = []
    for cells in _rows(text, header):
        first, _, last = cells[1].partition("..")
        out.append((cells[0], int(first), int(last or first)))
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_layouts_match_the_code(game):
    """The observation and action tables of docs/rules/GAME.md are the code's slices, in order."""
    cls = game_class(game)
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    assert _ranges(text, "slice") == [(n, s.start, s.stop - 1) for n, s in cls.obs_slices.items()]
    assert _ranges(text, "action") == [(n, s.start, s.stop - 1) for n, s in cls.action_slices.items()]
    assert f"{cls.obs_size} float32 values" in text and f"`Discrete({cls.num_actions})`" in text
    assert f'"{cls.env_id}"' in text


def test_rainbow_hand_table_is_the_catalog():
    from envs.rainbow_dice import HAND_IDS, HAND_NAMES, HAND_RANKS, HAND_SCORES, RANK_NAMES

    rows = _rows((ROOT / "docs" / "rules" / "rainbow_dice.md").read_text(), "#")
    assert [tuple(r[:5]) for r in rows] == [
        (str(i), HAND_IDS[i], HAND_NAMES[i], RANK_NAMES[HAND_RANKS[i]], str(HAND_SCORES[i]))
        for i in range(len(HAND_IDS))
    ]


def test_gostop_card_table_is_the_deck():
    from envs.gostop.cards import KIND, KIND_NAMES

    rows = _rows((ROOT / "docs" / "rules" / "gostop.md").read_text(), "month")
    assert [r[1] for r in rows] == [f"{4 * m}..{4 * m + 3}" for m in range(12)]
    kinds = [cell.split(":")[0] for r in rows for cell in r[2:6]]
    assert kinds == [KIND_NAMES[k] for k in KIND]


def test_readme_links_every_doc():
    readme = (ROOT / "README.md").read_text()
    for page in (ROOT / "docs").rglob("*.md"):
        assert f"({page.relative_to(ROOT)})" in readme, f"README does not link {page.relative_to(ROOT)}"


def test_adapter_options_table_is_the_code():
    """docs/interface.md lists every adapter option once, with the envs that take it and its values."""
    from envs.adapters import gym_env, pettingzoo_env, vector_env
    from envs.adapters.infos import INFO_MODES
    from envs.adapters.observations import MASK_DTYPES, OBSERVATION_MODES

    rows = {r[0]: r for r in _rows((ROOT / "docs" / "interface.md").read_text(), "option")}
    takers = {"single": gym_env.ADAPTER_KEYS, "vector": vector_env.ADAPTER_KEYS,
              "PettingZoo": pettingzoo_env.ADAPTER_KEYS}
    assert set(rows) == set().union(*takers.values()) - {"num_envs"}
    for key, cells in rows.items():
        assert {e.strip() for e in cells[1].split(",")} == {name for name, keys in takers.items() if key in keys}
    for key, modes in (("autoreset_mode", vector_env.AUTORESET_MODES), ("observation_mode", OBSERVATION_MODES),
                       ("info_mode", INFO_MODES), ("mask_dtype", MASK_DTYPES)):
        assert re.findall(r'"([a-z_0-9]+)"', rows[key][2]) == list(modes)


def test_reason_code_table_is_the_code():
    from envs.adapters.infos import REASONS

    rows = _rows((ROOT / "docs" / "interface.md").read_text(), "`reason_code`")
    assert [(int(r[0]), "" if r[1] == '""' else r[1]) for r in rows] == list(enumerate(REASONS))


def test_gostop_page_says_what_a_nagari_reports():
    """docs/rules/gostop.md gives the nagari winner the env reports in ``info`` (-1, not None)."""
    import gymnasium as gym
    import numpy as np

    from envs.core.sampling import sample_legal

    venv = gym.make_vec("madang/GoStop-v0", num_envs=512, vectorization_mode="vector_entry_point",
                        autoreset_mode="next_step")
    _, info = venv.reset(seed=0)
    rng, winners = np.random.default_rng(0), set()
    for _ in range(2000):
        _, _, term, _, info = venv.step(sample_legal(info["action_mask"], rng))
        winners |= {int(w) for w in info["winner"][term & (info["reason"] == "nagari")]}
        if winners:
            break
    assert winners == {-1}
    text = (ROOT / "docs" / "rules" / "gostop.md").read_text()
    assert '`info["winner"]` (a seat, or -1 for nagari' in text


def test_readme_status_table_names_every_bot(tmp_path):
    """README's status table lists, per game, the bots ``madang bots GAME`` lists (the package's
    own: a fresh user directory, so that no bot shipped on this machine counts)."""
    import json

    code = ("import json; from agents.registry import available; from envs.registration import GAMES; "
            "print(json.dumps({g: available(g) for g in GAMES}))")
    env = {**os.environ, "MADANG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    bots = json.loads(r.stdout)
    rows = _rows((ROOT / "README.md").read_text(), "game")
    listed = {cells[1]: set(re.findall(r"`([a-z0-9-]+)`", cells[2].split("bots:", 1)[1])) for cells in rows}
    assert listed == {game_class(g).env_id: set(bots[g]) for g in GAMES}


def test_license_file_is_the_license_pyproject_names():
    assert re.search(r'^license = \{ text = "MIT" \}$', (ROOT / "pyproject.toml").read_text(), re.M)
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the madang developers" in text
    assert "THE SOFTWARE IS PROVIDED \"AS IS\"" in text
