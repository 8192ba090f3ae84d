# torch.utils.data as a first training loop uses it: datasets, loaders, shuffling with a seed,
# batching rules, and the mistakes people make with them.
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split, Subset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i


# %% a map-style dataset
ds = Squares(10)
print(len(ds), ds[3])
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb.shape, yb)

# %% shuffling with a seeded generator
g = torch.Generator().manual_seed(0)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=3, shuffle=True, generator=g)])
torch.manual_seed(0)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=3, shuffle=True)])
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=3, drop_last=True)])

# %% TensorDataset and random_split
X = torch.arange(20.0).reshape(10, 2)
Y = torch.arange(10)
td = TensorDataset(X, Y)
print(len(td), td[2])
train, val = random_split(td, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), sorted(i for i in val.indices) if hasattr(val, "indices") else "")
train2, val2 = random_split(td, [0.8, 0.2], generator=torch.Generator().manual_seed(1))
print(len(train2), len(val2))
print(Subset(td, [0, 5])[1])

# %% collation of dicts and tuples
class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "label": i % 2, "name": f"item{i}"}


batch = next(iter(DataLoader(Pairs(), batch_size=3)))
print(sorted(batch.keys()), batch["x"], batch["label"], batch["name"])
print(next(iter(DataLoader(Pairs(), batch_size=None)))["x"])

# %% len of a loader
print(len(DataLoader(ds, batch_size=4)), len(DataLoader(ds, batch_size=4, drop_last=True)))

# %% mistake: items of different shapes in one batch
class Ragged(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return torch.zeros(i + 1)


next(iter(DataLoader(Ragged(), batch_size=2)))

# %% mistake: split lengths that do not add up
random_split(td, [5, 3])

# %% mistake: TensorDataset of different lengths
TensorDataset(torch.zeros(3), torch.zeros(4))
