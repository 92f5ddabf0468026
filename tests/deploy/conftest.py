"""Deploy fixtures: the CloudFormation template `serverless package` generates, offline.

The project is packaged once per session in a temporary copy (so the work tree's .serverless/
and build/ are left alone) with dummy AWS credentials, every AWS endpoint pointed at a closed
loopback port (packaging must not need AWS), and a recognisable dummy bot token in the
environment, which the tests then look for in everything the packaging wrote.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVERLESS = ROOT / "node_modules" / ".bin" / "serverless"
STAGE = "ci"
REGION = "us-east-1"
# Shaped like a real token (the template's AllowedPattern) and easy to search for.
DUMMY_TOKEN = "99900:DUMMY-bot-token-for-the-template-check"  # not shaped like a real one
COPIED = ("serverless.yml", "package.json", "package-lock.json", "pyproject.toml")
COPIED_DIRS = ("engine", "handlers", "infra", "requirements")
PACKAGE_TIMEOUT = 600


@dataclass
class Packaged:
    """What `serverless package` produced: the template, its folder and the Lambda zip."""

    template: dict[str, Any]
    template_path: Path
    output_dir: Path
    artifact: Path
    log: str

    @property
    def resources(self) -> dict[str, Any]:
        return self.template["Resources"]

    def of_type(self, kind: str) -> dict[str, Any]:
        """The resources of one CloudFormation type, by logical id."""
        return {k: v for k, v in self.resources.items() if v["Type"] == kind}


def offline_aws_env(home: Path) -> dict[str, str]:
    """The environment for osls: dummy credentials, no profile, AWS unreachable."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AWS_", "SLS_", "SERVERLESS_")) and k != "TELEGRAM_BOT_TOKEN"
    }
    env.update(
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_SESSION_TOKEN="testing",
        AWS_CONFIG_FILE=str(home / "no-aws-config"),
        AWS_SHARED_CREDENTIALS_FILE=str(home / "no-aws-credentials"),
        AWS_EC2_METADATA_DISABLED="true",
        # Any AWS call during packaging would fail at once instead of leaving the machine.
        AWS_ENDPOINT_URL="http://127.0.0.1:9",
        PYTHON=sys.executable,
        TELEGRAM_BOT_TOKEN=DUMMY_TOKEN,
    )
    return env


def copy_project(destination: Path) -> None:
    """The files `serverless package` reads, with node_modules linked, not copied."""
    for name in COPIED:
        shutil.copy2(ROOT / name, destination / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in COPIED_DIRS:
        shutil.copytree(ROOT / name, destination / name, ignore=ignore)
    (destination / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)


@pytest.fixture(scope="session")
def packaged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Packaged]:
    """`npx serverless package --stage ci`, once per session, in a temporary copy."""
    if not SERVERLESS.exists():
        pytest.skip(
            "node_modules/.bin/serverless is absent: run `npm ci` (.ci/deploy-check does) "
            "to test the deployment"
        )
    work = tmp_path_factory.mktemp("deploy")
    copy_project(work)
    result = subprocess.run(
        [str(SERVERLESS), "package", "--stage", STAGE, "--region", REGION],
        cwd=work,
        env=offline_aws_env(work),
        capture_output=True,
        text=True,
        timeout=PACKAGE_TIMEOUT,
        check=False,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"serverless package failed:\n{log}"
    output_dir = work / ".serverless"
    template_path = output_dir / "cloudformation-template-update-stack.json"
    yield Packaged(
        template=json.loads(template_path.read_text()),
        template_path=template_path,
        output_dir=output_dir,
        artifact=work / "build" / "lambda.zip",
        log=log,
    )


def zip_texts(path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, content) of every file in a zip."""
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            yield name, zf.read(name)
