"""Published figures the chapter's pages compute from, written once.

These are inputs, not results: model configurations as released, and the 2017 paper's
Table 2 as printed. A page that needs one imports it from here, so two pages cannot
quote two copies. What a page teaches (the counting, the ratios) stays on the page.
"""

from __future__ import annotations


# Llama 3.1 (Llama 3 paper, Table 3; the 8B values are those of
# the released config.json).
def _llama_3_1(d: int, layers: int, heads: int, d_ff: int) -> dict:
    """One size; every size shares the vocabulary, the eight key-value heads of 128
    dimensions, the RoPE base and untied embeddings."""
    return dict(
        vocab=128256,
        d=d,
        layers=layers,
        heads=heads,
        kv_heads=8,
        head_dim=128,
        d_ff=d_ff,
        rope_base=500_000.0,
        tied=False,
    )


LLAMA_3_1 = {
    "8B": _llama_3_1(d=4096, layers=32, heads=32, d_ff=14336),
    "70B": _llama_3_1(d=8192, layers=80, heads=64, d_ff=28672),
    "405B": _llama_3_1(d=16384, layers=126, heads=128, d_ff=53248),
}

# "Attention Is All You Need", Table 2: model, EN-DE BLEU, EN-FR BLEU, EN-DE training
# cost, EN-FR training cost (FLOPs); None where the paper reports nothing.
TRANSFORMER_TABLE2 = (
    ("ByteNet", 23.75, None, None, None),
    ("Deep-Att + PosUnk", None, 39.2, None, 1.0e20),
    ("GNMT + RL", 24.6, 39.92, 2.3e19, 1.4e20),
    ("ConvS2S", 25.16, 40.46, 9.6e18, 1.5e20),
    ("MoE", 26.03, 40.56, 2.0e19, 1.2e20),
    ("Deep-Att + PosUnk Ensemble", None, 40.4, None, 8.0e20),
    ("GNMT + RL Ensemble", 26.30, 41.16, 1.8e20, 1.1e21),
    ("ConvS2S Ensemble", 26.36, 41.29, 7.7e19, 1.2e21),
    ("Transformer (base)", 27.3, 38.1, 3.3e18, 3.3e18),
    ("Transformer (big)", 28.4, 41.8, 2.3e19, 2.3e19),
)


def table2_row(model: str) -> dict:
    """One row of TRANSFORMER_TABLE2 by model name, as a dict."""
    for m, de, fr, cde, cfr in TRANSFORMER_TABLE2:
        if m == model:
            return {"bleu_de": de, "bleu_fr": fr, "cost_de": cde, "cost_fr": cfr}
    names = [r[0] for r in TRANSFORMER_TABLE2]
    raise KeyError(f"table2_row: no model {model!r} in Table 2; there are {names}")


# Whether the query, key and value projections carry a bias, as released (added for
# 48.3). GPT-2: the released checkpoint's c_attn.bias. Llama 3.1: no biases anywhere
# (Llama 3 paper; released config.json, "attention_bias": false). Mistral 7B: the
# released reference code builds wq, wk, wv with bias=False. Qwen: "we add biases in
# the QKV layer of attention" (Qwen Technical Report, arXiv:2309.16609, section 2.2);
# Qwen2 and Qwen2.5 keep them (Qwen2.5 Technical Report, arXiv:2412.15115, section 2,
# "QKV bias"; Hugging Face modeling_qwen2.py, q_proj/k_proj/v_proj bias=True).
# Qwen3 removes them and adds QK-Norm (Qwen3 Technical Report, arXiv:2505.09388,
# section 2; released config.json, "attention_bias": false).
QKV_BIAS = {
    "GPT-2": True,
    "Llama 3.1": False,
    "Mistral 7B": False,
    "Qwen": True,
    "Qwen2": True,
    "Qwen2.5": True,
    "Qwen3": False,
}


# FlashAttention's end-to-end training speed-ups, as its abstract reports them (Dao et
# al. 2022, arXiv:2205.14135; added for 48.13): the speed-up factor, the model and
# sequence length, and what it is measured against.
FLASHATTENTION_SPEEDUPS = (
    (1.15, "BERT-large, 512 tokens", "the MLPerf 1.1 training record"),
    (3.0, "GPT-2, 1K tokens", "the Hugging Face implementation"),
    (2.4, "long-range arena, 1K-4K tokens", "standard attention"),
)
