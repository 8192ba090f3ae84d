"""``DataLoader``: iterate over a dataset in (shuffled) batches, stacked into tensors by ``default_collate``.

One pass (``for x, y in loader``) is: pick the indices (a sampler), group them (``BatchSampler``),
fetch each sample (``dataset[i]``) and combine each batch (``collate_fn``). Random draws happen
where PyTorch makes them: one seed per pass from ``generator`` (or the default generator), then
the shuffle itself, so the global random numbers after a loop are PyTorch's too.
"""

import collections.abc
import numbers

import numpy as np

from ... import dtypes
from ...creation import as_tensor, empty, tensor
from ...ops import stack
from ...tensor import Tensor
from .sampler import BatchSampler, RandomSampler, SequentialSampler


def default_collate(batch):
    """Combine a list of samples into a batch, as PyTorch does.

    Tensors (and NumPy arrays) are stacked along a new first dim; Python floats become a
    float64 tensor, ints an int64 one; tuples and lists are collated field by field (into a
    list), dicts key by key; strings stay a list.

    >>> import minigrad
    >>> default_collate([(minigrad.tensor([1.0]), 0), (minigrad.tensor([2.0]), 1)])
    [tensor([[1.],
            [2.]]), tensor([0, 1])]
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        return stack([as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic):
        return as_tensor(np.array(batch))
    if isinstance(elem, bool):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=dtypes.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch)]
    if isinstance(elem, numbers.Number):
        return tensor(batch)
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                    f"found {type(elem)}")


class DataLoader:
    """Batches of a dataset, in order or shuffled.

    Args:
        dataset: anything with ``__getitem__`` and ``__len__`` (e.g. a ``TensorDataset``).
        batch_size: samples per batch; None yields single samples, not collated into batches.
        shuffle: a new random order each pass.
        sampler: the order of the indices (exclusive with ``shuffle``).
        batch_sampler: yields whole lists of indices (exclusive with batch_size, shuffle, sampler, drop_last).
        num_workers: accepted; minigrad always loads in the main process (same batches, same order).
        collate_fn: combines a list of samples into a batch (``default_collate``).
        drop_last: drop the last batch if it is smaller than ``batch_size``.
        generator: the generator shuffling draws from (default: the global one).

    Raises:
        ValueError: for options that exclude each other, as PyTorch.

    >>> import minigrad
    >>> from minigrad.utils.data import TensorDataset
    >>> loader = DataLoader(TensorDataset(minigrad.arange(5)), batch_size=2)
    >>> [batch[0].tolist() for batch in loader]
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        # NB: PyTorch can load with worker processes; minigrad loads in the main process. The batches and
        # their order are the same (they come from the sampler), only slower for slow datasets.
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else _convert
        self.collate_fn = collate_fn

    def __iter__(self):
        # PyTorch draws a base seed for its workers at the start of every pass, from `generator`
        # (or the global generator): drawn here too, so later random numbers stay PyTorch's.
        empty((), dtype=dtypes.int64).random_(generator=self.generator)
        return self._batches()

    def _batches(self):
        if self.batch_sampler is None:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self):
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


def _convert(sample):
    """What a loader without batching yields: the sample, NumPy arrays made tensors."""
    if isinstance(sample, np.ndarray):
        return as_tensor(sample)
    if isinstance(sample, tuple) and hasattr(sample, "_fields"):  # a namedtuple keeps its type
        return type(sample)(*(_convert(s) for s in sample))
    if isinstance(sample, (tuple, list)):
        return [_convert(s) for s in sample]  # as PyTorch's default_convert: a list
    return sample
