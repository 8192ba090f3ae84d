"""Classroom assignments for minigrad: check a student's graph node by node, hand out and grade notebooks."""

from .nodecheck import GradComparison, GraphCheckReport, check_graph, compare_grads, recording
