"""5. The Lambda zip: its size, its largest parts and its import time on Python 3.12."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from bench.bot.cold_start import TIMED
from bench.bot.world import ROOT
from infra.package import python312


def package(build: bool) -> None:
    """Print the Lambda zip's size and its largest parts (building it into a temporary folder)."""
    print("\n5. Package (build/lambda.zip)")
    path = ROOT / "build" / "lambda.zip"
    if not path.exists() and build:
        out = Path(tempfile.mkdtemp(prefix="bench-zip-")) / "lambda.zip"
        result = subprocess.run(
            [sys.executable, str(ROOT / "infra" / "package.py"), "--out", str(out), "--quiet"],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            print(f"  could not build: {result.stderr.strip()[-300:]}")
            return
        path = out
    if not path.exists():
        print("  no build/lambda.zip (run infra/package.py)")
        return
    packed: dict[str, int] = {}
    unpacked: dict[str, int] = {}
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            top = info.filename.split("/", 1)[0]
            if top.endswith(".dist-info"):
                top = "*.dist-info"
            packed[top] = packed.get(top, 0) + info.compress_size
            unpacked[top] = unpacked.get(top, 0) + info.file_size
    print(
        f"  {path.stat().st_size / 1e6:.2f} MB zipped, {sum(unpacked.values()) / 1e6:.2f} MB "
        f"unzipped (target: zip < 5 MB; Lambda's limits 50 MB / 250 MB)"
    )
    for top, size in sorted(packed.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {size / 1e6:7.2f} MB zipped {unpacked[top] / 1e6:7.2f} MB unzipped  {top}")
    compiled_imports(path)


# What the first webhook imports from the zip (no botocore: infra.aws is standard library).
ZIP_IMPORTS = (
    "import telegram, telegram.ext, httpx, handlers.telegram.app, handlers.entry.lambda_webhook"
)


def compiled_imports(path: Path, runs: int = 5) -> None:
    """Print the zip's import time on 3.12 as shipped (compiled when the build had a 3.12) and
    from its sources alone (what a build without one ships)."""
    python = python312()
    if python is None:
        print("  (no CPython 3.12 here: the zip's import time not measured)")
        return
    with tempfile.TemporaryDirectory(prefix="bench-pyc-") as folder:
        shipped, sources = Path(folder) / "shipped", Path(folder) / "sources"
        with zipfile.ZipFile(path) as zf:
            zf.extractall(shipped)
            has_pyc = any(name.endswith(".pyc") for name in zf.namelist())
        shutil.copytree(shipped, sources, ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPYCACHEPREFIX", None)
        times: dict[str, list[float]] = {"shipped": [], "sources": []}
        for _ in range(runs):
            for name, where in (("shipped", shipped), ("sources", sources)):
                code = TIMED.format(code=ZIP_IMPORTS)
                result = subprocess.run(
                    [python, "-c", code],
                    capture_output=True,
                    text=True,
                    env={**env, "PYTHONPATH": str(where)},
                    cwd=folder,
                    check=True,
                )
                times[name].append(float(result.stdout.strip()))
        shipped_ms, source_ms = (statistics.median(times[k]) for k in ("shipped", "sources"))
        print(
            f"  Python 3.12, what the first webhook imports from the zip: {shipped_ms:.0f} ms as "
            f"shipped ({'compiled' if has_pyc else 'sources only'}), {source_ms:.0f} ms "
            "from sources alone"
        )
