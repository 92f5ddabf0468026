"""Build the Lambda zip (Python 3.12 on arm64) without Docker: `python infra/package.py`, into
build/lambda.zip, from the run lock's wheels (compiled for 3.12 when one is at hand)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

try:
    from packaging.requirements import Requirement
except ImportError:  # a deploying Python with pip alone: pip carries the same library
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
PACKAGES = ("engine", "handlers", "infra")
# The files of those packages that are shipped: the modules, and the table view's page (package
# data of handlers.table, read with importlib.resources).
SHIPPED = ("*.py", "*.html")
# In the Lambda runtime already; shipping them would only add megabytes.
PROVIDED = {"boto3", "botocore", "s3transfer", "jmespath", "urllib3", "python-dateutil", "six"}
PLATFORM = "manylinux2014_aarch64"
PYTHON_VERSION = "3.12"
RUN_LOCK = ROOT / "requirements" / "run.txt"
# The Lambda's Python as the lock's markers see it (PEP 508). pip would read them for the Python
# that builds the zip, which may be another version on another machine.
LAMBDA_ENVIRONMENT = {
    "implementation_name": "cpython",
    "implementation_version": "3.12.0",
    "os_name": "posix",
    "platform_machine": "aarch64",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Linux",
    "platform_version": "",
    "python_full_version": "3.12.0",
    "python_version": PYTHON_VERSION,
    "sys_platform": "linux",
    "extra": "",
}
# Folders and files no Lambda needs (console scripts, caches, type stubs of nothing we run).
_DROP_DIRS = {"__pycache__", "bin", "tests", "test"}
_DROP_SUFFIXES = {".pyc", ".pyo"}
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
LAMBDA_ROOT = "/var/task"  # where Lambda unpacks the zip
# certifi's bundle, one certificate a file named by subject hash (see infra/aws/connections.py:
# a context made from the folder reads only the issuers a handshake needs).
TRUST_FOLDER = "certs"
CERTIFICATE_PEM = re.compile(
    r"-----BEGIN CERTIFICATE-----\n.*?\n-----END CERTIFICATE-----\n", re.S
)


def requirement_name(requirement: str) -> str:
    """The normalized distribution name of a PEP 508 requirement string."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


@dataclass(frozen=True)
class Locked:
    """One release of a lock: its requirement (name, ==version, markers) and its files' hashes."""

    requirement: Requirement
    hashes: tuple[str, ...]

    @property
    def name(self) -> str:
        return requirement_name(self.requirement.name)

    def pinned(self) -> str:
        """The release as one requirements line for pip, its markers already judged."""
        hashes = " ".join(f"--hash={digest}" for digest in self.hashes)
        return f"{self.requirement.name}{self.requirement.specifier} {hashes}"


def read_lock(lock: Path) -> list[Locked]:
    """The releases a lock written by `make lock` pins (requirements lines with hashes)."""
    releases = []
    for line in lock.read_text().replace("\\\n", " ").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, *hashes = (part.strip() for part in line.split("--hash="))
        releases.append(Locked(Requirement(requirement), tuple(hashes)))
    return releases


def lambda_requirements(lock: Path = RUN_LOCK) -> list[str]:
    """The releases of the run lock that the zip carries, as pinned lines with their hashes:
    those whose markers hold on the Lambda's Python, less what its runtime provides."""
    return [
        release.pinned()
        for release in read_lock(lock)
        if release.name not in PROVIDED
        and (
            release.requirement.marker is None
            or release.requirement.marker.evaluate(LAMBDA_ENVIRONMENT)
        )
    ]


def install_dependencies(target: Path, requirements: list[str]) -> None:
    """pip-install the pinned, hashed `requirements` (and nothing else) as aarch64 / CPython
    3.12 wheels into `target`."""
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "lambda-requirements.txt"
        listing.write_text("".join(f"{line}\n" for line in requirements))
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-input",
            "--no-compile",
            "--require-hashes",
            "--no-deps",
            "--target",
            str(target),
            "--platform",
            PLATFORM,
            "--implementation",
            "cp",
            "--python-version",
            PYTHON_VERSION,
            "--only-binary=:all:",
            "--requirement",
            str(listing),
        ]
        subprocess.run(command, check=True)
    shipped = {requirement_name(p.name.split("-")[0]) for p in target.glob("*.dist-info")}
    unwanted = sorted(shipped & PROVIDED)
    if unwanted:
        raise SystemExit(f"the zip would carry {unwanted}, which the Lambda runtime provides")


def copy_project(target: Path) -> None:
    """Copy the project's Python packages (their SHIPPED files) into `target`: not `testing/`,
    the bot played against fakes for the tests and benchmarks (it needs moto)."""
    for package in PACKAGES:
        sources = {path for pattern in SHIPPED for path in (ROOT / package).rglob(pattern)}
        for source in sorted(sources):
            relative = source.relative_to(ROOT)
            if _DROP_DIRS & set(relative.parts):
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)


def prune(target: Path) -> None:
    """Drop caches, console scripts and compiled files."""
    for path in sorted(target.rglob("*"), reverse=True):
        top_level_junk = path.parent == target and path.name in _DROP_DIRS
        if path.is_dir() and (top_level_junk or path.name == "__pycache__"):
            shutil.rmtree(path)
        elif path.is_file() and path.suffix in _DROP_SUFFIXES:
            path.unlink()


def python312() -> str | None:
    """A CPython 3.12 (the Lambda runtime's version) that runs here, or None."""
    candidates = [os.environ.get("PYTHON312"), shutil.which("python3.12")]
    candidates += [str(p) for p in sorted(Path.home().glob(".pyenv/versions/3.12*/bin/python3"))]
    for candidate in filter(None, candidates):
        check = [candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"]
        try:
            if subprocess.run(check, capture_output=True, check=False).returncode == 0:
                return candidate
        except OSError:
            continue
    return None


def compile_for_lambda(folder: Path, python: str | None) -> bool:
    """Compile every module in `folder` with `python` (a CPython 3.12) into unchecked-hash
    .pyc files, which the runtime imports without reading the sources; False without one.

    Paths in tracebacks read as Lambda's (/var/task/...); a fixed hash seed and no times in
    the files keep the build reproducible.
    """
    if python is None:
        return False
    command = [python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode"]
    command += ["unchecked-hash", "-s", str(folder), "-p", LAMBDA_ROOT, str(folder)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPYCACHEPREFIX", None)
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return True


def split_trust_store(bundle: Path, folder: Path) -> int:
    """Write each certificate of a PEM `bundle` into `folder` as `<subject hash>.<n>` (the
    layout OpenSSL's hashed lookup reads, as `openssl rehash` makes); how many were written.

    The hash comes from the `openssl` command; without one, nothing is written (0) and the
    functions load the whole bundle instead."""
    if shutil.which("openssl") is None:
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    taken: dict[str, int] = {}  # subject hash -> certificates written under it
    certificates = CERTIFICATE_PEM.findall(bundle.read_text(encoding="ascii"))
    for certificate in certificates:
        command = ["openssl", "x509", "-noout", "-subject_hash"]
        digest = subprocess.run(
            command, input=certificate, capture_output=True, text=True, check=True
        ).stdout.strip()
        n = taken.get(digest, 0)
        (folder / f"{digest}.{n}").write_text(certificate, encoding="ascii")
        taken[digest] = n + 1
    return len(certificates)


def write_zip(source: Path, destination: Path) -> None:
    """Zip `source` with sorted entries and fixed times, so equal inputs give equal bytes."""
    tmp = destination.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(source).as_posix(), _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    os.replace(tmp, destination)


def sizes(folder: Path) -> list[tuple[str, int]]:
    """(top-level entry, bytes) of a folder, largest first."""
    totals: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            top = path.relative_to(folder).parts[0]
            totals[top] = totals.get(top, 0) + path.stat().st_size
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def build(out: Path = BUILD / "lambda.zip", *, quiet: bool = False) -> Path:
    """Build the Lambda zip at `out` and return its path."""
    staging = out.parent / "lambda"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    install_dependencies(staging, lambda_requirements())
    copy_project(staging)
    prune(staging)
    hashed = split_trust_store(staging / "certifi" / "cacert.pem", staging / TRUST_FOLDER)
    compiled = compile_for_lambda(staging, python312())
    write_zip(staging, out)
    if not quiet:
        print(
            f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
            f"{out.stat().st_size / 1e6:.2f} MB zipped, "
            + ("compiled for Python 3.12" if compiled else "sources only (no Python 3.12 here)")
            + (
                f", {hashed} CA certificates by hash"
                if hashed
                else ", CA bundle whole (no openssl)"
            )
        )
        for name, size in sizes(staging)[:8]:
            print(f"  {size / 1e6:7.2f} MB  {name}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: build the zip (default build/lambda.zip)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUILD / "lambda.zip", help="zip to write")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    build(args.out.resolve(), quiet=args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
