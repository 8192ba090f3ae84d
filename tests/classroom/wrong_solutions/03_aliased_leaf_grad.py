# Assignment 3 with a leaf's first gradient stored as it is (`leaf.grad = grad`, no copy): when one
# gradient tensor reaches two leaves (x + w), x.grad is w.grad.

# %% run_backward
def run_backward(loss):
    root = loss.grad_fn
    grads = {root: minigrad.ones_like(loss)}
    with minigrad.no_grad():
        for node in topological_order(root):
            grad = grads.pop(node, None)
            if grad is None:
                continue
            if isinstance(node, minigrad.autograd.graph.AccumulateGrad):
                leaf = node.variable
                if leaf.grad is None:
                    leaf.grad = grad
                else:
                    leaf.grad += grad
                continue
            grad_inputs = node.backward(grad)
            if not isinstance(grad_inputs, tuple):
                grad_inputs = (grad_inputs,)
            for (child, _), grad_input in zip(node.next_functions, grad_inputs):
                if child is None or grad_input is None:
                    continue
                grads[child] = grad_input if child not in grads else grads[child] + grad_input
