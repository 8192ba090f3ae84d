"""Anomaly detection: a NaN made in backward names the forward op and shows where it was called."""

import math
import os
import re
import warnings

import pytest

import minigrad

HINT = "\n\nIn plain words: "


def in_minigrad_words(text):
    """PyTorch's text as minigrad must word it: torch. read as minigrad, no C++ location."""
    text = re.sub(r"\s*\(Triggered internally at [^)]*\)\s*$", "", text)
    return text.replace("torch.", "minigrad.")


@pytest.fixture(autouse=True)
def anomaly_mode_is_restored():
    """Every test starts and must end with anomaly detection off."""
    assert not minigrad.autograd.is_anomaly_enabled()
    yield
    enabled = minigrad.autograd.is_anomaly_enabled()
    minigrad.autograd.set_detect_anomaly(False)
    assert not enabled


def nan_in_backward(lib):
    """sqrt(0) * 0: forward is 0, but backward computes 0 * 1/(2 sqrt(0)) = 0 * inf = NaN in SqrtBackward0."""
    a = lib.tensor(0.0, requires_grad=True)
    b = a.sqrt() * 0.0  # the forward call the warning must point at
    b.backward()
    return a


def run_with_anomaly(lib):
    """Run nan_in_backward under detect_anomaly; return (error type, message, warning texts)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            with pytest.raises(RuntimeError) as info:
                nan_in_backward(lib)
    return info.value, [(w.category, in_minigrad_words(str(w.message))) for w in caught]


def test_nan_in_backward_raises_torch_message(torch):
    """Under detect_anomaly, the NaN raises "Function 'SqrtBackward0' returned nan values in its 0th output."."""
    error, _ = run_with_anomaly(minigrad)
    expected, _ = run_with_anomaly(torch)
    assert str(error).split(HINT)[0] == in_minigrad_words(str(expected))
    assert str(error).split(HINT)[0] == "Function 'SqrtBackward0' returned nan values in its 0th output."


def test_nan_warning_shows_the_forward_traceback():
    """The UserWarning names the node and points at the line of this file where sqrt was called."""
    _, caught = run_with_anomaly(minigrad)
    traces = [text for category, text in caught if text.startswith("Error detected in SqrtBackward0.")]
    assert len(traces) == 1
    text = traces[0]
    assert text.startswith("Error detected in SqrtBackward0. Traceback of forward call that caused the error:\n")
    assert os.path.basename(__file__) in text
    assert "b = a.sqrt() * 0.0" in text
    assert "in nan_in_backward" in text


def test_nan_warning_traceback_format_matches_torch(torch):
    """The traceback warning has PyTorch's shape: its header, then 'File ..., line N, in fn' frames ending at our call."""
    _, caught = run_with_anomaly(minigrad)
    _, expected = run_with_anomaly(torch)
    got = [text for category, text in caught if text.startswith("Error detected in")]
    want = [text for category, text in expected if text.startswith("Error detected in")]
    assert len(got) == len(want) == 1
    header = "Error detected in SqrtBackward0. Traceback of forward call that caused the error:\n"
    assert got[0].startswith(header) and want[0].startswith(header)
    # The last frame (the forward call) reads the same in both.
    last_frame = re.compile(r'File "[^"]+", line (\d+), in (\w+)\n\s+(.*)\s*$')
    assert last_frame.search(got[0].rstrip()).groups() == last_frame.search(want[0].rstrip()).groups()


def test_detect_anomaly_warns_when_enabled(torch):
    """Entering detect_anomaly warns 'Anomaly Detection has been enabled...' as PyTorch does."""

    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with lib.autograd.detect_anomaly():
                pass
        return [(w.category, in_minigrad_words(str(w.message))) for w in caught]

    assert run(minigrad) == run(torch)


def test_without_anomaly_mode_nan_flows_into_grad():
    """Outside anomaly mode, no error: a.grad is simply NaN."""
    a = nan_in_backward(minigrad)
    assert math.isnan(a.grad.item())


def test_detect_anomaly_check_nan_false_does_not_raise():
    """detect_anomaly(check_nan=False) records traces but lets the NaN through."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.detect_anomaly(check_nan=False):
            a = nan_in_backward(minigrad)
    assert math.isnan(a.grad.item())


def test_finite_backward_under_anomaly_mode_is_unchanged():
    """With no NaN, anomaly mode changes nothing: d/dx sqrt(x) = 1 / (2 sqrt(4)) = 0.25."""
    x = minigrad.tensor(4.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.detect_anomaly():
            x.sqrt().backward()
    assert x.grad.item() == 0.25


def test_detect_anomaly_context_sets_and_restores_the_flag():
    """is_anomaly_enabled is True inside detect_anomaly and False after."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.detect_anomaly():
            assert minigrad.autograd.is_anomaly_enabled()
    assert not minigrad.autograd.is_anomaly_enabled()


def test_set_detect_anomaly_as_a_call():
    """set_detect_anomaly(True) switches it on right away (no with); set_detect_anomaly(False) off."""
    minigrad.autograd.set_detect_anomaly(True)
    try:
        assert minigrad.autograd.is_anomaly_enabled()
        with pytest.raises(RuntimeError, match="returned nan values"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                nan_in_backward(minigrad)
    finally:
        minigrad.autograd.set_detect_anomaly(False)
    assert not minigrad.autograd.is_anomaly_enabled()


def test_set_detect_anomaly_as_context_manager():
    """with set_detect_anomaly(True): on inside, back to off after."""
    with minigrad.autograd.set_detect_anomaly(True):
        assert minigrad.autograd.is_anomaly_enabled()
    assert not minigrad.autograd.is_anomaly_enabled()


def test_set_detect_anomaly_false_inside_detect_anomaly():
    """with set_detect_anomaly(False) inside detect_anomaly: off inside, on again after."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.detect_anomaly():
            with minigrad.autograd.set_detect_anomaly(False):
                assert not minigrad.autograd.is_anomaly_enabled()
            assert minigrad.autograd.is_anomaly_enabled()


def test_anomaly_names_the_first_node_that_makes_nan(torch):
    """log(x*x) * 0 at x = 0: LogBackward0 computes 0 / 0 = NaN and is the node named, as in PyTorch."""

    def run(lib):
        x = lib.tensor(0.0, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with lib.autograd.detect_anomaly():
                y = (x * x).log() * 0.0
                try:
                    y.backward()
                except RuntimeError as e:
                    return str(e).split(HINT)[0]
        return None

    assert run(minigrad) == run(torch) == "Function 'LogBackward0' returned nan values in its 0th output."
