"""Completion-list rows cut to the terminal's width end with an ellipsis (new-user run, issue 9's class "nothing
the user saw is lost" without saying so: a command's description was cut mid-word with nothing to show that more
followed). pi 0.73.1 cuts without one; DIFFERENCES.md ED6."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from pi_tui.coding.autocomplete import CompletionItem
from pi_tui.tui.terminal_guard import show_controls
from pi_tui.tui.widgets.completion_list import list_rows

LONG = "Export the session to a Markdown or a self-contained HTML page with the session tree in a sidebar"


def _item(label: str, description: str = "") -> CompletionItem:
    return CompletionItem(value=label, label=label, description=description)


def test_a_cut_description_ends_with_an_ellipsis() -> None:
    rows = list_rows([_item("export", LONG), _item("model", "Pick a model")], 0, 60, commands=True)
    label, description, _ = rows[0]
    assert description.endswith("…") and description.strip() != LONG
    assert cell_len(label + description) <= 60 - 2
    assert not rows[1][1].endswith("…")  # a description that fits is whole


def test_a_cut_label_ends_with_an_ellipsis() -> None:
    name = "src/" + "very_long_directory_name/" * 4 + "file.py"
    rows = list_rows([_item(name)], 0, 40, commands=False)
    assert rows[0][0].endswith("…") and cell_len(rows[0][0]) <= 40 - 2


@settings(max_examples=60, derandomize=True)
@given(label=st.text(min_size=1, max_size=60), description=st.text(max_size=120), width=st.integers(8, 140))
def test_rows_fit_and_cut_text_is_marked(label: str, description: str, width: int) -> None:
    item = _item(label, description)
    for shown, desc, _ in list_rows([item], 0, width, commands=True):
        assert cell_len(shown + desc) <= max(width - 2, 1) + 1  # pi's layout: 2 cells of padding
        whole_description = show_controls(" ".join(description.split()))  # control characters are shown (#25)
        if desc and desc.strip() != whole_description:
            assert desc.endswith("…")
