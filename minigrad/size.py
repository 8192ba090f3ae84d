"""``minigrad.Size``: a tensor's shape, a tuple of ints that prints as PyTorch's ``torch.Size``."""

from . import messages


class Size(tuple):
    """The shape of a tensor: a tuple (``x.shape[0]``, ``x.shape == (2, 3)`` work as for tuples).

    >>> import minigrad
    >>> minigrad.zeros(2, 3).shape
    minigrad.Size([2, 3])
    >>> minigrad.Size([2, 3]).numel()
    6
    """

    __slots__ = ()

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        for index, value in enumerate(sizes):
            if not isinstance(value, int) and not hasattr(value, "__index__"):
                raise TypeError(
                    f"minigrad.Size() takes an iterable of 'int' (item {index} is '{type(value).__name__}')")
        return super().__new__(cls, [int(v) for v in sizes])

    def numel(self):
        """How many elements a tensor of this shape holds."""
        count = 1
        for n in self:
            count *= n
        return count

    def __repr__(self):
        return messages.format_size(self)

    __str__ = __repr__

    # As PyTorch: slicing, adding and repeating a Size give a Size.
    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        # (A slice of checked ints needs no second check: ``x.shape[1:]`` is common.)
        return tuple.__new__(Size, item) if isinstance(index, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to minigrad.Size")
        return Size(tuple(self) + other)

    def __radd__(self, other):
        return Size(other + tuple(self))

    def __mul__(self, times):
        return Size(tuple(self) * times)

    __rmul__ = __mul__


def shape_of(array):
    """``array.shape`` as a Size, without re-checking NumPy's ints (read on every ``x.shape``)."""
    return tuple.__new__(Size, array.shape)
