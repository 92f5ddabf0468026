"""Shared pytest fixtures."""

from tests.fake_telegram.fixtures import *  # noqa: F403
