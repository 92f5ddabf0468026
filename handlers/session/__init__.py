"""A group's session around the engine: lobby, settings, deadlines, holds. Pure."""
