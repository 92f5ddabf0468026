"""The cold start in instructions, a figure the machine's noise does not move: `import telegram,
boto3` (the floor), the webhook's imports, and a first update (/newgame in a new group, the
stack's BOT_USERNAME set), each counted by valgrind's callgrind in a fresh process with its
compiled files present, and the share of the first update spent loading the TLS trust store
(the zip's hashed folder of certifi's certificates, as infra/package.py builds it).

`python -m bench.bot.instructions` (needs valgrind: `apt-get install valgrind`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import certifi

from bench.bot.cold_start import FIRST_UPDATE, IMPORTS
from bench.bot.world import ROOT, World
from infra import package
from testing.drivers import LambdaBot
from testing.fake_telegram import BOT_USERNAME

FLOOR = "import telegram, boto3"
TRUST_STORE = "SSL_CTX_load_verify_locations"  # where OpenSSL reads the CA bundle


def counted(code: str, env: dict[str, str], out: Path, stdin: str = "") -> dict[str, float]:
    """Millions of instructions `code` runs in a fresh interpreter: in all, and loading CAs."""
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
    done = subprocess.run(
        [*command, "-c", code], input=stdin, capture_output=True, text=True, env=env, cwd=ROOT
    )
    if done.returncode != 0:
        raise RuntimeError(f"the counted run failed:\n{done.stderr[-2000:]}")
    total = int(re.search(r"Collected : (\d+)", done.stderr).group(1))
    listing = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(out)], capture_output=True, text=True
    ).stdout
    trust = [
        int(m.replace(",", "")) for m in re.findall(rf"([\d,]+) .*\?\?\?:{TRUST_STORE} ", listing)
    ]
    return {"total": total / 1e6, "trust": max(trust, default=0) / 1e6}


def main() -> int:
    """Print the figures."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)")
        return 1
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as folder:
        home = Path(folder)
        world = World(home)
        try:
            world.fresh("instructions")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env |= {"PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(home / "pycache")}
            env["BOT_USERNAME"] = BOT_USERNAME
            trust = home / package.TRUST_FOLDER
            if package.split_trust_store(Path(certifi.where()), trust):
                env["DECAPITATION_CA_FOLDER"] = str(trust)
            fake, owner = world.fake, world.fake.add_user("Cold", started=True)

            def newgame() -> str:
                group = fake.add_group("Cold start", [owner], owner=owner)
                update = fake.send_text(owner, group, "/newgame")
                fake.next_updates()
                return json.dumps(LambdaBot.event(json.dumps(update)))

            ours = IMPORTS["ours: lambda_entry + handlers"]
            for code, stdin in ((FLOOR, ""), (ours, ""), (FIRST_UPDATE, newgame())):
                subprocess.run(  # writes the compiled files; not counted
                    [sys.executable, "-c", code],
                    input=stdin,
                    env=env,
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                )
            floor = counted(FLOOR, env, home / "floor.out")
            imports = counted(ours, env, home / "ours.out")
            first = counted(FIRST_UPDATE, env, home / "first.out", newgame())
        finally:
            world.close()
    base = floor["total"]
    print("Cold start in instructions (callgrind, compiled files present), millions:")
    print(f"  floor: {FLOOR:34} {base:8.0f}  1.00x")
    print(
        f"  the webhook's imports{'':23} {imports['total']:8.0f}  {imports['total'] / base:.2f}x"
    )
    print(f"  a first update{'':30} {first['total']:8.0f}  {first['total'] / base:.2f}x")
    share = first["trust"] / base
    store = "hashed folder" if "DECAPITATION_CA_FOLDER" in env else "whole bundle"
    label = f"of which the TLS trust store ({store})"
    print(f"    {label:42} {first['trust']:8.0f}  {share:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
