"""How the project installs: from the locks in requirements/ (exact versions, PyPI's files by
hash), in step with pyproject.toml, and built without a warning."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from infra.package import read_lock
from tests.deploy.conftest import ROOT

LOCKS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
REFRESH = "pyproject.toml and requirements/ disagree: run `make lock`"


def pins(lock: str) -> dict[str, str]:
    """{name: version} of a lock in requirements/."""
    pinned = {}
    for release in read_lock(LOCKS / lock):
        (specifier,) = release.requirement.specifier
        pinned[release.name] = specifier.version
    return pinned


def declared(*extras: str) -> list[Requirement]:
    """pyproject.toml's runtime dependencies, and those of the given extras."""
    project = PYPROJECT["project"]
    listed = list(project["dependencies"])
    for extra in extras:
        listed += project["optional-dependencies"][extra]
    return [Requirement(line) for line in listed]


@pytest.mark.parametrize(
    ("lock", "extras"), [("run.txt", ()), ("dev.txt", ("dev",))], ids=["run", "dev"]
)
def test_every_declared_dependency_is_locked_at_a_version_it_allows(
    lock: str, extras: tuple[str, ...]
) -> None:
    locked = pins(lock)
    for requirement in declared(*extras):
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{name} is not in requirements/{lock}: {REFRESH}"
        assert requirement.specifier.contains(locked[name], prereleases=True), REFRESH


def test_the_build_lock_holds_the_build_backend_pyproject_asks_for() -> None:
    locked = pins("build.txt")
    for line in PYPROJECT["build-system"]["requires"]:
        requirement = Requirement(line)
        version = locked.get(canonicalize_name(requirement.name))
        assert version is not None and requirement.specifier.contains(version), REFRESH


def test_the_bot_and_its_tests_install_the_same_versions_into_one_environment() -> None:
    run, dev = pins("run.txt"), pins("dev.txt")

    assert {name: dev.get(name) for name in run} == run


@pytest.mark.parametrize("lock", ["build.txt", "run.txt", "dev.txt", "lock-tool.txt"])
def test_every_release_is_pinned_with_the_hashes_of_its_files(lock: str) -> None:
    releases = read_lock(LOCKS / lock)

    assert releases
    for release in releases:
        (specifier,) = release.requirement.specifier
        assert specifier.operator == "==", release.requirement
        assert release.hashes and all(h.startswith("sha256:") for h in release.hashes)


@pytest.mark.parametrize("lock", ["build.txt", "run.txt", "dev.txt", "lock-tool.txt"])
def test_a_lock_names_no_index_and_no_local_file(lock: str) -> None:
    """Where a lock installs from is pip's own setting; a location of the machine that wrote it
    (an extra index, a folder of wheels) would not exist on the next one."""
    text = (LOCKS / lock).read_text()
    options = [line for line in text.splitlines() if line.startswith("-")]

    assert options == []
    assert "file:" not in text and "/opt/" not in text


@pytest.mark.slow
def test_the_project_builds_without_a_warning(tmp_path: Path) -> None:
    """Its metadata, as pip's editable install has setuptools write it, every warning an error
    (a deprecated pyproject.toml field warns first, then stops building one day)."""
    build = Requirement(PYPROJECT["build-system"]["requires"][0])
    try:
        installed = metadata.version(build.name)
    except metadata.PackageNotFoundError:
        installed = None
    if installed is None or not build.specifier.contains(installed):
        pytest.skip(f"{build} is not installed here: `make test` installs requirements/build.txt")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tmp_path / name)
    for name in ("engine", "handlers", "infra"):
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / name, tmp_path / name, ignore=ignore)
    (tmp_path / "metadata").mkdir()
    build_metadata = (
        "from setuptools import build_meta; "
        "print(build_meta.prepare_metadata_for_build_editable('metadata'))"
    )
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", build_metadata],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(".dist-info")
    assert (
        "License-Expression: MIT" in next((tmp_path / "metadata").glob("*/METADATA")).read_text()
    )
