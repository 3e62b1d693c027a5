"""Make the README's SVG screenshots from real app states (the snapshot-test scenarios).

Usage: ``python scripts/make_screenshots.py [scenario ...]`` from the repository root; writes
``screenshots/<scenario>.svg``. Each scenario runs the real ``PiApp`` headless with a real AgentSession on the
scripted faux provider (see ``tests/tui/snapshots/scenarios.py``); nothing is drawn by hand.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PI_TUI_DIR", tempfile.mkdtemp(prefix="pi-tui-shots-"))
for _name in list(os.environ):
    if _name.endswith("_API_KEY"):
        del os.environ[_name]

from tests.tui.snapshots.scenarios import SCENARIOS  # noqa: E402
from tests.tui.snapshots.session_scenarios import SESSION_SCENARIOS  # noqa: E402
from tests.tui.snapshots.test_snap_session_tree import build_session_tree  # noqa: E402
from tests.tui.snapshots.test_snap_settings import build_settings_screen  # noqa: E402


def _session_tree() -> tuple[object, object, tuple[int, int]]:
    """The ``/tree`` snapshot scenario with entry times shown against a fixed clock."""
    from datetime import UTC, datetime

    from pi_tui.tui.modals import session_tree

    session_tree.FIXED_NOW = datetime(2026, 12, 1, 16, 0, tzinfo=UTC)
    return build_session_tree()


SCENARIOS = {**SCENARIOS, **SESSION_SCENARIOS, "session_tree": _session_tree, "settings": build_settings_screen}

README_SET = ("conversation", "streaming", "tool_panel", "queue", "notification_artifact", "model_picker",
              "light_theme", "first_screen_offline", "resume_picker", "session_tree", "settings")


async def shoot(name: str, out_dir: Path) -> Path:
    """Run scenario ``name`` and save its screen as ``<out_dir>/<name>.svg``."""
    app, drive, size = SCENARIOS[name]()
    async with app.run_test(size=size) as pilot:
        await drive(pilot)
        await pilot.pause(0.1)
        path = out_dir / f"{name}.svg"
        app.save_screenshot(filename=path.name, path=str(out_dir))
    return path


def main(argv: list[str]) -> int:
    names = argv or list(README_SET)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        print(f"Unknown scenario(s): {', '.join(unknown)}; known: {', '.join(SCENARIOS)}", file=sys.stderr)
        return 2
    out_dir = ROOT / "screenshots"
    out_dir.mkdir(exist_ok=True)
    for name in names:
        print(asyncio.run(shoot(name, out_dir)).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
