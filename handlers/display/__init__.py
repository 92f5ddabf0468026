"""What the bot shows, as plain data: its texts, its messages and buttons, and their rendering."""
