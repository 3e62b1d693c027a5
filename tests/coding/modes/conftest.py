"""Mode tests: the ACP tests need the ``agent-client-protocol`` SDK (a pyproject dependency since issue 14); a
virtualenv installed before it was added skips them instead of failing to collect (``pip install -e .`` adds it)."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("acp") is not None else ["test_acp_*.py"]
