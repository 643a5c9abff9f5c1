"""A small reverse-mode differentiator for numpy arrays.

A chapter that needs the gradient of a whole network (not the subject of the
chapter) builds it from these pieces instead of writing every backward pass by hand:

    x = Var(data); W = Var(w, name="W")
    loss = mse(relu(x @ W.swapaxes(-1, -2)), target)
    loss.backward()          # W.grad now holds d loss / d W

`Var` records each operation together with the rule that sends a gradient back
through it. `backward` walks the record in reverse order and adds up the
gradient that reaches each `Var` along every path, so a residual connection
(a value used twice) is handled without special care. Broadcasting is undone
on the way back: a bias added to every row receives the sum over the rows.

The operations are the few a transformer block needs: `+`, `-`, `*`, `@`, indexing,
`reshape`, `swapaxes`, `linear`, `relu`, `softmax`, `layer_norm` and `mse`. Every one of
them works on stacks: leading axes (a batch, or one per random seed) ride along.
`gradcheck` compares the gradient `backward` computes with central differences.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["Var", "linear", "relu", "softmax", "layer_norm", "mse", "gradcheck"]

# Every matrix product goes through this name, so that workshop.measure.bench can count
# the floating-point operations a page does (it swaps in a counting wrapper).
_matmul = np.matmul


def _unbroadcast(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum `g` down to `shape`, undoing numpy broadcasting."""
    if g.shape == shape:  # the common case: nothing was broadcast
        return g
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, n in enumerate(shape):
        if n == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


def _as_var(x) -> Var:
    if isinstance(x, Var):
        return x
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, np.ndarray, np.generic)):
        raise TypeError(
            f"Var: expected a Var, an array or a number, got {type(x).__name__}"
        )
    return Var(np.asarray(x, dtype=float))


class Var:
    """A value in a computation, with the gradient of the final
    scalar after `backward`."""

    __slots__ = ("value", "grad", "name", "_parents", "_back")

    def __init__(self, value, name: str | None = None, *, _parents=(), _back=None):
        value = np.asarray(value)
        if value.dtype.kind != "f":  # np.issubdtype(dtype, np.floating), cheaper
            value = value.astype(float)
        self.value = value
        self.grad = None
        self.name = name
        self._parents = _parents
        self._back = _back

    @property
    def shape(self) -> tuple:
        return self.value.shape

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return f"Var{label}(shape={self.value.shape}, dtype={self.value.dtype})"

    # -- arithmetic -----------------------------------------------------------------
    def __add__(self, other):
        other = _as_var(other)
        a, b = self, other

        def back(g):
            return _unbroadcast(g, a.shape), _unbroadcast(g, b.shape)

        return Var(a.value + b.value, _parents=(a, b), _back=back)

    __radd__ = __add__

    def __neg__(self):
        return Var(-self.value, _parents=(self,), _back=lambda g: (-g,))

    def __sub__(self, other):
        return self + (-_as_var(other))

    def __rsub__(self, other):
        return _as_var(other) + (-self)

    def __mul__(self, other):
        if isinstance(other, numbers.Real) and not isinstance(other, bool):
            # a fixed number (a scale): only self needs a gradient
            c = np.float64(other)
            return Var(self.value * c, _parents=(self,), _back=lambda g: (g * c,))
        other = _as_var(other)
        a, b = self, other

        def back(g):
            return _unbroadcast(g * b.value, a.shape), _unbroadcast(
                g * a.value, b.shape
            )

        return Var(a.value * b.value, _parents=(a, b), _back=back)

    __rmul__ = __mul__

    def __matmul__(self, other):
        other = _as_var(other)
        a, b = self, other
        if a.value.ndim < 2 or b.value.ndim < 2:
            raise ValueError(
                f"Var @: both operands need 2+ dimensions, got shapes "
                f"{a.shape} and {b.shape}"
            )
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(
                f"Var @: inner dimensions differ, shapes {a.shape} and {b.shape}"
            )

        def back(g):
            ga = _matmul(g, np.swapaxes(b.value, -1, -2))
            gb = _matmul(np.swapaxes(a.value, -1, -2), g)
            return _unbroadcast(ga, a.shape), _unbroadcast(gb, b.shape)

        return Var(_matmul(a.value, b.value), _parents=(a, b), _back=back)

    def __rmatmul__(self, other):
        return _as_var(other) @ self

    # -- shape ------------------------------------------------------------------------
    def reshape(self, *shape):
        old = self.shape
        return Var(
            self.value.reshape(*shape),
            _parents=(self,),
            _back=lambda g: (g.reshape(old),),
        )

    def __getitem__(self, index):
        old = self.shape

        idx = index if isinstance(index, tuple) else (index,)
        basic = all(
            isinstance(i, (slice, int, type(Ellipsis))) or i is None for i in idx
        )

        def back(g):
            if basic:  # slices pick each entry at most once: backward writes g there
                return (_Part(index, g),)
            full = np.zeros(old, dtype=g.dtype)
            np.add.at(full, index, g)  # an index array may pick an entry twice: add
            return (full,)

        return Var(self.value[index], _parents=(self,), _back=back)

    def swapaxes(self, i: int, j: int):
        return Var(
            np.swapaxes(self.value, i, j),
            _parents=(self,),
            _back=lambda g: (np.swapaxes(g, i, j),),
        )

    # -- reverse pass -----------------------------------------------------------------
    def backward(self) -> None:
        """Fill `.grad` of every Var this scalar depends on with d self / d that Var."""
        if self.value.size != 1:
            raise ValueError(f"backward: start from a scalar, got shape {self.shape}")
        order, seen = [], set()
        stack = [(self, False)]
        while (
            stack
        ):  # iterative depth-first search: deep networks need no recursion limit
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((p, False) for p in node._parents if id(p) not in seen)
        for node in order:
            node.grad = None
        self.grad = np.ones_like(self.value)
        owned = set()  # ids of the Vars whose .grad is an array made here, not shared
        for node in reversed(order):
            if node._back is None or node.grad is None:
                continue
            for parent, g in zip(node._parents, node._back(node.grad)):
                _accumulate(parent, g, owned)
            if node._parents:  # an intermediate: its gradient is no longer needed
                node.grad = None


class _Part:
    """The gradient of a slice: `g` at `index` of an array of zeros, left for
    `backward` to add in place rather than written out in full."""

    __slots__ = ("index", "g")

    def __init__(self, index, g):
        self.index, self.g = index, g


def _accumulate(var: Var, g, owned: set) -> None:
    """Add the gradient `g` to `var.grad`. A first gradient is kept as it is (it may be
    shared with another Var); a second one is added into an array of var's own, in place
    after that: the same sums, fewer arrays."""
    if isinstance(g, _Part):
        if id(var) not in owned:
            full = np.zeros(var.shape, dtype=g.g.dtype)
            if var.grad is not None:
                full += var.grad
            var.grad = full
            owned.add(id(var))
        var.grad[g.index] += g.g
    elif var.grad is None:
        var.grad = g
    elif id(var) in owned and np.result_type(var.grad, g) == var.grad.dtype:
        var.grad += g
    else:
        var.grad = var.grad + g
        owned.add(id(var))


def linear(x: Var, W: Var, b: Var) -> Var:
    """``x @ W^T + b`` (PyTorch's convention: W is (out, in)) as one operation.

    The same value as ``x @ W.swapaxes(-1, -2) + b``, but it keeps one array instead of
    two and hands W a gradient of W's own layout. Leading axes broadcast as in ``@``: W
    of shape (seeds, out, in) with x of shape (seeds, rows, in) is one product per seed.
    """
    x, W, b = _as_var(x), _as_var(W), _as_var(b)
    if x.value.ndim < 2 or W.value.ndim < 2:
        raise ValueError(
            f"linear: x and W need 2+ dimensions, got shapes {x.shape} and {W.shape}"
        )
    if x.shape[-1] != W.shape[-1]:
        raise ValueError(
            f"linear: x {x.shape} and W {W.shape} must end in the same "
            f"width (W is (out, in))"
        )
    y = _matmul(x.value, np.swapaxes(W.value, -1, -2))
    if np.broadcast_shapes(y.shape, b.shape) == y.shape:
        y += b.value  # in place: one array, not two
    else:
        y = y + b.value

    def back(g):
        gx = _matmul(g, W.value)
        gW = _matmul(np.swapaxes(g, -1, -2), x.value)
        return (
            _unbroadcast(gx, x.shape),
            _unbroadcast(gW, W.shape),
            _unbroadcast(g, b.shape),
        )

    return Var(y, _parents=(x, W, b), _back=back)


def relu(x: Var) -> Var:
    x = _as_var(x)
    y = np.maximum(x.value, 0.0)
    # y > 0 where x > 0: the output is its own mask, and no other array is kept
    return Var(y, _parents=(x,), _back=lambda g: (g * (y > 0),))


def softmax(x: Var) -> Var:
    """Softmax over the last axis."""
    x = _as_var(x)
    # In place, one array for e and p: the same values as
    # e = exp(x - max); p = e / e.sum(), without two more arrays of x's size.
    p = x.value - x.value.max(axis=-1, keepdims=True)
    np.exp(p, out=p)
    p /= np.add.reduce(p, axis=-1, keepdims=True)

    def back(g):
        gp = g * p
        total = np.add.reduce(gp, axis=-1, keepdims=True)
        np.subtract(g, total, out=gp)
        gp *= p  # p * (g - total)
        return (gp,)

    return Var(p, _parents=(x,), _back=back)


def layer_norm(x: Var, gamma: Var, beta: Var, eps: float = 1e-5) -> Var:
    """Normalise the last axis to mean 0 and variance 1 (biased), then scale by
    gamma and shift by beta."""
    x, gamma, beta = _as_var(x), _as_var(gamma), _as_var(beta)
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not eps > 0:
        raise ValueError(f"layer_norm: eps must be a positive number, got {eps!r}")
    n = x.shape[-1]
    if gamma.shape[-1:] != (n,) or beta.shape[-1:] != (n,):
        raise ValueError(
            f"layer_norm: gamma {gamma.shape} and beta {beta.shape} must end in {n}"
        )
    # A mean over the last axis is np.add.reduce(...) / n, as np.mean computes it;
    # written out, and in place where an array is not kept, it makes fewer arrays.
    xc = x.value - np.add.reduce(x.value, axis=-1, keepdims=True) / n
    sq = xc * xc
    inv = 1.0 / np.sqrt(np.add.reduce(sq, axis=-1, keepdims=True) / n + eps)
    xhat = np.multiply(xc, inv, out=sq)
    out = xhat * gamma.value
    if np.broadcast_shapes(out.shape, beta.shape) == out.shape:
        out += beta.value
    else:
        out = out + beta.value

    def back(g):
        gx = g * gamma.value  # the gradient of xhat, turned into that of x in place
        m1 = np.add.reduce(gx, axis=-1, keepdims=True) / n
        t = gx * xhat
        m2 = np.add.reduce(t, axis=-1, keepdims=True) / n
        gx -= m1
        gx -= np.multiply(xhat, m2, out=t)
        gx *= inv  # inv * (gx_hat - mean(gx_hat) - xhat * mean(gx_hat * xhat))
        return gx, _unbroadcast(g * xhat, gamma.shape), _unbroadcast(g, beta.shape)

    return Var(out, _parents=(x, gamma, beta), _back=back)


def mse(x: Var, target) -> Var:
    """Mean squared error between x and a fixed target of the same shape."""
    x = _as_var(x)
    t = np.asarray(target.value if isinstance(target, Var) else target, dtype=float)
    if t.shape != x.shape:
        raise ValueError(
            f"mse: target shape {t.shape} differs from input shape {x.shape}"
        )
    diff = x.value - t
    return Var(
        np.mean(diff * diff),
        _parents=(x,),
        _back=lambda g: (g * 2.0 * diff / diff.size,),
    )


def gradcheck(f, params, *, entries: int = 5, h: float = 1e-6, seed: int = 0) -> float:
    """Relative error between `backward`'s gradient and central differences.

    The error is ``|numeric - analytic| / max(|numeric|, |analytic|)``, the norms taken
    over all the entries checked, so one tiny entry's rounding noise does not dominate.

    `f()` builds the scalar from `params` (a list of Var) each time it is called.
    `entries` randomly chosen entries of each parameter are perturbed by +-h.
    """
    if isinstance(entries, bool) or not isinstance(entries, int) or entries < 1:
        raise ValueError(f"gradcheck: entries must be a positive int, got {entries!r}")
    if isinstance(h, bool) or not isinstance(h, numbers.Real) or not 0 < h < 1:
        raise ValueError(f"gradcheck: h must be in (0, 1), got {h!r}")
    params = list(params)
    if not params or not all(isinstance(p, Var) for p in params):
        raise TypeError("gradcheck: params must be a non-empty list of Var")
    out = f()
    out.backward()
    grads = [
        np.array(p.grad if p.grad is not None else np.zeros_like(p.value))
        for p in params
    ]
    rng = np.random.default_rng(seed)
    numeric, analytic = [], []
    for p, g in zip(params, grads):
        flat = p.value.flat  # writes through to p.value, contiguous or not
        for i in rng.choice(
            p.value.size, size=min(entries, p.value.size), replace=False
        ):
            old = float(flat[i])
            flat[i] = old + h
            up = float(f().value)
            flat[i] = old - h
            down = float(f().value)
            flat[i] = old
            numeric.append((up - down) / (2 * h))
            analytic.append(float(g.flat[i]))
    numeric, analytic = np.array(numeric), np.array(analytic)
    scale = max(np.linalg.norm(numeric), np.linalg.norm(analytic), 1e-300)
    return float(np.linalg.norm(numeric - analytic) / scale)
