"""The deploy tests and the browser tests each keep to one worker under `--dist loadgroup`
(tests/support/workers.py), so the project is packaged once a run and one browser runs at once."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RECORDING_TEST = """
import os
import time

import pytest


@pytest.mark.parametrize("n", range(6))
def test_records_its_worker(n):
    time.sleep(0.05)
    with open(os.environ["WORKERS_SEEN"], "a") as seen:
        seen.write(f"{__name__} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""


def _suite(root: Path) -> None:
    """A small suite laid out as ours: two ONE_WORKER folders and a folder that spreads."""
    for folder in ("deploy", "browser", "e2e"):
        (root / "tests" / folder).mkdir(parents=True)
        (root / "tests" / folder / f"test_{folder}.py").write_text(RECORDING_TEST)
    (root / "pytest.ini").write_text("[pytest]\n")


@pytest.mark.slow  # a pytest run of its own, with two workers
def test_the_deploy_tests_and_the_browser_tests_each_keep_to_one_worker(tmp_path: Path) -> None:
    _suite(tmp_path)
    seen = tmp_path / "seen.txt"
    env = {**os.environ, "WORKERS_SEEN": str(seen), "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "tests"),
            *("-p", "tests.support.workers", "-p", "no:randomly", "-p", "no:cacheprovider"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers: dict[str, set[str]] = {}
    for line in seen.read_text().splitlines():
        module, worker = line.split()
        workers.setdefault(module, set()).add(worker)
    assert len(workers["test_deploy"]) == 1, workers
    assert len(workers["test_browser"]) == 1, workers
    assert workers["test_e2e"] == {"gw0", "gw1"}, workers  # the rest spreads over both
