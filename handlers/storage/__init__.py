"""The storage policy: one change per update, saved conditionally, with the messages it owes."""
