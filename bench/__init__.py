"""Benchmarks of the engine and the bot (run by hand, not by the tests)."""
