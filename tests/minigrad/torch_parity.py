"""Comparing minigrad's errors with PyTorch's: the wording rules in one place.

minigrad's message is PyTorch's (with ``torch.`` read as ``minigrad.``), optionally
followed by a plain-language hint after ``HINT``.
"""

import pytest

import minigrad

HINT = "\n\nIn plain words: "


def in_minigrad_words(text):
    """PyTorch's message as minigrad must word it: torch. read as minigrad."""
    return text.replace("torch.", "minigrad.")


def assert_same_error(run, torch, expect_hint):
    """``run(lib)`` raises the same exception type under both, and minigrad's first paragraph is torch's."""
    with pytest.raises(Exception) as expected:
        run(torch)
    with pytest.raises(type(expected.value)) as got:
        run(minigrad)
    message = str(got.value)
    assert message.split(HINT)[0] == in_minigrad_words(str(expected.value))
    if expect_hint:
        assert HINT in message and message.split(HINT)[1].strip()
