"""pi-tui's configuration files: paths, settings.json, auth.json, models.json, keybindings.json (pi-reference §3.16)."""
