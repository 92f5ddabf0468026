"""Shared pytest fixtures."""

from tests.fake_telegram.fixtures import *  # noqa: F403
from tests.moto_server import moto_clients, moto_server  # noqa: F401 - one server a session
