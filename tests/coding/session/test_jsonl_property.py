"""Property: garbage lines never cost a valid line, and parsing never raises (pi-reference §5 item 8)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.session.session_file import encode_line, parse_jsonl_bytes

VALID = st.dictionaries(
    st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=20), st.none()), max_size=4
)
GARBAGE = st.binary(max_size=40).filter(lambda b: b"\n" not in b)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(VALID.map(lambda d: ("ok", d)), GARBAGE.map(lambda b: ("bad", b))), max_size=20))
def test_valid_lines_survive_any_garbage(lines: list[tuple[str, object]]) -> None:
    chunks = []
    expected = []
    for kind, value in lines:
        if kind == "ok":
            chunks.append(encode_line(value))
            expected.append(value)
        else:
            assert isinstance(value, bytes)
            chunks.append(value + b"\n")
    parsed = parse_jsonl_bytes(b"".join(chunks))
    # a garbage line that happens to be valid JSON is kept too; every valid line must be there, in order
    iterator = iter(parsed.objects)
    assert all(any(obj == want for obj in iterator) for want in expected)


@given(st.text(max_size=200))
def test_encode_line_is_one_json_line(text: str) -> None:
    line = encode_line({"t": text, "n": 1.0, "nan": float("nan")})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["n"] == 1 and json.loads(line)["nan"] is None
