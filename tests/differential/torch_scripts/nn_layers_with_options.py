# Layers with their options, as a course's CNN and MLP weeks use them, against PyTorch's numbers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
img = torch.randn(2, 3, 8, 8)

# %% convolutions and pooling
for conv in [nn.Conv2d(3, 4, 3), nn.Conv2d(3, 4, 3, padding=1), nn.Conv2d(3, 4, 3, stride=2, padding=1),
             nn.Conv2d(3, 4, (3, 1), padding="same"), nn.Conv2d(3, 2, 1, bias=False), nn.Conv2d(3, 4, 5, padding="valid")]:
    out = conv(img)
    print(tuple(out.shape), f"{out.mean().item():.5f}", f"{out.std().item():.5f}")
print(nn.MaxPool2d(2)(img).shape, nn.MaxPool2d(3, stride=2, padding=1)(img).shape, F.max_pool2d(img, 2, 1).shape)

# %% normalisation layers
bn = nn.BatchNorm1d(3)
h = torch.randn(5, 3) * 2 + 1
print(bn(h).mean(0).abs().max().item() < 1e-6, bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(h)[0])
bn2 = nn.BatchNorm1d(3, momentum=None, affine=False)
bn2(h)
bn2(h * 2)
print(bn2.running_mean, bn2.weight)
ln = nn.LayerNorm((2, 3), elementwise_affine=False)
print(ln(torch.arange(12.0).reshape(2, 2, 3))[0], nn.LayerNorm(3, eps=1e-3)(h)[1:3])

# %% embeddings
torch.manual_seed(0)
emb = nn.Embedding(5, 2, padding_idx=0)
print(emb.weight[0], emb(torch.tensor([[0, 1], [1, 4]])).shape)
emb(torch.tensor([0, 1, 1])).sum().backward()
print(emb.weight.grad)

# %% activations with options
a = torch.linspace(-3, 3, 7)
b = torch.linspace(-2, 2, 5)
# (GELU at +-3 is left out: PyTorch's float32 erf loses digits in the tails; see the README.)
print(nn.LeakyReLU(0.2)(a), nn.ELU(alpha=0.5)(a), nn.GELU()(b), nn.GELU(approximate="tanh")(a))
print(nn.Softplus(beta=2, threshold=1)(a), nn.SiLU()(a), nn.Sigmoid()(a), nn.Tanh()(a), nn.Softmax(dim=0)(a))
print(nn.LogSoftmax(dim=0)(a))

# %% dropout
torch.manual_seed(0)
d = nn.Dropout(0.5)
print(d(torch.ones(8)), nn.Dropout(0.0)(torch.ones(3)), nn.Dropout(1.0)(torch.ones(3)))
d.eval()
print(d(torch.ones(3)))

# %% flatten and friends
print(nn.Flatten()(img).shape, nn.Flatten(0, 1)(img).shape, nn.Unflatten(1, (3, 1))(torch.zeros(2, 3)).shape, nn.Identity()(a).shape)

# %% initialisation
torch.manual_seed(0)
w = torch.empty(3, 5)
nn.init.xavier_uniform_(w)
print(w)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(w)
nn.init.kaiming_uniform_(w, a=5 ** 0.5)
print(w)
nn.init.normal_(w, mean=1.0, std=0.1)
print(w)
print(nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))

# %% mistakes: a wrong number of input channels
nn.Conv2d(4, 2, 3)(img)

# %% mistakes: BatchNorm on one sample in training
nn.BatchNorm1d(3)(torch.randn(1, 3))

# %% mistakes: a padding of "same" with a stride
nn.Conv2d(3, 4, 3, stride=2, padding="same")

# %% mistakes: an embedding of float indices
nn.Embedding(5, 2)(torch.tensor([1.0, 2.0]))
