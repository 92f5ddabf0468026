"""The Telegram side: commands, buttons, chatter, rendering and delivery."""
