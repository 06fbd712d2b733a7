"""A Hugging Face Marian model of Helsinki-NLP/opus-mt-en-de's exact size, on the CPU: load time, memory,
greedy decoding of 20 tokens, beside the bundled checkpoints/ende timed in the same run.

    python benchmarks/bench_marian.py              # builds out/bench/opus-mt-en-de-random once, then times

No download: the model is a random MarianMTModel built with transformers (a test dependency) from
opus-mt-en-de's config (6 + 6 layers, d_model 512, 8 heads, FFN 2048, swish, 58,101 tokens), saved as
Marian saves it, with source.spm / target.spm trained on the classroom test set and vocab.json filled up
to the real vocabulary size.  </s> is made impossible in the decoder's logits bias, so that every greedy
run writes exactly --out-len tokens, as a translation of that length would.

  load      load_checkpoint(folder), median of --loads, each in a fresh process (no warm file cache of
            Python objects; the OS page cache stays warm, as on a server's second start)
  memory    the fresh process's resident memory (RSS) after loading, minus before
  greedy    greedy_decode of a 20-token source (BOS/EOS included) to --out-len tokens, 1 thread,
            interleaved with the bundled model on its own 20-token source
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _common import OUT, ROOT, environment, summary, time_interleaved, write_result

sys.path.insert(0, str(ROOT))

OPUS_EN_DE = dict(vocab_size=58101, decoder_vocab_size=58101, d_model=512, encoder_layers=6, decoder_layers=6,
                  encoder_attention_heads=8, decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                  activation_function="swish", max_position_embeddings=512, pad_token_id=58100, eos_token_id=0,
                  decoder_start_token_id=58100, scale_embedding=True, share_encoder_decoder_embeddings=True,
                  static_position_embeddings=True, normalize_embedding=False, num_beams=4, max_length=512)
SENTENCE = "Yesterday my little brother and his best friend ate three red apples in the big school garden."
LOAD_SNIPPET = """
import json, resource, sys, time
import torch
torch.set_num_threads(1)
from transformer_core.checkpoints import load_checkpoint
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) * 1024
before = rss(); t = time.perf_counter(); load_checkpoint(sys.argv[1]); dt = time.perf_counter() - t
print(json.dumps({'load_s': dt, 'rss_delta_mb': (rss() - before) / 2**20}))
"""


def build(folder) -> None:
    """The random opus-mt-en-de-sized Marian folder (once)."""
    import io

    import sentencepiece as spm
    import torch
    import transformers

    rows = [line.split("\t") for line in (ROOT / "tests/data/classroom.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    folder.mkdir(parents=True, exist_ok=True)
    pieces = ["</s>", "<unk>"]
    for name, column in (("source.spm", 0), ("target.spm", 2)):
        buf = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(r[column] for r in rows), model_writer=buf,
                                       vocab_size=1000, hard_vocab_limit=False, num_threads=1, minloglevel=2)
        (folder / name).write_bytes(buf.getvalue())
        sp = spm.SentencePieceProcessor(model_proto=buf.getvalue())
        pieces += [p for p in (sp.id_to_piece(i) for i in range(3, sp.vocab_size())) if p not in pieces]
    pieces += [f"<filler_{i}>" for i in range(OPUS_EN_DE["vocab_size"] - 1 - len(pieces))]
    vocab = {p: i for i, p in enumerate(pieces + ["<pad>"])}
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    torch.manual_seed(0)
    model = transformers.MarianMTModel(transformers.MarianConfig(**OPUS_EN_DE)).eval()
    with torch.no_grad():
        model.final_logits_bias[0, OPUS_EN_DE["eos_token_id"]] = -1e4      # never ends: a fixed output length
    model.save_pretrained(folder)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", default=str(OUT / "opus-mt-en-de-random"))
    parser.add_argument("--baseline", default=str(ROOT / "checkpoints" / "ende"))
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--out-len", type=int, default=20)
    args = parser.parse_args(argv)

    from pathlib import Path

    import torch

    from transformer_core.checkpoints.load import load_checkpoint
    from transformer_core.model.decoding import greedy_decode
    from transformer_core.explainer.translate import source_ids

    torch.set_num_threads(1)
    folder = Path(args.folder)
    if not (folder / "config.json").is_file():
        build(folder)
    size_mb = sum(p.stat().st_size for p in folder.iterdir()) / 2**20
    loads = {}
    for name, path in (("marian", folder), ("bundled", Path(args.baseline))):
        runs = [json.loads(subprocess.run([sys.executable, "-c", LOAD_SNIPPET, str(path)], cwd=ROOT, check=True,
                                          capture_output=True, text=True).stdout) for _ in range(args.loads)]
        loads[name] = {"load_s": summary([r["load_s"] for r in runs]),
                       "rss_delta_mb": summary([r["rss_delta_mb"] for r in runs])}

    models = {name: load_checkpoint(path) for name, path in (("marian", folder), ("bundled", Path(args.baseline)))}
    sources = {name: source_ids(ckpt.tokenizer, SENTENCE, 20)[0] for name, ckpt in models.items()}   # 20 tokens
    timed = time_interleaved({name: (lambda n=name: greedy_decode(models[n].model, sources[n], max_len=args.out_len))
                              for name in models}, args.repeats, warmup=2)
    lengths = {name: len(greedy_decode(models[name].model, sources[name], max_len=args.out_len).ids)
               for name in models}
    result = {"environment": environment(), "folder_mb": size_mb, "loads": loads,
              "parameters": {n: sum(p.numel() for p in m.model.parameters()) for n, m in models.items()},
              "greedy_ms": {n: summary([1000 * s for s in wall]) for n, (wall, _) in timed.items()},
              "source_tokens": {n: len(s) for n, s in sources.items()}, "output_tokens": lengths}
    path = write_result("marian", result)
    for name in models:
        print(f"{name}: {result['parameters'][name]:,} parameters; load {loads[name]['load_s']['median']:.2f} s "
              f"(+{loads[name]['rss_delta_mb']['median']:.0f} MB RSS); greedy {result['greedy_ms'][name]['median']:.1f} ms "
              f"median, p90 {result['greedy_ms'][name]['p90']:.1f} ({lengths[name]} output tokens, {len(sources[name])} source)")
    print(f"folder {size_mb:.0f} MB; wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
