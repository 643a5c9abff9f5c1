"""Oracles for book.autograd: the same graphs built on `Var` and on torch tensors
(float64, requires_grad), values and gradients compared.

Reference: `torch.autograd` (torch 2.13, CPU). Tolerance: 1e-12 relative to the
largest entry of the reference (values and gradients span several orders of magnitude
across graphs; measured gaps are near 1e-15). The last tests run part 12's three
wirings (12-wiring: Post-LN, Pre-LN) against `torch.nn.TransformerEncoderLayer`
with the same weights, which is the block the page says it builds.
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import agree, page, rel_gap

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
F = torch.nn.functional

from book.autograd import Var, layer_norm, linear, mse, relu, softmax  # noqa: E402

TOL = 1e-12


def _pair(rng, *shape):
    a = rng.standard_normal(shape)
    return Var(a.copy()), torch.tensor(a, dtype=torch.float64, requires_grad=True)


def _compare(case, out, ref, pairs):
    """Value of the scalar, then every leaf's gradient, after both backward passes."""
    out.backward()
    ref.backward()
    agree(f"{case}: value", rel_gap(out.value, ref.detach().numpy()), TOL)
    for i, (v, t) in enumerate(pairs):
        agree(f"{case}: grad {i}", rel_gap(v.grad, t.grad.numpy()), TOL)


def test_linear_relu_mse_with_broadcast_bias():
    """`linear` (x W^T + b, W [out, in], bias broadcast over rows and a leading
    axis), `relu` and `mse` against F.linear, F.relu, F.mse_loss."""
    rng = np.random.default_rng(20)
    x, W, b = _pair(rng, 2, 6, 4), _pair(rng, 3, 4), _pair(rng, 3)
    target = rng.standard_normal((2, 6, 3))
    out = mse(relu(linear(x[0], W[0], b[0])), target)
    ref = F.mse_loss(F.relu(F.linear(x[1], W[1], b[1])), torch.from_numpy(target))
    _compare("linear-relu-mse", out, ref, [x, W, b])


def test_attention_graph_with_residual_reshape_and_swapaxes():
    """`@`, `*` by a constant, `softmax`, `reshape`, `swapaxes`, `-` and a residual
    (a value used twice) in one attention-shaped graph, against the same torch ops."""
    rng = np.random.default_rng(21)
    x, Wq, Wk = _pair(rng, 5, 8), _pair(rng, 8, 8), _pair(rng, 8, 8)
    target = rng.standard_normal((5, 8))

    def graph(x, Wq, Wk, soft, swap):
        q = (x @ Wq).reshape(5, 2, 4)
        k = (x @ Wk).reshape(5, 2, 4)
        s = soft(swap(q, 0, 1) @ swap(swap(k, 0, 1), -1, -2) * 0.5)
        mixed = swap(s @ swap(q, 0, 1), 0, 1).reshape(5, 8)
        return x + mixed - x * 0.25  # x used three times

    out = mse(
        graph(x[0], Wq[0], Wk[0], softmax, lambda a, i, j: a.swapaxes(i, j)), target
    )
    ref = F.mse_loss(
        graph(
            x[1],
            Wq[1],
            Wk[1],
            lambda a: torch.softmax(a, -1),
            lambda a, i, j: a.transpose(i, j),
        ),
        torch.from_numpy(target),
    )
    _compare("attention-shaped graph", out, ref, [x, Wq, Wk])


def test_indexing_with_repeated_rows_adds_gradients():
    """`__getitem__` with an index array that picks a row twice (the embedding
    lookup), and basic slicing: torch's advanced indexing accumulates the same way."""
    rng = np.random.default_rng(22)
    E = _pair(rng, 10, 4)
    ids = np.array([3, 1, 3, 3, 7])
    target = rng.standard_normal((5, 2))
    out = mse(E[0][ids][:, 1:3] * E[0][ids][:, 0:2], target)
    t_ids = torch.from_numpy(ids)
    ref = F.mse_loss(
        E[1][t_ids][:, 1:3] * E[1][t_ids][:, 0:2], torch.from_numpy(target)
    )
    _compare("embedding lookup", out, ref, [E])


@pytest.mark.parametrize("eps", [1e-5, 1e-2])
def test_layer_norm_values_and_gradients(eps):
    """`layer_norm(x, gamma, beta, eps)` (biased variance, eps under the square root)
    against `torch.nn.functional.layer_norm` with the same eps, gradients for x, gamma
    and beta, over a stack of shape (2, 3, 7)."""
    rng = np.random.default_rng(23)
    x, g, b = _pair(rng, 2, 3, 7), _pair(rng, 7), _pair(rng, 7)
    target = rng.standard_normal((2, 3, 7))
    out = mse(layer_norm(x[0], g[0], b[0], eps=eps), target)
    ref = F.mse_loss(
        F.layer_norm(x[1], (7,), g[1], b[1], eps=eps), torch.from_numpy(target)
    )
    _compare(f"layer_norm eps={eps:g}", out, ref, [x, g, b])


# -- part 12: the whole block --------------------------------------------------------
TORCH_NAMES = {
    "W_in": "self_attn.in_proj_weight",
    "b_in": "self_attn.in_proj_bias",
    "W_o": "self_attn.out_proj.weight",
    "b_o": "self_attn.out_proj.bias",
    "W_1": "linear1.weight",
    "b_1": "linear1.bias",
    "W_2": "linear2.weight",
    "b_2": "linear2.bias",
    "g_1": "norm1.weight",
    "beta_1": "norm1.bias",
    "g_2": "norm2.weight",
    "beta_2": "norm2.bias",
}


@pytest.mark.parametrize("wiring", ["Post-LN", "Pre-LN"])
def test_part12_blocks_match_transformer_encoder_layer(wiring):
    """Part 12 (12-wiring): `stack` of three blocks (its `attention`, `ffn`, `LN1`,
    `LN2`; 4 heads, no mask, no dropout) and `loss_at` (Pre-LN gets a final
    LayerNorm), on `Var`, against three `nn.TransformerEncoderLayer(d, 4, ff,
    dropout=0, activation=relu, batch_first=True, norm_first=wiring == "Pre-LN")`,
    weights and biases copied by name (torch's layout is the page's: [out, in], the
    in-projection stacked q, k, v). Parameters drawn by the page's
    `torch_default_block`, biases and LayerNorm weights then perturbed so that every
    gradient is exercised. Loss value and all 36 parameter gradients: 1e-12 relative."""
    ns = page("12-wiring", ("HEADS", "BATCH", "WIRINGS"))
    rng = np.random.default_rng(24)
    d, ff, batch, seq = 16, 32, 2, 5
    blocks = []
    for _ in range(3):
        p = ns.torch_default_block(rng, d=d, ff=ff)
        for k in ("b_in", "b_o", "beta_1", "beta_2"):
            p[k] = p[k] + 0.1 * rng.standard_normal(p[k].shape)
        for k in ("g_1", "g_2"):
            p[k] = p[k] * (1 + 0.1 * rng.standard_normal(d))
        blocks.append(p)
    x0 = rng.standard_normal((batch * seq, d))
    target = rng.standard_normal((batch * seq, d))

    vars_ = [ns.as_vars(p) for p in blocks]
    outs = ns.stack(x0, vars_, wiring, batch=batch)
    loss = ns.loss_at(outs[-1], target, wiring)
    loss.backward()

    layers = []
    for p in blocks:
        layer = torch.nn.TransformerEncoderLayer(
            d,
            ns.HEADS,
            ff,
            dropout=0.0,
            batch_first=True,
            norm_first=wiring == "Pre-LN",
        ).double()
        params = dict(layer.named_parameters())
        with torch.no_grad():
            for mine, theirs in TORCH_NAMES.items():
                params[theirs].copy_(torch.from_numpy(p[mine]))
        layers.append(layer)
    h = torch.from_numpy(x0).reshape(batch, seq, d)
    for layer in layers:
        h = layer(h)
    if wiring == "Pre-LN":
        h = F.layer_norm(h, (d,))
    ref = F.mse_loss(h.reshape(batch * seq, d), torch.from_numpy(target))
    ref.backward()

    agree(f"part 12 {wiring}: loss", rel_gap(loss.value, ref.detach().numpy()), TOL)
    worst = 0.0
    for v, layer in zip(vars_, layers):
        params = dict(layer.named_parameters())
        for mine, theirs in TORCH_NAMES.items():
            worst = max(worst, rel_gap(v[mine].grad, params[theirs].grad.numpy()))
    agree(f"part 12 {wiring}: worst of 36 gradients", worst, TOL)
