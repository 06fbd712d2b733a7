"""The three OPUS-MT configurations the app is prepared for, at full size, on the CPU, in float32, int8 and bf16:
load time, memory, greedy and beam-4 decoding of 20 tokens, beside the bundled checkpoints/ende timed in the
same run.

    python benchmarks/bench_marian.py              # builds out/bench/<name>-random{,-int8,-bf16} once, then times
    python benchmarks/bench_marian.py --smoke      # tiny sizes, one repeat: checks that the script runs

--smoke builds tiny models (d_model 64, 1+1 layers, 2,000 tokens) of the three configurations afresh in a
temporary folder on every run (a folder kept from an earlier run would hide a build that no longer works),
loads each once (all in one process), times one greedy and one beam-4 run of each beside the bundled model,
and writes out/bench/marian-smoke.json (never out/bench/marian.json).

No download: each model is a random MarianMTModel built with transformers (a test dependency) from the
configuration of opus-mt-en-de (base, 58,101 tokens), opus-mt-tc-big-en-ko (big: d_model 1024, 16 heads,
d_ff 4096, 32,001 tokens) or opus-mt-ko-en (base, 65,001 tokens) (tests/marian_tiny.py: OPUS), saved as
Marian saves it, with source.spm / target.spm trained on the classroom test set and vocab.json filled up to
the real vocabulary size; then quantized with `python -m transformer_core quantize` (prepare.py).  </s> is
made impossible in the logits bias, so that every run writes exactly --out-len tokens.

  load      load_checkpoint(folder), median of --loads, each in a fresh process (the OS page cache stays warm,
            as on a server's second start)
  memory    that process's resident memory (RSS) after loading, minus before, and after one translation (beam 4):
            safetensors maps the weights file, so its pages count only once they are read
  greedy    greedy_decode of a 20-token source to --out-len tokens, 1 thread, interleaved with the bundled model
  beam      beam_search with 4 beams, the same source and length
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import OUT, ROOT, environment, result_name, summary, time_interleaved, write_result

sys.path.insert(0, str(ROOT / "tests"))

SENTENCE = {"en": "Yesterday my little brother and his best friend ate three red apples in the big school garden.",
            "ko": "어제 내 남동생과 그의 가장 친한 친구는 큰 학교 정원에서 빨간 사과 세 개를 먹었다."}
SMOKE = dict(vocab_size=2000, d_model=64, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
             decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128)
LOAD_SNIPPET = """
import json, sys, time
import torch
torch.set_num_threads(1)
from transformer_core.checkpoints.load import load_checkpoint
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) * 1024
from transformer_core.explainer.translate import translate
for folder in sys.argv[1:]:                       # one line of JSON each
    before = rss(); t = time.perf_counter(); ckpt = load_checkpoint(folder); dt = time.perf_counter() - t
    loaded = rss()
    translate(ckpt, "I like apples.", beam=4)    # every weight read once: the file's pages now resident too
    print(json.dumps({'load_s': dt, 'rss_delta_mb': (loaded - before) / 2**20, 'rss_mb': loaded / 2**20,
                      'rss_used_mb': rss() / 2**20, 'rss_used_delta_mb': (rss() - before) / 2**20}))
    del ckpt
"""


def measure_loads(folders: dict[str, Path], repeats: int, one_process: bool) -> dict[str, list[dict]]:
    """label -> LOAD_SNIPPET's measurements of each load: `repeats` fresh processes a folder, or (--smoke, which
    checks the script and not a load's cost) one process loading every folder once, a second of torch's import
    instead of ten."""
    def snippet(*paths: Path) -> list[dict]:
        out = subprocess.run([sys.executable, "-c", LOAD_SNIPPET, *map(str, paths)], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.splitlines()]

    if one_process:
        return {label: [run] for label, run in zip(folders, snippet(*folders.values()), strict=True)}
    return {label: [snippet(path)[0] for _ in range(repeats)] for label, path in folders.items()}


def build(folder: Path, name: str, smoke: bool) -> None:
    """The random full-size Marian folder of an OPUS configuration (once)."""
    import io

    import sentencepiece as spm
    import torch
    import transformers

    from marian_tiny import OPUS, OPUS_LANGUAGES, marian_config

    spec = {**OPUS[name], **(SMOKE if smoke else {})}
    rows = [line.split("\t") for line in (ROOT / "tests/data/classroom.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    src_lang, _ = OPUS_LANGUAGES[name]
    folder.mkdir(parents=True, exist_ok=True)
    pieces = []
    for file, column in (("source.spm", 1 if src_lang == "ko" else 0), ("target.spm", 0 if src_lang == "ko" else 2)):
        buf = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(r[column] for r in rows), model_writer=buf,
                                       vocab_size=1000, hard_vocab_limit=False, num_threads=1, minloglevel=2)
        (folder / file).write_bytes(buf.getvalue())
        sp = spm.SentencePieceProcessor(model_proto=buf.getvalue())
        pieces += [p for p in (sp.id_to_piece(i) for i in range(3, sp.vocab_size())) if p not in pieces]
    eos = spec["eos_token_id"]
    pieces = pieces[:spec["vocab_size"] - 3]
    pieces += [f"<filler_{i}>" for i in range(spec["vocab_size"] - 3 - len(pieces))]
    pieces.insert(1 if eos != 1 else 0, "<unk>")
    pieces.insert(eos, "</s>")
    vocab = {p: i for i, p in enumerate(pieces + ["<pad>"])}
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (folder / "tokenizer_config.json").write_text(json.dumps(dict(zip(("source_lang", "target_lang"),
                                                                      OPUS_LANGUAGES[name], strict=True))), encoding="utf-8")
    torch.manual_seed(0)
    changes = {**SMOKE, "pad_token_id": SMOKE["vocab_size"] - 1} if smoke else {}
    model = transformers.MarianMTModel(marian_config(name, **changes)).eval()
    with torch.no_grad():
        model.final_logits_bias[0, eos] = -1e4      # never ends: a fixed output length
    model.save_pretrained(folder)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=["opus-mt-en-de", "opus-mt-tc-big-en-ko", "opus-mt-ko-en"])
    parser.add_argument("--schemes", nargs="+", default=["float32", "int8", "bf16"])
    parser.add_argument("--baseline", default=str(ROOT / "checkpoints" / "ende"))
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--out-len", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="tiny models, one load and one repeat")
    parser.add_argument("--out", default=None, help="the result's JSON (default out/bench/marian.json)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.loads, args.repeats = 1, 1
        with tempfile.TemporaryDirectory(prefix="bench-marian-smoke-") as work:
            return run(args, Path(work))
    return run(args, OUT)


def run(args, work: Path) -> int:
    """Build what is missing under work, then time it."""
    import torch

    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.checkpoints.prepare import prepare
    from transformer_core.explainer.translate import source_ids
    from transformer_core.model.decoding import beam_search, greedy_decode

    torch.set_num_threads(1)
    folders = {"bundled": Path(args.baseline)}
    for name in args.models:
        base = work / f"{name}-random{'-smoke' if args.smoke else ''}"
        if not (base / "config.json").is_file():
            build(base, name, args.smoke)
        for scheme in args.schemes:
            folder = base if scheme == "float32" else base.with_name(f"{base.name}-{scheme}")
            if not (folder / "config.json").is_file():
                prepare(load_checkpoint(base), folder, scheme)
            folders[f"{name} {scheme}"] = folder

    loads = {}
    for label, runs in measure_loads(folders, args.loads, one_process=args.smoke).items():
        loads[label] = {key: summary([r[key] for r in runs]) for key in runs[0]}
        print(f"loaded {label}: {loads[label]['load_s']['median']:.2f} s, +{loads[label]['rss_delta_mb']['median']:.0f} MB, "
              f"+{loads[label]['rss_used_delta_mb']['median']:.0f} MB after a translation", flush=True)

    models = {label: load_checkpoint(path) for label, path in folders.items()}
    sources = {label: source_ids(c.tokenizer, SENTENCE[c.config.src_lang[:2]], 20)[0] for label, c in models.items()}
    calls = {}
    for label, ckpt in models.items():
        calls[f"{label} greedy"] = lambda c=ckpt, s=sources[label]: greedy_decode(c.model, s, max_len=args.out_len)
        calls[f"{label} beam4"] = lambda c=ckpt, s=sources[label]: beam_search(c.model, s, beam=4, max_len=args.out_len)
    timed = time_interleaved(calls, args.repeats, warmup=1)
    ms = {label: summary([1000 * s for s in wall]) for label, (wall, _) in timed.items()}
    lengths = {label: len(greedy_decode(c.model, sources[label], max_len=args.out_len).ids) for label, c in models.items()}
    base_ms = ms["bundled greedy"]["median"]
    result = {"environment": environment(), "smoke": args.smoke, "loads": loads, "decode_ms": ms,
              "ratio_to_bundled_greedy": {label: v["median"] / base_ms for label, v in ms.items()},
              "parameters": {label: c.model.num_parameters() for label, c in models.items()},
              "folder_mb": {label: sum(p.stat().st_size for p in Path(folders[label]).iterdir()) / 2**20 for label in models},
              "source_tokens": {label: len(s) for label, s in sources.items()}, "output_tokens": lengths}
    path = write_result(result_name("marian", args.smoke), result, args.out)
    print(f"{'model':32} {'params':>12} {'MB':>7} {'load s':>7} {'+RSS MB':>8} {'greedy ms':>17} {'beam4 ms':>17}"
          "  (+RSS: after loading and one translation)")
    for label in models:
        greedy, beam = ms[f"{label} greedy"], ms[f"{label} beam4"]
        print(f"{label:32} {result['parameters'][label]:>12,} {result['folder_mb'][label]:>7.1f} "
              f"{loads[label]['load_s']['median']:>7.2f} {loads[label]['rss_used_delta_mb']['median']:>8.0f} "
              f"{greedy['median']:>8.1f} p90 {greedy['p90']:>5.1f} {beam['median']:>8.1f} p90 {beam['p90']:>5.1f}"
              f"  ({lengths[label]} tokens out, {len(sources[label])} in)")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
