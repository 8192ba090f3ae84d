"""Placeholder until the gradcheck work lands (see issue #2 notes)."""


def gradcheck(*args, **kwargs):
    raise NotImplementedError("gradcheck is being written")


def gradgradcheck(*args, **kwargs):
    raise NotImplementedError("gradgradcheck is being written")
