"""edit tool: tools.test.ts "edit" list, the json-tool-loop trace, and case 19 (CRLF/BOM/mixed)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from pi_tui.coding.tools.edit import EDIT_DESCRIPTION, EDIT_PARAMETERS, EditTool
from pi_tui.coding.tools.edit_diff import generate_diff_string, normalize_for_fuzzy_match

from .helpers import run, text_of

pytestmark = pytest.mark.anyio

TRACE = Path(__file__).resolve().parents[2] / "fixtures" / "pi-traces" / "coding" / "json-tool-loop"


def one(old: str, new: str) -> list[dict[str, str]]:
    return [{"oldText": old, "newText": new}]


async def test_replace_and_details_match_pi_trace(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello world\nsecond line\n")
    result = await run(EditTool(str(tmp_path)), {"path": "notes.txt", "edits": one("hello world", "hello pi")})
    assert text_of(result) == "Successfully replaced 1 block(s) in notes.txt."
    assert (tmp_path / "notes.txt").read_text() == "hello pi\nsecond line\n"
    # pi 0.73.1's own result for this exact call (events.jsonl of the json-tool-loop trace)
    expected = None
    if (TRACE / "events.jsonl").exists():
        for line in (TRACE / "events.jsonl").read_text().splitlines():
            event = json.loads(line)
            if event.get("type") == "tool_execution_end" and event["toolName"] == "edit":
                expected = event["result"]["details"]
    expected = expected or {"diff": "-1 hello world\n+1 hello pi\n 2 second line", "firstChangedLine": 1}
    assert {k: result.details[k] for k in ("diff", "firstChangedLine")} == expected
    artifact = result.details["artifacts"][0]
    assert artifact["kind"] == "diff" and artifact["title"] == "notes.txt" and artifact["path"] == "notes.txt"
    assert "-hello world\n+hello pi" in artifact["content"]
    assert artifact["content"].startswith("--- a/notes.txt\n+++ b/notes.txt\n@@")


def test_schema_and_description_match_pi_request() -> None:
    request = TRACE / "requests" / "001.json"
    if not request.exists():
        pytest.skip("trace not available")
    tools = {t["function"]["name"]: t["function"] for t in json.loads(request.read_text())["body"]["tools"]}
    assert tools["edit"]["description"] == EDIT_DESCRIPTION
    assert tools["edit"]["parameters"] == EDIT_PARAMETERS


async def test_not_found(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("abc\n")
    with pytest.raises(Exception) as info:
        await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": one("xyz", "q")})
    assert str(info.value) == (
        "Could not find the exact text in f.txt. The old text must match exactly including all whitespace "
        "and newlines."
    )


async def test_missing_file_error_code(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"^Could not edit file: nope\.txt\. Error code: ENOENT\.$"):
        await run(EditTool(str(tmp_path)), {"path": "nope.txt", "edits": one("a", "b")})


async def test_unwritable_file_error_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ro.txt").write_text("a")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if str(p).endswith("ro.txt") else real_access(p, m))
    with pytest.raises(Exception, match=r"^Could not edit file: ro\.txt\. Error code: EACCES\.$"):
        await run(EditTool(str(tmp_path)), {"path": "ro.txt", "edits": one("a", "b")})


async def test_duplicates(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("dup\ndup\nother\n")
    tool = EditTool(str(tmp_path))
    with pytest.raises(Exception) as info:
        await run(tool, {"path": "f.txt", "edits": one("dup", "x")})
    assert str(info.value) == (
        "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to "
        "make it unique."
    )
    with pytest.raises(Exception) as info:
        await run(tool, {"path": "f.txt", "edits": [{"oldText": "other", "newText": "o"}, *one("dup", "x")]})
    assert str(info.value) == (
        "Found 2 occurrences of edits[1] in f.txt. Each oldText must be unique. Please provide more context "
        "to make it unique."
    )


async def test_multi_edit_disjoint_matched_against_original(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("alpha\nbeta\ngamma\n")
    edits = [{"oldText": "alpha", "newText": "beta"}, {"oldText": "beta", "newText": "BETA"}]
    result = await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": edits})
    # "beta" is matched in the ORIGINAL text (line 2), not in the result of edit 0
    assert (tmp_path / "f.txt").read_text() == "beta\nBETA\ngamma\n"
    assert text_of(result) == "Successfully replaced 2 block(s) in f.txt."


async def test_multi_edit_not_found_names_index(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb\n")
    with pytest.raises(Exception) as info:
        await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": [*one("a", "A"), *one("zzz", "Z")]})
    assert str(info.value) == (
        "Could not find edits[1] in f.txt. The oldText must match exactly including all whitespace and newlines."
    )


async def test_overlap_and_atomic_failure(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one two three\n")
    edits = [{"oldText": "one two", "newText": "1 2"}, {"oldText": "two three", "newText": "2 3"}]
    with pytest.raises(Exception) as info:
        await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": edits})
    assert str(info.value) == (
        "edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions."
    )
    assert (tmp_path / "f.txt").read_text() == "one two three\n"  # nothing written


async def test_atomic_when_a_later_edit_fails(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("keep\nme\n")
    with pytest.raises(Exception, match=r"edits\[1\]\.oldText must not be empty"):
        await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": [*one("keep", "X"), *one("", "Y")]})
    assert (tmp_path / "f.txt").read_text() == "keep\nme\n"


async def test_empty_edits_and_empty_old_text(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x\n")
    tool = EditTool(str(tmp_path))
    with pytest.raises(Exception, match=r"^Edit tool input is invalid\. edits must contain at least one replacement\.$"):
        await run(tool, {"path": "f.txt", "edits": []})
    with pytest.raises(Exception, match=r"^oldText must not be empty in f\.txt\.$"):
        await run(tool, {"path": "f.txt", "edits": one("", "y")})
    with pytest.raises(Exception, match=r"^edits\[1\]\.oldText must not be empty in f\.txt\.$"):
        await run(tool, {"path": "f.txt", "edits": [*one("x", "y"), *one("", "z")]})


async def test_no_change(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("same\n")
    with pytest.raises(Exception, match=r"^No changes made to f\.txt\. The replacement produced identical content\."):
        await run(EditTool(str(tmp_path)), {"path": "f.txt", "edits": one("same", "same")})


async def test_fuzzy_matching_smart_quotes_and_trailing_space(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text("print(\u201chello\u201d)   \nx = 1\u20142\n")
    tool = EditTool(str(tmp_path))
    await run(tool, {"path": "f.py", "edits": one('print("hello")\nx = 1-2', 'print("bye")\nx = 3')})
    assert (tmp_path / "f.py").read_text() == 'print("bye")\nx = 3\n'
    assert normalize_for_fuzzy_match("a\u00a0b \n\u2018c\u2019") == "a b\n'c'"


async def test_legacy_arguments_are_prepared(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("old\n")
    tool = EditTool(str(tmp_path))
    await run(tool, {"path": "f.txt", "oldText": "old", "newText": "new"})
    assert (tmp_path / "f.txt").read_text() == "new\n"
    await run(tool, {"path": "f.txt", "edits": json.dumps(one("new", "newer"))})
    assert (tmp_path / "f.txt").read_text() == "newer\n"
    prepared = tool.prepare_arguments({"path": "p", "edits": one("a", "b"), "oldText": "c", "newText": "d"})
    assert prepared == {"path": "p", "edits": [*one("a", "b"), *one("c", "d")]}


def test_diff_gaps_and_line_numbers() -> None:
    old = "\n".join(f"line{i}" for i in range(1, 31))
    new = old.replace("line3\n", "LINE3\n").replace("line25\n", "LINE25\n")
    diff, first = generate_diff_string(old, new)
    assert first == 3
    assert diff.split("\n") == [
        "  1 line1", "  2 line2", "- 3 line3", "+ 3 LINE3",
        "  4 line4", "  5 line5", "  6 line6", "  7 line7", "    ...",
        " 21 line21", " 22 line22", " 23 line23", " 24 line24", "-25 line25", "+25 LINE25",
        " 26 line26", " 27 line27", " 28 line28", " 29 line29", "    ...",
    ]


async def test_parallel_edits_on_one_file_are_serialised(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("".join(f"k{i}\n" for i in range(20)))
    tool = EditTool(str(tmp_path))
    await asyncio.gather(*(run(tool, {"path": "f.txt", "edits": one(f"k{i}\n", f"v{i}\n")}) for i in range(20)))
    assert (tmp_path / "f.txt").read_text() == "".join(f"v{i}\n" for i in range(20))


async def test_non_utf8_bytes_outside_the_edit_are_kept(tmp_path: Path) -> None:
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\nname = 1\n")
    await run(EditTool(str(tmp_path)), {"path": "latin.txt", "edits": one("name = 1", "name = 2")})
    assert (tmp_path / "latin.txt").read_bytes() == b"caf\xe9\nname = 2\n"


# ----------------------------------------------------------------------------- case 19


async def test_case19_crlf_file_with_lf_old_text(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"alpha\r\nbeta\r\ngamma\r\n")
    tool = EditTool(str(tmp_path))
    await run(tool, {"path": "crlf.txt", "edits": one("alpha\nbeta", "ALPHA\nBETA")})
    await run(tool, {"path": "crlf.txt", "edits": one("gamma", "GAMMA")})
    assert path.read_bytes() == b"ALPHA\r\nBETA\r\nGAMMA\r\n"


async def test_case19_crlf_old_text_given_with_crlf_too(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"alpha\r\nbeta\r\ngamma\r\n")
    await run(EditTool(str(tmp_path)), {"path": "crlf.txt", "edits": one("beta\r\ngamma", "B\r\nG")})
    assert path.read_bytes() == b"alpha\r\nB\r\nG\r\n"


async def test_case19_bom_kept_and_not_needed(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    await run(EditTool(str(tmp_path)), {"path": "bom.txt", "edits": one("one\ntwo", "1\n2")})
    assert path.read_bytes() == b"\xef\xbb\xbf1\r\n2\r\n"


async def test_case19_mixed_endings_kept_new_lines_take_the_first_ending(tmp_path: Path) -> None:
    # Documented rule (edit_diff module docstring): endings outside the edit are kept; the line breaks
    # of newText take the file's first line break (pi rewrote every ending; DIFFERENCES.md T1).
    crlf_first = tmp_path / "mixed.txt"
    crlf_first.write_bytes(b"a\r\nb\nc\r\n")
    await run(EditTool(str(tmp_path)), {"path": "mixed.txt", "edits": one("b", "B1\nB2")})
    assert crlf_first.read_bytes() == b"a\r\nB1\r\nB2\nc\r\n"
    lf_first = tmp_path / "mixed2.txt"
    lf_first.write_bytes(b"a\nb\r\nc\n")
    await run(EditTool(str(tmp_path)), {"path": "mixed2.txt", "edits": one("b", "B1\r\nB2")})
    assert lf_first.read_bytes() == b"a\nB1\nB2\r\nc\n"
    for p in (crlf_first, lf_first):
        assert b"\r\r\n" not in p.read_bytes()
