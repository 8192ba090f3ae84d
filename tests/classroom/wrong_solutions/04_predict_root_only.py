# Assignment 4 with predict_freed looking only at the last node (loss.grad_fn), not at the whole graph.

# %% predict_freed
def predict_freed(loss, inputs=None):
    node = loss.grad_fn
    names = held_tensors(node)
    return {node: names} if names else {}
