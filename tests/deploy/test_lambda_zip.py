"""The Lambda zip `serverless package` builds: every handler in it, small, compiled for Python 3.12
when one is at hand, without boto3, the tests or the playtest harness."""

from __future__ import annotations

import importlib
import subprocess
from pathlib import Path

from infra import package
from tests.deploy.conftest import ROOT, Packaged, zip_texts

FUNCTIONS = {
    "WebhookLambdaFunction": "handlers.entry.lambda_webhook.webhook",
    "TimerLambdaFunction": "handlers.entry.lambda_webhook.timer",
    "WebhookSetupLambdaFunction": "handlers.entry.webhook_setup.handler",
}


def test_every_handler_is_a_callable_of_the_project_and_in_the_zip(packaged: Packaged) -> None:
    functions = packaged.of_type("AWS::Lambda::Function")
    handlers = {name: f["Properties"]["Handler"] for name, f in functions.items()}
    assert handlers == FUNCTIONS
    shipped = {name for name, _ in zip_texts(packaged.artifact)}
    for handler in handlers.values():
        module_name, _, attribute = handler.rpartition(".")
        module = importlib.import_module(module_name)
        assert callable(getattr(module, attribute)), handler
        assert module_name.replace(".", "/") + ".py" in shipped, handler


def test_the_zip_is_small_and_carries_no_boto3_tests_or_node_modules(packaged: Packaged) -> None:
    assert packaged.artifact.stat().st_size < 5_000_000
    tops = {name.split("/", 1)[0] for name, _ in zip_texts(packaged.artifact)}
    assert {"engine", "handlers", "infra", "telegram", "httpx"} <= tops
    assert not tops & {"boto3", "botocore", "tests", "bench", "node_modules", "docs"}
    assert not [name for name, _ in zip_texts(packaged.artifact) if "/playtest/" in name]


def test_the_zip_carries_every_module_compiled_for_python_312_when_one_is_at_hand(
    packaged: Packaged,
) -> None:
    files = dict(zip_texts(packaged.artifact))
    compiled = {name: data for name, data in files.items() if name.endswith(".pyc")}
    python = package.python312()
    if python is None:  # a deploying machine without 3.12 ships sources only
        assert compiled == {}
        return
    expected = {
        f"{name.rpartition('/')[0]}/__pycache__/{name.rpartition('/')[2][:-3]}.cpython-312.pyc".lstrip(
            "/"
        )
        for name in files
        if name.endswith(".py")
    }
    assert set(compiled) == expected
    magic = subprocess.run(
        [python, "-c", "import importlib.util as u; print(u.MAGIC_NUMBER.hex())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for name, data in compiled.items():
        assert data[:4].hex() == magic, name
        # Hash-based and unchecked: imported without reading (or stat-ing) the source.
        assert int.from_bytes(data[4:8], "little") == 0b01, name
    assert (
        b"/var/task/handlers/telegram/app.py"
        in compiled["handlers/telegram/__pycache__/app.cpython-312.pyc"]
    )


def test_the_zip_leaves_out_the_playtest_harness(tmp_path: Path) -> None:
    package.copy_project(tmp_path)
    shipped = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.py")}
    assert "handlers/entry/lambda_webhook.py" in shipped
    assert (ROOT / "handlers" / "playtest" / "__init__.py").is_file()
    assert not [name for name in shipped if name.startswith("handlers/playtest/")]


def test_compiling_for_lambda_without_python_312_leaves_the_sources_as_they_are(
    tmp_path: Path,
) -> None:
    (tmp_path / "module.py").write_text("VALUE = 1\n")
    assert package.compile_for_lambda(tmp_path, None) is False
    assert [p.name for p in tmp_path.rglob("*")] == ["module.py"]
