"""The compiled kernels are cached on disk: a second process loads them instead of compiling.

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

WORKLOAD = Path(__file__).with_name("compile_workload.py")


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
    missed = {k: v for k, v in warm.items() if v["misses"] or not v["hits"]}
    assert not missed, f"recompiled in the second process: {missed}"
