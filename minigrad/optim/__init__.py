"""Placeholder until optim lands."""
