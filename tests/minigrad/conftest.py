"""Shared fixtures for the minigrad tests."""

import os

import pytest


@pytest.fixture
def torch():
    """PyTorch as the oracle (skipped if missing, unless MINIGRAD_REQUIRE_TORCH=1)."""
    if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
        import torch

        return torch
    return pytest.importorskip("torch")
