"""The run-cost model (transformer_core/serving/cost.py) against the crafted models of the run-cost review:
each is built in a fresh process under RLIMIT_AS (tests/security_probe.py), its heaviest run that the cost
model accepts runs there, and the first length past it is refused before anything is computed.

    deep     12 + 12 layers, d_model 512, 16 heads, d_ff 2048, max_len 40: integrated gradients of a 38-piece
             sentence took 66–74 s and +1.8 GB before; now the plan falls back to what fits
    endless  d_model 944, 1 head, 1 + 12 layers, d_ff 1, an EOS logit of −100 so that it never stops: beam 4
             on the longest accepted sentence took 119–149 s and +620–760 MB before
    wide     d_model 128, 16 heads, 12 + 1 layers, max_len 340: its attention record on long sentences
"""
import json

import pytest

from security_probe import run_probe
from transformer_core.serving import cost

CRAFTED = {
    "deep": dict(d_model=512, n_heads=16, n_encoder_layers=12, n_decoder_layers=12, d_ff=2048, max_len=40),
    "endless": dict(d_model=944, n_heads=1, n_encoder_layers=1, n_decoder_layers=12, d_ff=1, max_len=300,
                    logits_bias=True),
    "wide": dict(d_model=128, n_heads=16, n_encoder_layers=12, n_decoder_layers=1, d_ff=512, max_len=340),
}
KIND = {"deep": "attribution", "endless": "translation", "wide": "translation"}
SLACK_S, SLACK_MB = 3.0, 150      # the probe's wall clock on a shared 2-core machine; allocator and Python overhead

PROBE = """
import time
from transformer_core.model.config import ModelConfig
from transformer_core.model.transformer import Transformer
from transformer_core.serving import cost, runs
ckpt = load_checkpoint({folder!r})
cfg = ModelConfig(**{{**{spec!r}, "vocab_size": ckpt.config.vocab_size}})
torch.manual_seed(0)
ckpt.model, ckpt.config = Transformer(cfg).eval(), cfg
if cfg.logits_bias:
    with torch.no_grad():
        ckpt.model.logits_bias[cfg.eos_id] = -100.0      # never ends
import gc; gc.collect()
result["model_mb"] = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS")) / 1024
word, per = "the", len(ckpt.tokenizer.encode("the"))      # pieces a word
pieces = (cfg.max_len - 2) if {kind!r} == "attribution" else cost.fitting_length(cfg, "translation", beam=4) - 2
words = pieces // per
assert words > 0
text = " ".join([word] * words)
start = time.perf_counter()
if {kind!r} == "attribution":
    src = runs.checked_source(ckpt, text, "greedy_steps")
    out = [5] * (len(src) - 2)
    plan = cost.attribution_plan(cfg, len(src), len(out), "integrated_gradients")
    result["plan"] = plan
    try:
        cost.check(cfg, "attribution", len(src), steps=32, out_len=len(out))
        result["full_refused"] = False
    except cost.RunTooLarge:
        result["full_refused"] = True
    runs.attribution_run(ckpt, tuple(src), tuple(out), *plan)
    result["estimate"] = cost.estimate(cfg, "attribution", len(src), steps=plan[1], out_len=len(out)).__dict__
else:
    run = runs.translation(ckpt, text, 4, ())
    result["estimate"] = cost.estimate(cfg, "translation", len(run["src_ids"]), 4).__dict__
    result["out"] = len(run["out_ids"])
result["seconds"] = time.perf_counter() - start
if (words + 1) * per + 2 > cfg.max_len:
    result["longer"] = "cut"                # max_len cuts any longer sentence to this one
else:
    try:
        runs.translation(ckpt, " ".join([word] * (words + 1)), 4, ())
        result["longer"] = "ran"
    except cost.RunTooLarge as err:
        result["longer"] = "refused"
"""


@pytest.mark.parametrize("name", list(CRAFTED))
def test_the_heaviest_accepted_run_of_a_crafted_model_stays_within_its_bounds(name, toy_checkpoints):
    probe = run_probe(PROBE.format(folder=str(toy_checkpoints / "toy-en"), spec=CRAFTED[name], kind=KIND[name]),
                      limit_mb=4000, timeout=300)
    result = probe.result
    assert "error" not in result, probe.output[-3000:]
    assert result["seconds"] <= cost.MAX_SECONDS + SLACK_S, result
    held_mb = result["peak_mb"] - result["model_mb"]
    assert held_mb <= cost.MAX_BYTES / cost.MB + SLACK_MB, result
    assert result["seconds"] <= result["estimate"]["seconds"] + SLACK_S     # the estimate errs on the high side
    assert result["longer"] == ("refused" if name == "endless" else "cut")   # the others fit up to their max_len
    if KIND[name] == "attribution":
        assert result["full_refused"] and result["plan"] != ["integrated_gradients", 32], result
    print(json.dumps({name: {k: result[k] for k in ("seconds", "peak_mb", "model_mb", "estimate")}}))


def test_a_grid_past_what_a_browser_draws_shows_a_window_around_the_focused_head():
    from pages.ui.figures import grid_window

    assert grid_window(3, 4, 20 * 20, (1, 2)) == (range(3), range(4))                 # the bundled models: all
    layers, heads = grid_window(12, 16, 40 * 40, (11, 3))                              # the review's wide model
    assert layers == range(7, 12) and heads == range(16)                               # 5 whole layers fit
    assert grid_window(12, 16, 40 * 40, (0, 3))[0] == range(0, 5)
    layers, heads = grid_window(12, 16, 340 * 340, (5, 15))                            # one layer is too many
    assert layers == range(5, 6) and 15 in heads and len(heads) * 340 * 340 <= cost.FIGURE_CELLS
