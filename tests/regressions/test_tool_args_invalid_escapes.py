"""Tool-call arguments with invalid JSON escapes keep every field (pi 1.3.0: ``\\usepackage`` in a LaTeX file
made pi drop fields of the call).

Models write LaTeX (``\\usepackage``), Windows paths (``C:\\Users``) and regex text with a single backslash inside
JSON strings; ``\\u`` must be followed by four hex digits and ``\\U``, ``\\x`` are not escapes at all. The
backslash is kept literally and the fields after it are kept.
"""

from __future__ import annotations

import pytest

from pi_tui.ai.json_parse import parse_json_with_repair, parse_streaming_json


@pytest.mark.parametrize(("raw", "expected"), [
    (r'{"content":"\usepackage{amsmath}","path":"paper.tex"}', {"content": "\\usepackage{amsmath}", "path": "paper.tex"}),
    (r'{"path":"C:\Users\me\notes.txt","limit":5}', {"path": "C:\\Users\\me\notes.txt", "limit": 5}),
    (r'{"pattern":"\u12","glob":"*.py"}', {"pattern": "\\u12", "glob": "*.py"}),
    (r'{"pattern":"\x41\d+","literal":false}', {"pattern": "\\x41\\d+", "literal": False}),
])
@pytest.mark.parametrize("parse", [parse_json_with_repair, parse_streaming_json])
def test_invalid_escapes_keep_every_field(parse: object, raw: str, expected: dict[str, object]) -> None:
    assert parse(raw) == expected  # type: ignore[operator]
