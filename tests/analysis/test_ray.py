"""The Ray backend gives the rows local processes give: on a two-node cluster on this
machine (one session-wide cluster: Ray takes seconds to start), and from the command line
on a one-machine cluster of its own (``ray.init(num_cpus=N)``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ninetynine.analysis import read_results, simulate

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")
ROOT = Path(__file__).resolve().parents[2]
GRID = {"rules": ["P"], "players": [3], "lineups": ["heuristic,random", "random"]}


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[object]:
    """A Ray cluster of two nodes (one CPU each) on this machine, joined by this process; shut
    down after this module, so that its daemons do not run beside the rest of the suite."""
    env = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env]))
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, logging_level="WARNING")
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()
        os.environ["PYTHONPATH"] = env


def test_a_two_node_cluster_gives_the_rows_of_local_processes(
    two_nodes: object, tmp_path: Path
) -> None:
    on_ray = simulate(**GRID, games=12, seed=9, chunk=3, backend="ray", out=tmp_path / "ray")  # type: ignore[arg-type]
    local = simulate(**GRID, games=12, seed=9, chunk=3, workers=2)  # type: ignore[arg-type]
    assert on_ray.game_rows() == local.game_rows()
    assert on_ray.hand_rows() == local.hand_rows()
    assert len(ray.nodes()) == 2
    assert read_results(tmp_path / "ray").manifest["done"] is True


def test_the_command_line_starts_a_one_machine_cluster(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = ["simulate", "--rules", "P", "--players", "3", "--bots", "random", "--games", "6",
            "--seed", "9", "--chunk", "3", "--out", str(tmp_path), "--quiet"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "ninetynine", *args, "--backend", "ray", "--workers", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    local = simulate("P", 3, "random", games=6, seed=9, chunk=3)
    assert read_results(tmp_path).game_rows() == local.game_rows()
