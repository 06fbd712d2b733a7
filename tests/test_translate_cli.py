"""python -m transformer_core translate: --prefix (what-if decoding) and --sample, on the bundled en→ko model; translate
and attribution refusing a run past one run's bounds (serving/cost.py) on a crafted model."""
import json
import subprocess
import time
from pathlib import Path

import pytest
import torch
from command_line import in_process

from transformer_core.model.config import ModelConfig
from transformer_core.serving import cost

ROOT = Path(__file__).resolve().parents[1]


def cli(command: str, folder: Path, *args: str, text: str | None = None) -> subprocess.CompletedProcess:
    return in_process([command, "--checkpoint", folder, *args], text=text)


def run(*args: str, text: str = "I like apples.\n") -> list[str]:
    done = cli("translate", ROOT / "checkpoints" / "enko", *args, "-", text=text)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_prefix_makes_every_translation_begin_with_it():
    assert run("--prefix", "나는 배를", text="I like apples.\nI like pears.\n\n") == \
        ["나는 배를 좋아한다.", "나는 배를 좋아한다.", ""]                     # the lecture's what-if: 좋아한다 follows


def test_sampling_is_the_same_for_a_seed_and_greedy_at_temperature_zero():
    options = ("--sample", "--temperature", "1.5", "--top-k", "50", "--top-p", "0.95")
    text = "My brother is reading a book.\n" * 2
    first = run(*options, "--seed", "7", text=text)
    assert first == run(*options, "--seed", "7", text=text)
    assert run("--sample", "--temperature", "0", text=text) == run("--beam", "1", text=text)


def test_bad_sampling_options_are_refused_with_a_message():
    done = cli("translate", ROOT / "checkpoints" / "enko", "--sample", "--top-p", "0", "-", text="x\n")
    assert done.returncode == 2 and "--top-p" in done.stderr


@pytest.fixture(scope="module")
def endless(tmp_path_factory, toy_spm) -> Path:
    """A crafted checkpoint that never ends a sentence (its </s> logit −100) with room for 4,000 positions: beam 4
    on a sentence of a few hundred pieces would decode for minutes (serving/cost.py: about 520 pieces fit in
    one run's 10 s)."""
    from transformer_core.checkpoints.folder import save_checkpoint
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import Transformer

    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=Tokenizer.load(toy_spm).vocab_size, d_model=128, n_heads=1, n_encoder_layers=1,
                      n_decoder_layers=4, d_ff=128, max_len=4000, logits_bias=True)
    model = Transformer(cfg).eval()
    with torch.no_grad():
        model.logits_bias[cfg.eos_id] = -100.0
    folder = tmp_path_factory.mktemp("crafted") / "endless"
    save_checkpoint(folder, model, toy_spm)
    return folder


def test_a_line_past_one_runs_bounds_is_refused_before_it_decodes_and_the_others_still_are(endless):
    """#41: the command line counts a run's cost as the pages do. The long line is refused at once with the
    server's message (how many pieces fit); the short one around it still decodes; the output keeps a line
    for each input line."""
    long = " ".join(["the"] * 700)
    start = time.perf_counter()
    done = cli("translate", endless, "--beam", "4", "-", text=f"the\n{long}\nthe cat\n")
    seconds = time.perf_counter() - start
    assert done.returncode == 1, done.stderr
    out = done.stdout.split("\n")[:3]
    assert out[0] and out[1] == "" and out[2], out                   # the endless model fills T with pieces
    assert "error: line 2:" in done.stderr and "shorten the sentence to at most" in done.stderr, done.stderr
    assert "line 1" not in done.stderr and "line 3" not in done.stderr
    assert seconds < 60, seconds                                      # minutes had it decoded the long line


def test_attribution_past_one_runs_bounds_is_refused_with_the_pieces_that_fit(endless):
    """The attribution command: integrated gradients over the endless model's 2·S + 10 output rows is past the
    bounds for a sentence that decodes within them: refused with a message, exit status 1, nothing printed."""
    done = cli("attribution", endless, "--method", "integrated_gradients", " ".join(["the"] * 60))
    assert done.returncode == 1 and done.stdout == "", done.stdout[:200]
    assert done.stderr.startswith("error: this run would take about"), done.stderr
    short = cli("attribution", endless, "--method", "saliency", "the")
    assert short.returncode == 0, short.stderr
    explained = json.loads(short.stdout)
    rows = cost.output_len(ModelConfig.load(endless / "config.json"), len(explained["source"]))
    assert len(explained["scores"]) == rows                # it never stops: as many rows as decoding allows
