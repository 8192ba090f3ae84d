# A "define a convolutional network" tutorial: a LeNet-style model, one backward pass, the
# gradient of a bias, a manual SGD update, then the optimizer, all on seeded weights.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

# %% the network
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
print(net)

# %% its learnable parameters
params = list(net.parameters())
print(len(params))
print(params[0].size())
print(net.conv1.bias)

# %% a forward pass on a made-up 32x32 image
image = torch.linspace(-1, 1, 32 * 32).reshape(1, 1, 32, 32).cos()
out = net(image)
print(out)

# %% backward with a gradient of ones
net.zero_grad()
out.backward(torch.ones(1, 10) / 10)
print(net.conv1.bias.grad)

# %% a loss and the graph behind it
target = torch.arange(10.0).view(1, -1) / 10
criterion = nn.MSELoss()
loss = criterion(net(image), target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])

# %% backprop: conv1's bias gradient before and after
net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad)

# %% updating the weights by hand
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
print(net.fc3.bias)

# %% and with an optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    output = net(image)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print(step, loss.item())

# %% a small batch through conv layers with padding and stride
torch.manual_seed(1)
features = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 2, 2, stride=2),
                         nn.Flatten())
batch = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8).div(100).sin()
h = features(batch)
print(features)
print(h.shape, h)

# %% a wrong number of input channels
net(torch.ones(1, 3, 32, 32))

# %% an image too small for the kernel
nn.Conv2d(1, 1, 5)(torch.ones(1, 1, 3, 3))
