"""Placeholder until autograd.functional lands (see issue #2 notes)."""
