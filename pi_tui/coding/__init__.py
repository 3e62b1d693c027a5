"""pi-coding-agent layer: tools, session, settings (pi-reference §3)."""
