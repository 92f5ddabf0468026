"""The fixtures every folder of tests may use, from the plugins of `tests/support`."""

pytest_plugins = [
    "tests.support.aws",
    "tests.support.telegram",
    "tests.support.bots",
    "tests.support.tiers",
    "tests.support.workers",
]
