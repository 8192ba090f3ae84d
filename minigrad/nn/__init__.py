"""Placeholder until nn lands."""
