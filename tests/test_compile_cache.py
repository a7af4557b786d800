"""The compiled kernels are cached on disk: a second process loads them instead of compiling,
and a damaged cache file is replaced instead of failing every process.

Two fresh processes run every kernel through the public API (``tests/compile_workload.py``)
with an empty numba cache directory of their own: the first compiles and writes the cache,
the second must find every kernel there (numba's dispatcher statistics: cache hits, no
misses).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

WORKLOAD = Path(__file__).with_name("compile_workload.py")

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def _run(cache_dir: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, str(WORKLOAD)], capture_output=True, text=True, env=env,
                       cwd=WORKLOAD.parent.parent)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_second_process_loads_every_kernel_from_the_cache(tmp_path):
    cold = _run(tmp_path)["kernels"]
    assert cold and any(k.startswith("envs.yacht.kernels.") for k in cold)
    assert all(v["misses"] > 0 for v in cold.values()), cold  # compiled, and written to the cache
    assert any(tmp_path.rglob("*.nbi"))
    warm = _run(tmp_path)["kernels"]
    # Kernels called only from other kernels compile with their callers, and are not
    # loaded on their own from the cache.
    assert "envs.yacht.kernels.step" in warm and set(warm) <= set(cold)
    gostop = {"step_rows", "legal_mask", "observe", "deal_random", "deal_given", "classify"}
    assert {f"envs.gostop.kernels.{k}" for k in gostop} <= set(warm), sorted(warm)
    rainbow = {f"envs.rainbow_dice.kernels.{k}" for k in ("new_games", "legal_mask", "step", "step_rows", "observe")}
    assert rainbow <= set(warm), sorted(rainbow - set(warm))
    checks = {f"envs.{g}.checks.{k}" for g in ("yacht", "rainbow_dice", "gostop")
              for k in ("CHECKER", "step_checked", "legal_mask_checked", "observe_checked")}
    assert checks <= set(warm), sorted(checks - set(warm))
    missed = {k: v for k, v in warm.items() if v["misses"] or not v["hits"]}
    assert not missed, f"recompiled in the second process: {missed}"


_YACHT_RUN = ("import json; from tests.no_jit_workload import digest; from tests.compile_workload import stats; "
              "print(json.dumps({'digest': digest('yacht'), 'kernels': stats()}))")


def _run_yacht(cache_dir: Path) -> tuple[dict, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, "-c", _YACHT_RUN], capture_output=True, text=True, env=env,
                       cwd=WORKLOAD.parent.parent)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def test_corrupted_cache_files_are_discarded_recompiled_and_saved_again(tmp_path):
    """A truncated, empty or overwritten .nbi / .nbc file costs one warning naming it and a
    recompilation, once: the next process finds a sound cache again."""
    cold, _ = _run_yacht(tmp_path)
    index = sorted(tmp_path.rglob("*.nbi"))
    assert len(index) >= 5
    # Damage the index of two kernels and the data of three others (a kernel whose index is
    # unreadable never opens its data).
    data = [next(p.parent.glob(p.name[: -len(".nbi")] + ".*.nbc")) for p in index[2:5]]
    rng = np.random.default_rng(0)
    damaged = {
        index[0]: index[0].read_bytes()[: index[0].stat().st_size // 2],  # truncated
        index[1]: rng.bytes(200),  # random bytes
        data[0]: b"",  # empty
        data[1]: data[1].read_bytes()[:40],  # truncated
        data[2]: rng.bytes(500),
    }
    for path, content in damaged.items():
        path.write_bytes(content)
    again, stderr = _run_yacht(tmp_path)
    assert again["digest"] == cold["digest"]
    for path in damaged:
        assert f"discarding the corrupted numba cache file {path}" in stderr, (path, stderr[-3000:])
    assert stderr.count("CorruptCacheWarning") == len(damaged)
    warm, stderr = _run_yacht(tmp_path)
    assert "CorruptCacheWarning" not in stderr and warm["digest"] == cold["digest"]
    missed = {k: v for k, v in warm["kernels"].items() if v["misses"] or not v["hits"]}
    assert warm["kernels"] and not missed, f"recompiled in the third process: {missed}"


_TABLE_KERNEL = """
from envs.core.kernels import kernel
from .table import TABLE


@kernel
def first():
    return TABLE[0]
"""


def _first_of_table(root: Path, cache_dir: Path) -> int:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "OMP_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(root), str(WORKLOAD.parent.parent)])}
    r = subprocess.run([sys.executable, "-c", "from tablepkg.kern import first; print(first())"],
                       capture_output=True, text=True, env=env, cwd=root)
    assert r.returncode == 0, r.stderr[-3000:]
    return int(r.stdout.split()[-1])


def test_a_kernel_cache_is_keyed_on_the_tables_it_imports(tmp_path):
    """Changing a table's module recompiles the kernels that read it (numba alone keys its cache
    on the kernel's own file and would load the stale table)."""
    from envs.core.numba_cache import dependency_files

    assert {"dice.py", "scoring.py", "observation.py"} <= {Path(f).name for f in dependency_files("envs.yacht.kernels")}
    pkg = tmp_path / "tablepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kern.py").write_text(_TABLE_KERNEL)
    (pkg / "table.py").write_text("import numpy as np\nTABLE = np.array([1, 2, 3])\n")
    assert _first_of_table(tmp_path, tmp_path / "cache") == 1
    assert any((tmp_path / "cache").rglob("*.nbi"))
    (pkg / "table.py").write_text("import numpy as np\nTABLE = np.array([7, 2, 3, 4])\n")
    assert _first_of_table(tmp_path, tmp_path / "cache") == 7
