"""The bot played by simulated people against a fake Bot API server and a local DynamoDB, for the
tests and the benchmarks; no module of the bot imports it (docs/architecture.md)."""
