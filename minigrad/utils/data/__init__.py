"""``minigrad.utils.data``: datasets, samplers and the ``DataLoader`` that batches them, as ``torch.utils.data``.

Shuffling draws from minigrad's generator exactly as PyTorch draws from its own, so a seeded
loader yields PyTorch's batches in PyTorch's order.
"""

from .dataloader import DataLoader, default_collate
from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler

__all__ = ["DataLoader", "default_collate", "Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split",
           "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "BatchSampler"]
