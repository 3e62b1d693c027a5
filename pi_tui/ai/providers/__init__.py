"""Provider implementations, one module per wire API; imported lazily by :mod:`pi_tui.ai.registry`."""
