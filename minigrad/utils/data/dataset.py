"""Datasets: anything with ``__getitem__`` and ``__len__``; ``TensorDataset`` over tensors; splits of them."""

import bisect
import itertools
import math
import warnings

from ...creation import randperm
from ...random import default_generator


class Dataset:
    """Base class of map-style datasets: subclass it and define ``__getitem__`` (and ``__len__``).

    >>> class Squares(Dataset):
    ...     def __len__(self):
    ...         return 4
    ...     def __getitem__(self, i):
    ...         return i * i
    >>> [Squares()[i] for i in range(4)]
    [0, 1, 4, 9]
    """

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Sample ``i`` is ``(t[i] for t in tensors)``: features and labels side by side.

    Raises:
        AssertionError: if the tensors differ in their first dim (PyTorch's error).

    >>> import minigrad
    >>> ds = TensorDataset(minigrad.tensor([[1.0], [2.0]]), minigrad.tensor([0, 1]))
    >>> len(ds), ds[1]
    (2, (tensor([2.]), tensor(1)))
    """

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order.

    >>> Subset(["a", "b", "c"], [2, 0])[0]
    'c'
    """

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another.

    >>> ds = ConcatDataset([[1, 2], [3]])
    >>> len(ds), ds[2]
    (3, 3)
    """

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


def random_split(dataset, lengths, generator=default_generator):
    """Split ``dataset`` at random into subsets of the given lengths (or fractions summing to 1).

    The order comes from ``randperm(len(dataset), generator=generator)``: PyTorch's for the same seed.

    Raises:
        ValueError: if the lengths do not add up to the dataset's length, or a fraction is outside [0, 1].

    >>> import minigrad
    >>> train, test = random_split(range(5), [3, 2], generator=minigrad.Generator().manual_seed(0))
    >>> train.indices, test.indices
    ([4, 0, 1], [3, 2])
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(math.floor(len(dataset) * frac))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):  # one each, round-robin, as PyTorch
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[offset - length:offset])
            for offset, length in zip(itertools.accumulate(lengths), lengths)]
