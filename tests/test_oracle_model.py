"""Oracles for the whole Llama-style model of 48.9 (48-09-whole-model): the page's
`forward` against transformers' `LlamaForCausalLM` with the same weights copied in.

Conventions that differ, and what the test does about them:
- RoPE pairs. The page turns interleaved pairs (2j, 2j+1) (Meta's reference code);
  transformers turns halves (j, j + d/2). The same model is the page's weights with
  the rows of every q_proj and k_proj head permuted by (0, 2, ..., 1, 3, ...), the
  permutation transformers' conversion script applies to Meta's checkpoints. Copied
  verbatim, the logits differ by order one (tested): the page names its tensors as
  the Hugging Face checkpoint does, but a Hugging Face checkpoint loaded into its
  `forward` would need the inverse permutation first.
- Precision. `LlamaRMSNorm` normalises in float32 and `LlamaRotaryEmbedding` builds
  its angles in float32, whatever the model dtype. As shipped, the float64 logits
  agree to float32 accuracy (1e-5 on logits below 5). With those two steps
  replaced by their float64 forms (same formulas, `torch.float64` kept), 1e-12.
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import agree, gap, page

torch = pytest.importorskip("torch", reason="oracle tests: requirements-oracle.txt")
transformers = pytest.importorskip(
    "transformers", reason="oracle tests: requirements-oracle.txt"
)
from transformers.models.llama import modeling_llama  # noqa: E402

TOL = 1e-12


def _ns():
    return page("48-09-whole-model", ("TINY",))


def _config(cfg, **kw):
    return transformers.LlamaConfig(
        vocab_size=cfg["vocab"],
        hidden_size=cfg["d"],
        intermediate_size=cfg["d_ff"],
        num_hidden_layers=cfg["layers"],
        num_attention_heads=cfg["heads"],
        num_key_value_heads=cfg["kv_heads"],
        head_dim=cfg["head_dim"],
        rope_theta=cfg.get("rope_base", 500_000.0),
        rms_norm_eps=1e-5,
        hidden_act="silu",
        attention_bias=False,
        mlp_bias=False,
        tie_word_embeddings=cfg["tied"],
        **kw,
    )


def _weights(cfg, seed):
    """Random weights in the page's layout; norm weights near 1, not all ones, so a
    misplaced norm weight shows."""
    rng = np.random.default_rng(seed)
    return {
        name: (1 + 0.1 * rng.standard_normal(s))
        if len(s) == 1
        else rng.standard_normal(s) / np.sqrt(s[-1])
        for name, s in _ns().param_shapes(cfg).items()
    }


def _to_half_split(w, hd):
    """Rows of a [heads * hd, d] projection, each head's rows reordered so that the
    interleaved pair (2j, 2j+1) becomes (j, j + hd/2)."""
    P = np.concatenate([np.arange(0, hd, 2), np.arange(1, hd, 2)])
    return w.reshape(-1, hd, w.shape[-1])[:, P].reshape(w.shape)


def _hf_model(cfg, W, permute=True, attn="sdpa"):
    config = _config(cfg, max_position_embeddings=64)
    config._attn_implementation = attn
    model = transformers.LlamaForCausalLM(config).double().eval()
    state = model.state_dict()
    with torch.no_grad():
        for name, value in W.items():
            if permute and name.endswith(("q_proj.weight", "k_proj.weight")):
                value = _to_half_split(value, cfg["head_dim"])
            assert state[name].shape == value.shape, name
            state[name].copy_(torch.from_numpy(value))
    # every tensor of the reference came from the page (a tied lm_head is the table)
    assert set(state) - set(W) == ({"lm_head.weight"} if cfg["tied"] else set())
    return model


def _logits(model, ids):
    with torch.no_grad():
        return model(torch.from_numpy(ids)).logits.numpy()


def _float64_rms(self, h):
    """LlamaRMSNorm.forward without its float32 cast."""
    var = h.pow(2).mean(-1, keepdim=True)
    return self.weight * (h * torch.rsqrt(var + self.variance_epsilon))


def _float64_rotary(self, x, position_ids):
    """LlamaRotaryEmbedding.forward with float64 angles."""
    d = self.config.head_dim
    base = self.config.rope_parameters["rope_theta"]
    inv = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    freqs = position_ids[..., None].double() * inv
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


@pytest.fixture(scope="module")
def tiny():
    ns = _ns()
    cfg = ns.TINY
    W = _weights(cfg, seed=48)
    ids = np.random.default_rng(9).integers(0, cfg["vocab"], size=(2, 7))
    return ns, cfg, W, ids, ns.forward(ids, W, cfg)


@pytest.mark.parametrize("attn", ["sdpa", "eager"])
def test_whole_model_logits_match_llama_for_causal_lm(tiny, attn):
    """48.9 `forward` on the page's TINY config (vocab 1000, d 64, 3 layers, 8 heads,
    2 key-value heads of 8, d_ff 224, RoPE base 500,000, untied), two sequences of
    seven tokens, against `LlamaForCausalLM` in float64 as shipped, with SDPA and with
    eager attention: agreement to float32 accuracy (RMSNorm and rotary angles are
    float32 inside the reference, and so is eager attention's softmax). Seven norms
    and three layers of float32 angles, each off by a few 2**-24 relative, on logits
    below 5 in size: about 1e-6 expected (1.0e-6 measured); the tolerance, 1e-5,
    leaves ten times that."""
    _, cfg, W, ids, mine = tiny
    ref = _logits(_hf_model(cfg, W, attn=attn), ids)
    agree(f"48.9 forward vs LlamaForCausalLM as shipped, {attn}", gap(mine, ref), 1e-5)


def test_whole_model_agrees_to_float64_when_the_float32_steps_are_float64(
    tiny, monkeypatch
):
    """As above, with `LlamaRMSNorm.forward` and `LlamaRotaryEmbedding.forward`
    replaced by the same formulas kept in float64, and SDPA attention (eager's softmax
    is float32): 1e-12. Everything else (embedding,
    q/k/v/o projections, grouped-query repeat, causal mask, softmax, SwiGLU, residuals,
    final norm, lm_head) is the reference's own code."""
    monkeypatch.setattr(modeling_llama.LlamaRMSNorm, "forward", _float64_rms)
    monkeypatch.setattr(modeling_llama.LlamaRotaryEmbedding, "forward", _float64_rotary)
    _, cfg, W, ids, mine = tiny
    ref = _logits(_hf_model(cfg, W), ids)
    agree(
        "48.9 forward vs LlamaForCausalLM, float64 norms and angles",
        gap(mine, ref),
        TOL,
    )


def test_without_the_permutation_the_rope_conventions_disagree(tiny, monkeypatch):
    """The page's weights copied into `LlamaForCausalLM` verbatim: the interleaved and
    half-split rotations are different maps, and the logits differ by order one."""
    monkeypatch.setattr(modeling_llama.LlamaRMSNorm, "forward", _float64_rms)
    _, cfg, W, ids, mine = tiny
    assert gap(mine, _logits(_hf_model(cfg, W, permute=False), ids)) > 1e-2


def test_tied_variant_matches(monkeypatch):
    """48.9 with `tied=True` (the lm_head is the embedding table, weight tying):
    `LlamaForCausalLM(tie_word_embeddings=True)`, float64 steps as above, 1e-12."""
    monkeypatch.setattr(modeling_llama.LlamaRMSNorm, "forward", _float64_rms)
    monkeypatch.setattr(modeling_llama.LlamaRotaryEmbedding, "forward", _float64_rotary)
    ns = _ns()
    cfg = dict(ns.TINY, layers=2, tied=True)
    W = _weights(cfg, seed=49)
    ids = np.random.default_rng(10).integers(0, cfg["vocab"], size=(1, 5))
    model = _hf_model(cfg, W)
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    agree(
        "48.9 forward tied vs LlamaForCausalLM tied",
        gap(ns.forward(ids, W, cfg), _logits(model, ids)),
        TOL,
    )


def test_kv_cache_bytes_per_token_match_dynamic_cache():
    """48.13 (48-13-cost-of-attention, `kv_bytes_per_token(layers, kv_heads,
    head_dim, nbytes)`: 2 x layers x kv_heads x head_dim x bytes) against the
    `DynamicCache` a bfloat16 `LlamaForCausalLM` fills on a 7-token prompt: its key
    and value tensors' bytes over 7, for a grouped-query config (8 query heads, 2 KV
    heads) and the same with one KV head per query head. Exact."""
    kv_bytes = page("48-13-cost-of-attention").kv_bytes_per_token
    for kv in (2, 8):
        cfg = dict(
            _ns().TINY, vocab=50, d=32, layers=3, heads=8, kv_heads=kv, head_dim=4
        )
        model = transformers.LlamaForCausalLM(_config(cfg)).to(torch.bfloat16).eval()
        with torch.no_grad():
            cache = model(torch.arange(7)[None], use_cache=True).past_key_values
        total = sum(
            t.numel() * t.element_size()
            for layer in cache.layers
            for t in (layer.keys, layer.values)
        )
        assert total / 7 == kv_bytes(3, kv, 4, nbytes=2)


def test_48_14_router_matches_mixtral_top_k_router():
    """48.14 (48-14-mixture-of-experts, `route(X, Wr, k)`: softmax over the experts,
    the top k, their gates renormalised to sum to one) against transformers'
    `MixtralTopKRouter` (its weight is Wr^T, [experts, d]) on the page's toy sizes:
    256 tokens of width 16, 8 experts, top-2. The router logits agree to 1e-12, the
    chosen experts and their order exactly; the gates to 1e-6, because the reference
    takes the softmax in float32 whatever the input dtype. (Its experts are SwiGLU
    networks and the page's are ReLU ones: only the router is compared.)"""
    from transformers.models.mixtral.modeling_mixtral import MixtralTopKRouter

    rng = np.random.default_rng(14)
    X = rng.standard_normal((256, 16))
    Wr = 0.5 * rng.standard_normal((16, 8))
    p, ids, gates = page("48-14-mixture-of-experts").route(X, Wr, 2)
    config = transformers.MixtralConfig(
        hidden_size=16, num_local_experts=8, num_experts_per_tok=2
    )
    router = MixtralTopKRouter(config).double()
    with torch.no_grad():
        router.weight.copy_(torch.from_numpy(Wr.T.copy()))
        logits, scores, chosen = router(torch.from_numpy(X))
    agree("48.14 router logits vs MixtralTopKRouter", gap(X @ Wr, logits.numpy()), TOL)
    assert (ids == chosen.numpy()).all()
    agree(
        "48.14 gates vs MixtralTopKRouter (float32 softmax)",
        gap(gates, scores.numpy()),
        1e-6,
    )
