"""pi-tui: a full-screen terminal coding agent on Textual, built on a Python port of pi's agent core.

Layers (imports only go downward): ``tui -> coding -> agent -> ai``.
"""

__version__ = "0.1.0"
