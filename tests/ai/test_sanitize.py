"""Unicode sanitising, short_hash and JavaScript-compatible formatting (pi-reference §1.20, §1.16)."""

from __future__ import annotations

import json

import pytest

from pi_tui.ai.hash import short_hash
from pi_tui.ai.js_format import js_json_stringify, js_number_to_string
from pi_tui.ai.sanitize import sanitize_json_value, sanitize_surrogates


def test_lone_surrogates_removed() -> None:
    assert sanitize_surrogates("Text \ud83d here") == "Text  here"
    assert sanitize_surrogates("a\udc00b") == "ab"
    assert sanitize_surrogates("\ude48\ud83d") == ""
    result = sanitize_surrogates("x\ud83d")
    assert result.encode("utf-8") == b"x"


def test_valid_text_unchanged() -> None:
    text = "Hello 🙈 World — ünïcødé"
    assert sanitize_surrogates(text) is text
    assert sanitize_surrogates("") == ""


def test_surrogate_pair_joined_into_character() -> None:
    assert sanitize_surrogates("a\ud83d\ude48b") == "a🙈b"
    assert sanitize_surrogates("\ud83d\ud83d\ude48") == "🙈"


def test_sanitize_json_value_is_deep_and_copies() -> None:
    value = {"k\ud800": ["a\udfff", {"n": 1, "b": True, "s": "ok\ud83d"}], "t": ("x\ud800",)}
    result = sanitize_json_value(value)
    assert result == {"k": ["a", {"n": 1, "b": True, "s": "ok"}], "t": ["x"]}
    assert value["k\ud800"][0] == "a\udfff"
    json.dumps(result, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # values printed by pi-ai 0.73.1 shortHash
        ("", "k4n83c7h0j2b"),
        ("abc", "y0biex7f9bbh"),
        ("call_123|fc_abc", "1fcp7m31lrnde8"),
        ("héllo 🙈", "1r9pcqe1rwk5iz"),
    ],
)
def test_short_hash_matches_pi(text: str, expected: str) -> None:
    assert short_hash(text) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [  # String(value) in Node 20
        (1.0, "1"),
        (1.25, "1.25"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (123456789012345680000.0, "123456789012345680000"),
        (0.000001, "0.000001"),
        (1.5e-10, "1.5e-10"),
        (-0.0, "0"),
        (2**70, "1.1805916207174113e+21"),
        (1e300, "1e+300"),
        (-3.5, "-3.5"),
        (42, "42"),
    ],
)
def test_js_number_to_string(value: float, expected: str) -> None:
    assert js_number_to_string(value) == expected


def test_js_json_stringify() -> None:
    value = {"a": [1.0, {}, []], "b": None, "c": 'x\n"\u0001', "d": True, "e": float("nan")}
    assert js_json_stringify(value) == (
        '{\n  "a": [\n    1,\n    {},\n    []\n  ],\n  "b": null,\n  "c": "x\\n\\"\\u0001",\n  "d": true,\n  "e": null\n}'
    )
    assert js_json_stringify("lone \ud800") == '"lone \\ud800"'
