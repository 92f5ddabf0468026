"""The classes a fresh process builds at import of the Lambda webhook's modules, counted.

A frozen dataclass costs about 0.6 ms of generated code at every cold start (no .pyc caches
it), so the count is a figure of the cold start that the machine's noise does not move.
`python -m bench.bot.import_count` prints it.
"""

from __future__ import annotations

import json
import subprocess
import sys

from bench.bot.world import ROOT

# What lambda_entry imports and what its first webhook imports (application() and webhook()).
WEBHOOK_IMPORTS = (
    "import handlers.entry.lambda_webhook",
    "from handlers.storage.keeper import Keeper",
    "from handlers.display import render",
    "from handlers.telegram.app import build",
    "from handlers.telegram.context import Runtime",
    "from infra import aws",
    "from infra.dynamo_store import DynamoStore",
    "from infra.read_cache import ReadCache",
    "from infra.timers import SqsTimers",
)
OURS = ("engine", "handlers", "infra")
COUNT = """
import dataclasses, json, sys
{imports}
built = {{}}
for module in list(sys.modules.values()):
    if module.__name__.split(".")[0] not in {ours!r}:
        continue
    for value in vars(module).values():
        if isinstance(value, type) and value.__module__ == module.__name__:
            kind = "dataclasses" if dataclasses.is_dataclass(value) else "classes"
            built.setdefault(kind, {{}}).setdefault(module.__name__, set()).add(value.__qualname__)
print(json.dumps({{k: {{m: len(n) for m, n in v.items()}} for k, v in built.items()}}))
"""


def built_at_import() -> dict[str, dict[str, int]]:
    """Per module, the classes and the dataclasses a fresh process has built once the webhook's
    modules are imported (the project's own modules only)."""
    code = COUNT.format(imports="\n".join(WEBHOOK_IMPORTS), ours=OURS)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return json.loads(result.stdout)


def main() -> None:
    """Print the totals and the modules that build the most dataclasses."""
    built = built_at_import()
    dataclasses = built.get("dataclasses", {})
    classes = sum(built.get("classes", {}).values())
    total = sum(dataclasses.values())
    print(f"At import of the webhook: {total} dataclasses, {classes} other classes")
    for module, count in sorted(dataclasses.items(), key=lambda item: -item[1])[:8]:
        print(f"  {module}: {count}")


if __name__ == "__main__":
    main()
