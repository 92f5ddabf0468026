"""The cold start's imports stay cheap: a fresh process builds few dataclasses (each frozen one
runs about 0.6 ms of generated code that no .pyc caches)."""

from __future__ import annotations

import pytest

from bench.bot.import_count import built_at_import

# At import of the Lambda webhook's modules (61 when the presses were dataclasses).
DATACLASS_BUDGET = 31


@pytest.mark.slow
def test_the_webhook_imports_build_no_more_dataclasses_than_the_budget() -> None:
    """The presses are plain classes; a new dataclass at import needs a reason and a new budget."""
    built = built_at_import()["dataclasses"]
    assert sum(built.values()) <= DATACLASS_BUDGET, built
    assert "handlers.display.presses" not in built
