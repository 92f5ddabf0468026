"""The fixtures every folder of tests may use, from the plugins of `tests/support`."""

from tests.moto_server import moto_clients, moto_server  # noqa: F401 - one server a session

pytest_plugins = ["tests.support.telegram"]
