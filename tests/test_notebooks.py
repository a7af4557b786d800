"""The notebooks (nbmake runs them): committed without outputs, titled, listed in the README."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXPECTED = {"quickstart_yacht", "quickstart_rainbow_dice", "quickstart_gostop", "training_ppo", "your_front_end"}


def test_a_quickstart_per_game_a_training_and_a_front_end_notebook():
    assert {p.stem for p in NOTEBOOKS} == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    cells = json.loads(path.read_text())["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, (
                f"{path.name} cell {i} has outputs: clear them before committing "
                "(Jupyter: Edit > Clear Outputs of All Cells)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_opens_with_a_title_and_uses_one_torch_thread(path):
    cells = json.loads(path.read_text())["cells"]
    assert cells[0]["cell_type"] == "markdown" and "".join(cells[0]["source"]).startswith("# ")
    code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "torch.set_num_threads(1)" in code


def test_readme_links_every_notebook():
    readme = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\(notebooks/([\w.-]+)\.ipynb\)", readme))
    assert linked == {p.stem for p in NOTEBOOKS}
