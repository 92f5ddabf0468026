"""The bot benchmark's parts, one figure each; `bench/bot_speed.py` runs them in turn."""
