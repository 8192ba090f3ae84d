"""The palette in viz.dot.STYLE, checked as a colour-blind or greyscale reader sees it.

Colour: every state must differ from every other state, and from the box it
is drawn on, for normal vision and simulated deuteranopia and protanopia
(Machado, Oliveira and Fernandes 2009, severity 1, applied in linear RGB), by
a CIELAB distance (CIE76) of at least 10: clearly different side by side.

A second cue: in greyscale, colour says little, so each state must also differ
from every other by its border (pattern or width) or the word its box shows.

Text: every text colour on every fill it can sit on has a WCAG 2 contrast
ratio of at least 4.5:1, and no text is smaller than ``MIN_FONT_SIZE``.

Which state can sit on which kind is read off viz.graph and viz.stepper (by hand):
"""

import itertools
import re

import numpy as np
import pytest

from viz.dot import MARK, MIN_FONT_SIZE, STYLE, node_label, node_attributes, state_css, to_dot
from viz.graph import GraphData, VizEdge, VizNode

# state -> kinds it is drawn on (graph.py: _add_saved, _leaf_node, trace; stepper.py: _timeline)
DRAWN_ON = {
    "accumulated": ["leaf", "param"],
    "freed": ["saved"],
    "modified": ["saved"],
    "pruned": ["op"],
    "skipped": ["op", "leaf", "param", "collapsed"],
    "failed": ["op", "output"],
    "derivative": ["op"],
    "running": ["op", "leaf", "param", "output", "collapsed"],
    "done": ["op", "collapsed"],
    "waiting": ["op", "collapsed"],
}
KINDS = ["output", "op", "leaf", "param", "saved", "collapsed"]
STATES = sorted(DRAWN_ON)
# Looks the issue found too alike, whatever the rules above say.
NAMED_PAIRS = [("kind:output", "state:done"), ("state:running", "kind:saved")]

# Machado et al. (2009), severity 1.0, for linear RGB.
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
PROTANOPIA = np.array([[0.152286, 1.052583, -0.204868],
                       [0.114503, 0.786281, 0.099216],
                       [-0.003882, -0.048116, 1.051998]])
VISIONS = {"normal": np.eye(3), "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}


def rgb(hex_colour):
    return np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def linear(srgb):
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(linear_rgb):
    """CIELAB (D65) of a linear-RGB colour."""
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = to_xyz @ np.clip(linear_rgb, 0, 1) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def distance(colour_a, colour_b, vision):
    matrix = VISIONS[vision]
    return float(np.linalg.norm(lab(matrix @ linear(rgb(colour_a))) - lab(matrix @ linear(rgb(colour_b)))))


def luminance(hex_colour):
    return float(np.dot([0.2126, 0.7152, 0.0722], linear(rgb(hex_colour))))


def contrast(colour_a, colour_b):
    low, high = sorted([luminance(colour_a), luminance(colour_b)])
    return (high + 0.05) / (low + 0.05)


def box(kind, state="", id="n0"):
    """A box as the tracer makes it (a modified saved tensor always knows its versions)."""
    return VizNode(id, kind, "x", state=state, shape="(2,)", version="saved at v0, now v1")


def look(kind, state=""):
    """The DOT attributes of a box of ``kind`` in ``state`` (as the picture draws it)."""
    return node_attributes(box(kind, state))


def fill(key):
    kind_or_state, name = key.split(":")
    return look(name)["fillcolor"] if kind_or_state == "kind" else look(DRAWN_ON[name][0], name)["fillcolor"]


# --- the simulation itself, on colours whose answer is known ----------------------------


def test_the_simulation_confuses_red_and_green_as_known():
    # Red and green are far apart for normal vision and close for a deuteranope: the
    # textbook confusion; blue and orange stay apart for all three.
    assert distance("#d62728", "#2ca02c", "normal") > 60
    assert distance("#d62728", "#2ca02c", "deuteranopia") < 20
    assert min(distance("#1f77b4", "#ff7f0e", vision) for vision in VISIONS) > 40
    assert distance("#777777", "#777777", "protanopia") == 0  # greys are left alone
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # WCAG's known borderline grey


# --- colour ------------------------------------------------------------------------------


def colour_pairs():
    """Every pair of looks a reader must tell apart by colour."""
    pairs = []
    filled = [s for s in STATES if "fillcolor" in STYLE["state:" + s][0]]
    pairs += [(f"state:{a}", f"state:{b}") for a, b in itertools.combinations(filled, 2)]
    pairs += [(f"state:{s}", f"kind:{k}") for s in filled for k in DRAWN_ON[s]]
    return pairs + NAMED_PAIRS


@pytest.mark.parametrize("vision", VISIONS)
def test_every_state_has_a_fill_of_its_own(vision):
    too_close = [(a, b, round(distance(fill(a), fill(b), vision), 1)) for a, b in colour_pairs()
                 if distance(fill(a), fill(b), vision) < 10]
    assert too_close == []


@pytest.mark.parametrize("vision", VISIONS)
def test_states_that_keep_the_fill_change_the_border_colour(vision):
    # accumulated and modified keep their box's fill: a thick border in a colour far from it says it.
    for state in ("accumulated", "modified"):
        assert "fillcolor" not in STYLE["state:" + state][0]
        for kind in DRAWN_ON[state]:
            attributes = look(kind, state)
            assert float(attributes["penwidth"]) >= 2
            assert distance(attributes["color"], attributes["fillcolor"], vision) > 30


# --- the second cue: what survives greyscale ----------------------------------------------


def cue(kind, state):
    """What tells a box apart without colour: border pattern, border width, and its text."""
    attributes = look(kind, state)
    pattern = [word for word in attributes["style"].split(",") if word in ("dashed", "dotted")]
    return (tuple(pattern), float(attributes.get("penwidth", 1)),
            tuple(node_label(box(kind, state)).split("\n")))


def test_every_state_differs_from_every_other_without_colour():
    for kind in KINDS:
        states = [s for s in STATES if kind in DRAWN_ON[s]]
        cues = {state: cue(kind, state) for state in states + [""]}
        same = [(a, b) for a, b in itertools.combinations(cues, 2) if cues[a] == cues[b]]
        assert same == [], kind


def test_each_state_word_is_shown_in_the_box_and_in_the_legend():
    for state, word in MARK.items():
        kind = DRAWN_ON[state][0]
        assert node_label(box(kind, state)).split("\n")[-1] == word
    zoo = GraphData([box(DRAWN_ON[s][0], s, f"n{i}") for i, s in enumerate(STATES)], [])
    legend = to_dot(zoo).split("<B>legend</B>", 1)[1]
    for state, word in MARK.items():
        if STYLE["state:" + state][1]:  # a state with a legend line
            assert f">{word}</FONT>" in legend


# --- text --------------------------------------------------------------------------------


def test_text_on_every_fill_has_a_contrast_of_4_5_or_more():
    low = []
    for kind in KINDS:
        for state in [""] + [s for s in STATES if kind in DRAWN_ON[s]]:
            attributes = look(kind, state)
            text = attributes.get("fontcolor", "#000000")
            if contrast(text, attributes["fillcolor"]) < 4.5:
                low.append((kind, state, round(contrast(text, attributes["fillcolor"]), 2)))
    for key, (attributes, _) in STYLE.items():
        if key.startswith("edge:") and "fontcolor" in attributes:  # edge labels sit on the white page
            if contrast(attributes["fontcolor"], "#ffffff") < 4.5:
                low.append((key, round(contrast(attributes["fontcolor"], "#ffffff"), 2)))
    assert low == []


def test_no_text_is_smaller_than_the_minimum():
    nodes = [box(kind, state, f"n{i}") for i, (kind, state) in enumerate(
        [(k, "") for k in KINDS] + [(DRAWN_ON[s][0], s) for s in STATES])]
    edges = [VizEdge("n0", "n1", grad="[1, 2]"), VizEdge("n4", "n1", kind="saved"),
             VizEdge("n2", "n1", kind="cycle", label=".grad")]
    dot = to_dot(GraphData(nodes, edges, title="a title"))
    sizes = [float(size) for size in re.findall(r'fontsize="([\d.]+)"', dot)]
    sizes += [float(size) for size in re.findall(r'POINT-SIZE="([\d.]+)"', dot)]
    assert sizes and min(sizes) >= MIN_FONT_SIZE
    # Text with no size of its own takes the graph's, node's or edge's default: all set, all large enough.
    assert re.search(r'graph \[[^]]*fontsize="1[0-9]"', dot) and re.search(r'node \[[^]]*fontsize="1[0-9]"', dot)
    assert re.search(r'edge \[[^]]*fontsize="1[0-9]"', dot)


def test_the_restyling_css_draws_each_state_as_the_table_says():
    css = state_css()
    for state in STATES:
        attributes = STYLE["state:" + state][0]
        rule = re.search(rf'g\.node\.{state}>polygon[^{{]*\{{([^}}]*)\}}', css)
        if "fillcolor" in attributes:
            assert f"fill:{attributes['fillcolor']}" in rule.group(1)
        if "penwidth" in attributes:
            assert f"stroke-width:{attributes['penwidth']}" in rule.group(1)
