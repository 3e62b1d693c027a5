"""The ``home`` fixture: an isolated config dir with three local models (tests/local_models_home.py)."""

from tests.local_models_home import MODELS, home

__all__ = ["MODELS", "home"]
