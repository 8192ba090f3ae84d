# Wrong calls learners make with nn, optim and data loading: each must fail as PyTorch fails.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

logits = torch.tensor([[0.2, -1.0, 3.0], [0.5, 0.1, -2.0]])

# %% a Linear layer with the wrong input size
nn.Linear(4, 5)(torch.ones(2, 3))

# %% a Linear layer fed a 1-D input of the wrong size
nn.Linear(4, 5)(torch.ones(3))

# %% a Linear layer fed a batch of sequences of the wrong size
nn.Linear(4, 5)(torch.ones(2, 2, 3))

# %% a Linear layer fed float64 data
nn.Linear(2, 2)(torch.ones(2, 2, dtype=torch.float64))

# %% a Linear layer fed integer data
nn.Linear(2, 2)(torch.tensor([[1, 2]]))

# %% cross_entropy with one-hot integer targets
F.cross_entropy(logits, torch.tensor([[0, 1, 0], [1, 0, 0]]))

# %% cross_entropy with 2-D targets of the wrong width
F.cross_entropy(logits, torch.tensor([[0, 1], [1, 0]]))

# %% cross_entropy with float class indices
F.cross_entropy(logits, torch.tensor([0.0, 1.0]))

# %% cross_entropy with int32 targets
F.cross_entropy(logits, torch.tensor([0, 1], dtype=torch.int32))

# %% cross_entropy with too many targets
F.cross_entropy(logits, torch.tensor([0, 1, 2]))

# %% cross_entropy with a class out of range
F.cross_entropy(logits, torch.tensor([0, 3]))

# %% cross_entropy with a negative class
F.cross_entropy(logits, torch.tensor([0, -1]))

# %% cross_entropy with an unknown reduction
F.cross_entropy(logits, torch.tensor([0, 1]), reduction="avg")

# %% nll_loss with float targets
F.nll_loss(logits, torch.tensor([0.0, 1.0]))

# %% one_hot of floats
F.one_hot(torch.tensor([0.0, 1.0]))

# %% one_hot with too few classes
F.one_hot(torch.tensor([0, 3]), 3)

# %% one_hot of a negative class
F.one_hot(torch.tensor([0, -1]))

# %% one_hot of an empty tensor without num_classes
F.one_hot(torch.tensor([], dtype=torch.long))

# %% binary_cross_entropy on logits instead of probabilities
F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0]))

# %% binary_cross_entropy with a target of another size
F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 1.0, 1.0]))

# %% binary_cross_entropy with integer targets
F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([0, 1]))

# %% BCELoss with integer targets
nn.BCELoss()(torch.sigmoid(torch.tensor([0.5, -0.5])), torch.tensor([0, 1]))

# %% binary_cross_entropy_with_logits with a target of another size
F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.5]), torch.tensor([[0.0, 1.0]]))

# %% binary_cross_entropy_with_logits with integer targets
F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.5]), torch.tensor([0, 1]))

# %% mse_loss with shapes that broadcast (a warning, then numbers)
print(F.mse_loss(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 3.0])))

# %% mse_loss with shapes that do not broadcast
F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]))

# %% l1_loss with shapes that do not broadcast
F.l1_loss(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 1.0, 2.0]))

# %% an index out of range in an Embedding
nn.Embedding(5, 3)(torch.tensor([5]))

# %% float indices into an Embedding
nn.Embedding(5, 3)(torch.tensor([1.0]))

# %% BatchNorm1d in training mode with one sample
nn.BatchNorm1d(3)(torch.ones(1, 3))

# %% BatchNorm1d with the wrong number of features
nn.BatchNorm1d(3)(torch.ones(2, 4))

# %% BatchNorm1d with a 1-D input
nn.BatchNorm1d(3)(torch.ones(3))

# %% LayerNorm over the wrong trailing size
nn.LayerNorm(3)(torch.ones(2, 4))

# %% a dropout probability above one
nn.Dropout(1.5)

# %% a dropout probability below zero in the function
F.dropout(torch.ones(2), p=-0.1)

# %% Sequential indexed past its end
nn.Sequential(nn.ReLU())[1]

# %% Sequential indexed by a negative number past its start
nn.Sequential(nn.ReLU())[-2]

# %% Sequential indexed by a string
nn.Sequential(nn.ReLU())["0"]

# %% ModuleList indexed past its end
nn.ModuleList([nn.ReLU()])[3]

# %% ModuleDict with a missing key
nn.ModuleDict({"a": nn.ReLU()})["b"]

# %% a ModuleList is not callable as a layer
nn.ModuleList([nn.ReLU()])(torch.ones(2))

# %% a Sequential of something that is not a module
nn.Sequential(nn.ReLU(), 3)

# %% a Module subclass without forward
class NoForward(nn.Module):
    pass


NoForward()(torch.ones(2))

# %% assigning a layer before Module.__init__
class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


Forgot()

# %% Flatten of a 1-D tensor
nn.Flatten()(torch.ones(3))

# %% Unflatten to sizes that do not multiply up
nn.Unflatten(1, (2, 3))(torch.ones(2, 4))

# %% load_state_dict with a missing key
nn.Linear(2, 1).load_state_dict({"weight": torch.zeros(1, 2)})

# %% load_state_dict with a wrong shape
nn.Linear(2, 1).load_state_dict({"weight": torch.zeros(2, 2), "bias": torch.zeros(1)})

# %% moving a model to a GPU that is not there
nn.Linear(2, 1).to("cuda")

# %% casting a model to an integer dtype
nn.Linear(2, 1).to(torch.int64)

# %% an optimizer over no parameters
torch.optim.SGD([], lr=0.1)

# %% an optimizer given a single tensor
torch.optim.SGD(nn.Parameter(torch.ones(2)), lr=0.1)

# %% a negative learning rate
torch.optim.Adam(nn.Linear(2, 1).parameters(), lr=-1.0)

# %% betas out of range
torch.optim.Adam(nn.Linear(2, 1).parameters(), betas=(1.0, 0.999))

# %% Nesterov momentum without momentum
torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, nesterov=True)

# %% an optimizer over a non-leaf tensor
w = torch.ones(2, requires_grad=True)
torch.optim.SGD([w * 2], lr=0.1)

# %% the same parameter in two groups
p = nn.Parameter(torch.ones(2))
torch.optim.SGD([{"params": [p]}, {"params": [p], "lr": 0.01}], lr=0.1)

# %% a scheduler stepped before the optimizer
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
sched.step()
print(sched.get_last_lr())

# %% a scheduler given something that is not an optimizer
torch.optim.lr_scheduler.StepLR([1, 2], step_size=1)

# %% TensorDataset of tensors of different lengths
TensorDataset(torch.ones(5, 2), torch.ones(3))

# %% random_split with lengths that do not add up
random_split(range(5), [2, 2])

# %% shuffle together with a sampler
DataLoader(range(5), shuffle=True, sampler=[0, 1])

# %% a zero batch size
DataLoader(range(5), batch_size=0)

# %% batch_size=None with drop_last
DataLoader(range(5), batch_size=None, drop_last=True)

# %% collating samples of different sizes
next(iter(DataLoader([torch.ones(2), torch.ones(3)], batch_size=2)))

# %% a class weight that requires grad in cross_entropy
F.cross_entropy(logits, torch.tensor([0, 1]), weight=torch.ones(3, requires_grad=True))

# %% a weight that requires grad in binary_cross_entropy
F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([1.0, 0.0]), weight=torch.ones(2, requires_grad=True))

# %% a pos_weight that requires grad in binary_cross_entropy_with_logits
F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1.0]),
                                   pos_weight=torch.ones(1, requires_grad=True))

# %% a layer created on a GPU that is not there
nn.Linear(2, 2, device="cuda")

# %% a layer created on the CPU by name
print(nn.Linear(2, 2, device="cpu").weight.shape, nn.Conv2d(1, 1, 2, device=torch.device("cpu")).weight.shape)
