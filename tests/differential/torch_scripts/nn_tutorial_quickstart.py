# A beginner tutorial's "build a network, train it, save it" walk-through, on a tiny dataset.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# %% a model as a subclass of nn.Module
torch.manual_seed(0)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(2 * 2, 8),
            nn.ReLU(),
            nn.Linear(8, 8),
            nn.ReLU(),
            nn.Linear(8, 3),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
print(model)

# %% the parameters and how many there are
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
print("total:", sum(p.numel() for p in model.parameters()))
print("trainable:", sum(p.numel() for p in model.parameters() if p.requires_grad))

# %% one forward pass and the predicted class
X = torch.tensor([[[0.1, 0.2], [0.3, 0.4]], [[-1.0, 0.5], [0.25, 2.0]]])
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(logits)
print(pred_probab)
print(f"Predicted class: {y_pred}")

# %% the layers one at a time
flat_image = nn.Flatten()(X)
print(flat_image.size())
layer1 = model.linear_relu_stack[0]
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")

# %% data in a TensorDataset, batched by a DataLoader
features = torch.tensor([[0.0, 1.0, 0.5, 0.5], [1.0, 0.0, 0.2, 0.1], [0.3, 0.3, 0.9, 0.8],
                         [0.9, 0.1, 0.0, 0.3], [0.2, 0.8, 0.6, 0.4], [0.5, 0.5, 0.5, 0.5]]).reshape(6, 2, 2)
labels = torch.tensor([0, 1, 2, 1, 0, 2])
training_data = TensorDataset(features, labels)
train_dataloader = DataLoader(training_data, batch_size=4, shuffle=True)
print(len(training_data), len(train_dataloader))
for X, y in train_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    print(y)

# %% the training loop
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        loss, current = loss.item(), (batch + 1) * len(X)
        print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(3):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(DataLoader(training_data, batch_size=3), model, loss_fn)
print("Done!")

# %% saving and loading the weights
state = model.state_dict()
print(list(state.keys()))
print(state["linear_relu_stack.4.bias"])
model2 = NeuralNetwork()
print(model2.load_state_dict(state))
model2.eval()
print(torch.equal(model2(features), model(features)) if hasattr(torch, "equal") else "n/a")

# %% the optimizer's own state
print(optimizer)
print(optimizer.state_dict()["param_groups"])

# %% a mismatched checkpoint
try:
    nn.Linear(4, 3).load_state_dict({"weight": torch.zeros(3, 5), "bias": torch.zeros(3), "extra": torch.zeros(1)})
except RuntimeError as e:
    print(e)

# %% saving to a file and loading back, as the tutorial does
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "model.pth")
torch.save(model.state_dict(), path)
print("Saved PyTorch Model State to model.pth")
model3 = NeuralNetwork()
print(model3.load_state_dict(torch.load(path, weights_only=True)))
model3.eval()
with torch.no_grad():
    pred = model3(features[:2])
    print(pred.argmax(1), labels[:2])

# %% a checkpoint with the optimizer's state
ckpt = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict(),
            "loss": 0.25}, ckpt)
checkpoint = torch.load(ckpt)
print(checkpoint["epoch"], checkpoint["loss"], sorted(checkpoint))
optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
print(optimizer.param_groups[0]["lr"])

# %% weights_only refuses other objects
class Custom:
    pass


torch.save({"thing": Custom()}, ckpt)
try:
    torch.load(ckpt)
except Exception as e:
    print(type(e).__name__, str(e).startswith("Weights only load failed."))
print(type(torch.load(ckpt, weights_only=False)["thing"]).__name__)
