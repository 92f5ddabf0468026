"""The bot played by simulated people against a fake Bot API server and a local DynamoDB, for the
tests and the benchmarks.

- `fake_telegram`: a Bot API server on loopback that simulates Telegram's users, chats and rules;
  its `memory` transport answers python-telegram-bot in memory instead, for the fast tier.
- `moto_server`: DynamoDB, SQS and Secrets Manager served by moto on loopback.
- `drivers`: the bot run three ways (its Lambda entries, its local poller, its Application with
  Telegram in memory) on a settable clock.
- `instances`: warm Lambda instances on threads, for real concurrency.
- `players`: simulated people who read their chats and press what they are shown.
- `deals`: seeds that deal what a game needs.
- `leaks`: the check that no card reached someone who may not see it.

No module of the bot imports this package (the import contracts in `pyproject.toml`), and
neither the Lambda zip (`infra/package.py`) nor an installed package (`pyproject.toml`) carries it:
the tests and benchmarks import it from the source tree. `moto_server` needs the development
dependencies.
"""
