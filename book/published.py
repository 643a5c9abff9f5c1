"""The register of published facts: every number the book takes from the outside world.

A published fact is an input, not a result: a model's configuration as released, a
parameter count as its paper prints it, a token count, GPU-hours, a benchmark score, a
release date. Each lives here once, as a `Fact` with its value, its primary source (the
paper with its table or section, or the released config.json) and the pages that print
it. A page imports the value, prints it and labels it "as published"; what the page
teaches (the counting, the ratios, the checks) stays on the page.
`tests/test_published.py` fails when a page types such a number instead.

The textbook chapter the book measures (`shared/seeds/`) is never the primary source:
its figures are claims the pages check.

    from book.published import fact, FACTS
    fact("bert.base")["params"]          # 110e6, BERT paper, section 3
    FACTS["bert.base"].source            # where it is printed
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Fact:
    """One published fact: its value, its primary source, the pages that print it."""

    value: Any
    source: str
    where: tuple[str, ...]


_FACTS: dict[str, Fact] = {}


def _register(name: str, value: Any, source: str, *where: str) -> Any:
    if name in _FACTS:
        raise ValueError(f"published: {name!r} is registered twice")
    if not source.strip():
        raise ValueError(f"published: {name!r} has no source")
    _FACTS[name] = Fact(value, source, tuple(where))
    return value


def fact(name: str) -> Any:
    """The value of one registered fact, by name."""
    try:
        return _FACTS[name].value
    except KeyError:
        raise KeyError(
            f"published: no fact {name!r}; there are {sorted(_FACTS)}"
        ) from None


def source(name: str) -> str:
    """The primary source of one registered fact."""
    fact(name)
    return _FACTS[name].source


# --------------------------------------------------------------------------------------
# The 2017 Transformer: "Attention Is All You Need" (Vaswani et al., 1706.03762 v5)
# --------------------------------------------------------------------------------------

_VASWANI = "Vaswani et al. 2017, 'Attention Is All You Need' (arXiv 1706.03762v5)"

# Table 3, rows "base" and "big": N, d_model, d_ff, h, P_drop, eps_ls, train steps,
# params.
TRANSFORMER_2017 = _register(
    "transformer.configs",
    {
        "base": dict(
            N=6, d=512, dff=2048, h=8, drop=0.1, ls=0.1, steps=100_000, params=65e6
        ),
        "big": dict(
            N=6, d=1024, dff=4096, h=16, drop=0.3, ls=0.1, steps=300_000, params=213e6
        ),
    },
    f"{_VASWANI}, Table 3, rows base and big",
    "48-06-multi-head",
    "48-09-whole-model",
    "48-10-the-paper",
)
_register(
    "transformer.vocab_en_de",
    37_000,
    f"{_VASWANI}, section 5.1: a shared source-target vocabulary of about 37000 tokens",
    "48-09-whole-model",
    "48-10-the-paper",
)
_register(
    "transformer.warmup_steps",
    4000,
    f"{_VASWANI}, section 5.3, equation 3: warmup_steps = 4000",
    "48-08-ffn-residual-norm",
    "48-10-the-paper",
)
_register(
    "transformer.decoding",
    dict(beam=4, length_penalty=0.6),
    f"{_VASWANI}, section 6.1: beam size 4, length penalty alpha = 0.6",
    "48-10-the-paper",
)
# Table 3, rows (A): development BLEU on newstest2013, EN-DE, at d_model 512, by h.
TRANSFORMER_TABLE3_A = _register(
    "transformer.table3_heads",
    {1: 24.9, 4: 25.5, 8: 25.8, 16: 25.8, 32: 25.4},
    f"{_VASWANI}, Table 3, rows (A) and base (h = 8), BLEU (dev)",
    "48-06-multi-head",
)
_register(
    "transformer.big_en_fr_arxiv_early",
    41.0,
    "Vaswani et al. 2017, arXiv 1706.03762v1-v4, abstract and Table 2: big EN-FR BLEU",
    "48-10-the-paper",
)

# Table 2: model, EN-DE BLEU, EN-FR BLEU, EN-DE training cost, EN-FR training cost
# (FLOPs); None where the paper reports nothing.
TRANSFORMER_TABLE2 = _register(
    "transformer.table2",
    (
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
    ),
    f"{_VASWANI}, Table 2",
    "48-10-the-paper",
    "48-99-summary",
)


def table2_row(model: str) -> dict:
    """One row of TRANSFORMER_TABLE2 by model name, as a dict."""
    for m, de, fr, cde, cfr in TRANSFORMER_TABLE2:
        if m == model:
            return {"bleu_de": de, "bleu_fr": fr, "cost_de": cde, "cost_fr": cfr}
    names = [r[0] for r in TRANSFORMER_TABLE2]
    raise KeyError(f"table2_row: no model {model!r} in Table 2; there are {names}")


_register(
    "voita.pruning",
    dict(pruned=38, heads=48, bleu_loss=0.15),
    "Voita et al. 2019, 'Analyzing Multi-Head Self-Attention: Specialized Heads Do the "
    "Heavy Lifting, the Rest Can Be Pruned' (ACL; arXiv 1905.09418), abstract: on "
    "English-Russian WMT, pruning 38 out of 48 encoder heads drops only 0.15 BLEU",
    "48-06-multi-head",
)

# --------------------------------------------------------------------------------------
# BERT, GPT-2, GPT-3, InstructGPT
# --------------------------------------------------------------------------------------

BERT = _register(
    "bert.configs",
    {
        "base": dict(layers=12, d=768, heads=12, params=110e6),
        "large": dict(layers=24, d=1024, heads=16, params=340e6),
    },
    "Devlin et al. 2019, 'BERT' (arXiv 1810.04805), section 3: BERT-base "
    "(L=12, H=768, A=12, 110M) and BERT-large (L=24, H=1024, A=16, 340M)",
    "48-06-multi-head",
    "48-11-three-architectures",
)
_register(
    "bert.vocab_positions",
    dict(vocab=30_522, positions=512),
    "bert-base-uncased config.json, vocab_size and max_position_embeddings "
    "(https://huggingface.co/google-bert/bert-base-uncased/blob/main/config.json)",
    "48-11-three-architectures",
)
_register(
    "t5.sizes",
    dict(smallest_M=60, largest_B=11),
    "Raffel et al. 2020, 'Exploring the Limits of Transfer Learning with a Unified "
    "Text-to-Text Transformer' (JMLR), section 3.7: models from about 60 million "
    "(Small) to about 11 billion parameters (11B)",
    "48-11-three-architectures",
)
_register(
    "minilm.l6",
    dict(layers=6, d=384, params=22e6),
    "sentence-transformers all-MiniLM-L6-v2 config.json (num_hidden_layers 6, "
    "hidden_size 384) and model card (22M parameters) "
    "(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2)",
    "48-11-three-architectures",
)

GPT2 = _register(
    "gpt2.configs",
    {
        "small": dict(
            layers=12, d=768, heads=12, vocab=50257, context=1024, params=117e6
        ),
        "XL": dict(
            layers=48, d=1600, heads=25, vocab=50257, context=1024, params=1542e6
        ),
    },
    "Radford et al. 2019, 'Language Models are Unsupervised Multitask Learners', "
    "Table 2 (parameters, layers, d_model) and section 2.3 (vocabulary 50,257, "
    "context 1024); heads from the released hparams.json (openai/gpt-2, models "
    "124M and 1558M: n_head 12 and 25)",
    "48-06-multi-head",
    "48-09-whole-model",
)
_register(
    "gpt2.largest_params_B",
    1.5,
    "Radford et al. 2019, abstract: 'GPT-2, is a 1.5B parameter Transformer'",
    "48-15-why-it-generalises",
)
GPT3 = _register(
    "gpt3.175b",
    dict(
        layers=96,
        d=12288,
        heads=96,
        d_head=128,
        context=2048,
        vocab=50257,
        params=175.0e9,
    ),
    "Brown et al. 2020, 'Language Models are Few-Shot Learners' (arXiv 2005.14165), "
    "Table 2.1, row GPT-3 175B; context n_ctx = 2048 tokens, section 2.1; the "
    "vocabulary is GPT-2's byte-level BPE, which section 2.1 says GPT-3 keeps",
    "48-06-multi-head",
    "48-09-whole-model",
)
_register(
    "gpt3.triviaqa",
    {"zero-shot": 64.3, "one-shot": 68.0, "few-shot": 71.2},
    "Brown et al. 2020, Table 3.3, GPT-3 175B on TriviaQA (accuracy, %)",
    "48-15-why-it-generalises",
)
_register(
    "instructgpt.sizes_B",
    dict(instructgpt=1.3, gpt3=175),
    "Ouyang et al. 2022, 'Training language models to follow instructions with "
    "human feedback', abstract: outputs of the 1.3B InstructGPT model are preferred "
    "to those of the 175B GPT-3",
    "48-15-why-it-generalises",
)

# --------------------------------------------------------------------------------------
# Llama 3.1
# --------------------------------------------------------------------------------------


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


LLAMA_3_1 = _register(
    "llama3.1.configs",
    {
        "8B": _llama_3_1(d=4096, layers=32, heads=32, d_ff=14336),
        "70B": _llama_3_1(d=8192, layers=80, heads=64, d_ff=28672),
        "405B": _llama_3_1(d=16384, layers=126, heads=128, d_ff=53248),
    },
    "Grattafiori et al. 2024, 'The Llama 3 Herd of Models' (arXiv 2407.21783), "
    "Table 3 (layers, model dimension, FFN dimension, heads, key/value heads, "
    "vocabulary 128,000 in words, RoPE theta 500,000); exact vocabulary 128,256 and "
    "untied embeddings from the released config.json "
    "(https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)",
    "48-06-multi-head",
    "48-08-ffn-residual-norm",
    "48-09-whole-model",
    "48-13-cost-of-attention",
    "48-99-summary",
)
_register(
    "llama3.1.context",
    131_072,
    "Llama-3.1 config.json, max_position_embeddings "
    "(https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)",
    "48-09-whole-model",
)
_register(
    "llama3.1.params",
    {"8B": 8.0e9, "70B": 70.6e9, "405B": 405e9},
    "mixed, as 48.9 sets them beside its counts: 8.0B and 405B are the sizes the "
    "Llama 3 paper names (Grattafiori et al. 2024, Table 3); 70.6B is the parameter "
    "count the Hugging Face model card header reads from the released safetensors "
    "(https://huggingface.co/meta-llama/Llama-3.1-70B)",
    "48-09-whole-model",
)
_register(
    "llama3.1.8b.checkpoint_params",
    8_030_261_248,
    "the released Llama-3.1-8B checkpoint, the model.safetensors.index.json beside its "
    "config.json: metadata total_size 16,060,522,496 bytes of bfloat16 weights, two "
    "bytes each; the model card header rounds it to 8.03B params "
    "(https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/model.safetensors.index.json)",
    "48-06-multi-head",
    "48-12-generation",
    "48-13-cost-of-attention",
)
_register(
    "llama3.1.ffn_rule",
    dict(ffn_dim_multiplier=1.3, multiple_of=1024, norm_eps=1e-5),
    "Meta-Llama-3.1-8B params.json, ffn_dim_multiplier, multiple_of and norm_eps "
    "(https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/original/params.json)",
    "48-08-ffn-residual-norm",
)
_register(
    "llama3.405b.warmup_steps",
    8000,
    "Grattafiori et al. 2024, section 3.4.1: a linear warm up of 8,000 steps",
    "48-99-summary",
)
_register(
    "vocab.sizes",
    {"Mixtral 8x7B": 32_000, "Llama 3": 128_256},
    "config.json vocab_size of mistralai/Mixtral-8x7B-v0.1 and of "
    "meta-llama/Meta-Llama-3-8B (https://huggingface.co/...)",
    "48-98-wrong-ideas",
)

# --------------------------------------------------------------------------------------
# Mixtures of experts
# --------------------------------------------------------------------------------------

# name, date (year + month/12), total B, active B, routed experts, top-k, bib key
MOE_MODELS = _register(
    "moe.models",
    (
        ("GLaM", 2021.92, 1162, 96.6, 64, 2, "du2022glam"),
        ("ST-MoE-32B", 2022.12, 269, 32, 64, 2, "zoph2022stmoe"),
        ("Mixtral 8x7B", 2023.92, 46.7, 12.9, 8, 2, "jiang2024mixtral"),
        ("DBRX", 2024.21, 132, 36, 16, 4, "databricks2024dbrx"),
        ("Mixtral 8x22B", 2024.29, 141, 39, 8, 2, "mistral2024mixtral8x22b"),
        ("DeepSeek-V2", 2024.37, 236, 21, 160, 6, "deepseekai2024v2"),
        ("DeepSeek-V3", 2024.96, 671, 37, 256, 8, "deepseekai2024v3"),
        ("Llama 4 Maverick", 2025.29, 400, 17, 128, 1, "meta2025llama4"),
        ("Qwen3-235B-A22B", 2025.33, 235, 22, 128, 8, "yang2025qwen3"),
        ("Kimi K2", 2025.54, 1040, 32, 384, 8, "kimiteam2025k2"),
        ("gpt-oss-120b", 2025.62, 116.8, 5.1, 128, 4, "openai2025gptoss"),
    ),
    "each row's paper or model card, named by its bibliography key (references.bib): "
    "the release month, the total and active parameters and the routing it states; "
    "Mixtral 8x7B: Jiang et al. 2024, section 2.1 (46.7B total, 12.9B active)",
    "48-14-mixture-of-experts",
)
_register(
    "mixtral.8x7b.config",
    dict(d=4096, d_ff=14_336, layers=32, vocab=32_000, experts=8, top_k=2, kv_heads=8)
    | dict(head_dim=128),
    "Mixtral-8x7B-v0.1 config.json: hidden_size, intermediate_size, "
    "num_hidden_layers, vocab_size, num_local_experts, num_experts_per_tok, "
    "num_key_value_heads (head_dim = hidden_size / num_attention_heads = 4096 / 32) "
    "(https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json); "
    "Jiang et al. 2024, Table 1",
    "48-14-mixture-of-experts",
)
_register(
    "moe.box_sizes",
    dict(
        shazeer_lstm_B=137,
        gshard_B=600,
        switch_total_T=1.6,
        glam_total_T=1.2,
        glam_active_B=96.6,
        switch_c_B=1571,
        t5_large_B=0.77,
    ),
    "Shazeer et al. 2017, 'Outrageously Large Neural Networks', abstract (137B "
    "parameters); Lepikhin et al. 2021, 'GShard', abstract (600 billion parameters); "
    "Fedus et al. 2022, 'Switch Transformers', abstract (up to a trillion "
    "parameters; Switch-C 1571B, Table 9) and T5-Large 770M (Raffel et al. 2020, "
    "section 3.7); Du et al. 2022, 'GLaM', Table 1 (1.2T total, 96.6B activated)",
    "48-14-mixture-of-experts",
)
_register(
    "deepseek_v3.training",
    dict(tokens_T=14.8, gpu_hours_M=2.788, total_B=671, active_B=37, layers=61)
    | dict(d=7168, top_k=8, kv_latent=512, rope_key=64),
    "DeepSeek-AI 2024, 'DeepSeek-V3 Technical Report' (arXiv 2412.19437), abstract "
    "and Table 1: 14.8T tokens, 2.788M H800 GPU hours, 671B total, 37B activated; "
    "shape from the released config.json: num_hidden_layers 61, hidden_size 7168, "
    "num_experts_per_tok 8, kv_lora_rank 512, qk_rope_head_dim 64 "
    "(https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json)",
    "48-14-mixture-of-experts",
    "48-13-cost-of-attention",
)

_register(
    "h800.bf16_dense_peak",
    989e12,
    "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: 989 teraFLOPS dense BF16 "
    "(1,979 with sparsity); the H800 keeps the H100 SXM's compute",
    "48-14-mixture-of-experts",
)

# When Hugging Face generate began to flag sampling-only settings given without
# do_sample=True (lesson 19).
_register(
    "transformers.sampling_flag_check",
    "August 2023",
    "huggingface/transformers pull request #25381, 'Generate: add config-level "
    "validation' (opened 2023-08-08, merged): GenerationConfig.validate() flags "
    "temperature, top_p and the other sampling-only settings when do_sample is False",
    "19-sampling",
)

# BERT's masked-language-model rule (48.5): the share of positions chosen, and what a
# chosen position becomes.
_register(
    "bert.masking",
    dict(select=0.15, split={"[MASK]": 0.8, "a random token": 0.1, "unchanged": 0.1}),
    "Devlin et al. 2019, 'BERT' (arXiv 1810.04805), section 3.1, Task #1: 15% of "
    "token positions chosen at random; of those, 80% replaced by [MASK], 10% by a "
    "random token, 10% left unchanged",
    "48-05-masking",
)

# Whether the query, key and value projections carry a bias, as released (48.3).
QKV_BIAS = _register(
    "qkv_bias",
    {
        "GPT-2": True,
        "Llama 3.1": False,
        "Mistral 7B": False,
        "Qwen": True,
        "Qwen2": True,
        "Qwen2.5": True,
        "Qwen3": False,
    },
    "GPT-2: the released checkpoint's c_attn.bias. Llama 3.1: released config.json, "
    '"attention_bias": false. Mistral 7B: the released reference code builds wq, wk, '
    "wv with bias=False. Qwen: 'we add biases in the QKV layer of attention' (Qwen "
    "Technical Report, arXiv 2309.16609, section 2.2); Qwen2 and Qwen2.5 keep them "
    "(Qwen2.5 Technical Report, arXiv 2412.15115, section 2; Hugging Face "
    "modeling_qwen2.py, q_proj/k_proj/v_proj bias=True). Qwen3 removes them and adds "
    "QK-Norm (Qwen3 Technical Report, arXiv 2505.09388, section 2; released "
    'config.json, "attention_bias": false)',
    "48-03-query-key-value",
)

# FlashAttention's end-to-end training speed-ups: the factor, the model and sequence
# length, and what it is measured against (48.13).
FLASHATTENTION_SPEEDUPS = _register(
    "flashattention.speedups",
    (
        (1.15, "BERT-large, 512 tokens", "the MLPerf 1.1 training record"),
        (3.0, "GPT-2, 1K tokens", "the Hugging Face implementation"),
        (2.4, "long-range arena, 1K-4K tokens", "standard attention"),
    ),
    "Dao et al. 2022, 'FlashAttention' (arXiv 2205.14135), abstract",
    "48-13-cost-of-attention",
)

FACTS = MappingProxyType(_FACTS)
