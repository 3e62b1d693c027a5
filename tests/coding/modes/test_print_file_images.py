"""``pi-tui -p @shot.png "what is this?"`` (pi docs/usage.md): the image goes with the first message, resized,
after pi's ``<file name=…>`` line; text files are inlined; a missing file exits 1 with pi's message."""

from __future__ import annotations

import base64
import io
import json
import subprocess
from pathlib import Path

from PIL import Image

from pi_tui.coding.file_args import FileArgError, process_file_arguments

from .helpers import CLI, clean_env, load_mock_server

MockLlmServer = load_mock_server()


def _vision_models_json(root: Path, port: int) -> None:
    models = {"providers": {"mock": {"baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions",
                                     "apiKey": "test-key", "models": [{"id": "mock-vision", "input": ["text", "image"],
                                                                        "contextWindow": 128000}]}}}
    (root / "agent" / "models.json").write_text(json.dumps(models), encoding="utf-8")


def test_print_mode_sends_an_at_file_image_to_a_vision_model(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    Image.new("RGB", (3000, 600), (250, 0, 0)).save(project / "shot.png")
    (project / "notes.txt").write_text("look closely")
    with MockLlmServer([{"type": "text", "text": "a red band"}]) as server:
        _vision_models_json(tmp_path, server.port)
        run = subprocess.run([*CLI, "--provider", "mock", "--model", "mock-vision", "-p", "@shot.png", "@notes.txt",
                              "what is this?"], cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=90)
        bodies = [r["body"] for r in server.requests]
    assert run.returncode == 0, run.stderr
    assert "a red band" in run.stdout
    user = [m for m in bodies[0]["messages"] if m["role"] == "user"][-1]["content"]
    assert [p["type"] for p in user] == ["text", "image_url"]
    assert user[0]["text"] == (
        f'<file name="{project / "shot.png"}">[Image: original 3000x600, displayed at 2000x400. Multiply '
        f'coordinates by 1.50 to map to original image.]</file>\n<file name="{project / "notes.txt"}">\nlook closely'
        "\n</file>\nwhat is this?")
    data = user[1]["image_url"]["url"].split(",", 1)[1]
    with Image.open(io.BytesIO(base64.b64decode(data))) as sent:
        assert sent.size == (2000, 400)


def test_missing_and_corrupt_at_files_exit_1(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    run = subprocess.run([*CLI, "-p", "@nope.png", "hi"], cwd=project, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and f"Error: File not found: {project / 'nope.png'}" in run.stderr
    (project / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 30)
    try:
        process_file_arguments(["bad.png"], str(project))
    except FileArgError as exc:
        assert "could not be decoded" in str(exc)
    else:
        raise AssertionError("a corrupt image must be refused")
    (project / "empty.txt").write_text("")
    assert process_file_arguments(["empty.txt"], str(project)).text == ""  # pi skips empty files


def test_print_mode_says_when_the_model_takes_no_images(tmp_path: Path) -> None:
    """``-p @shot.png`` with a text-only model: the text goes with pi's placeholder, and stderr says the image
    was not sent (pi is silent; the interactive app warns the same way)."""
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    Image.new("RGB", (30, 20), (0, 0, 250)).save(project / "shot.png")
    with MockLlmServer([{"type": "text", "text": "no picture here"}]) as server:
        models = {"providers": {"mock": {"baseUrl": f"http://127.0.0.1:{server.port}/v1",
                                         "api": "openai-completions", "apiKey": "test-key",
                                         "models": [{"id": "mock-text", "input": ["text"]}]}}}
        (tmp_path / "agent" / "models.json").write_text(json.dumps(models), encoding="utf-8")
        run = subprocess.run([*CLI, "--provider", "mock", "--model", "mock-text", "-p", "@shot.png", "what?"],
                             cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=90)
        bodies = [r["body"] for r in server.requests]
    assert run.returncode == 0, run.stderr
    assert "Warning: mock-text does not accept images: 1 image not sent to the model (the text was)." in run.stderr
    assert "image_url" not in json.dumps(bodies[0])
    assert "image omitted: model does not support images" in json.dumps(bodies[0])
