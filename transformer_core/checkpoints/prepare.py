"""A model prepared once for a school's server: a checkpoint folder copied, optionally quantized, with
prepared.json saying where it came from, its quantization and how fast it decoded where it was prepared.

    python -m transformer_core quantize checkpoints/ende models/ende-int8 --int8
    python -m transformer_core hub pull Helsinki-NLP/opus-mt-tc-big-en-ko --to models/enko-big --int8

The app lists every folder of its model folders (ATLAS_CHECKPOINTS_DIR) beside the bundled ones, under a
readable name made of the languages and prepared.json's "family" ("English → Korean (OPUS-MT big, int8)").
Nothing here downloads: `hub pull` fetches while online, then calls prepare().
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import torch
from safetensors.torch import save_file

from ..model.config import base_language
from ..model.decoding import greedy_decode
from ..model.quantize import SCHEMES, quantize_model, scheme_of, slower_than_float
from ..model.tokenizer import wrap_source
from . import marian
from .files import CARD, CONFIG, FILES, PREPARED, WEIGHTS, Checkpoint, CheckpointError
from .load import load_checkpoint
from .quantized import read_prepared

COPIED = tuple(dict.fromkeys((*FILES, *marian.FILES, marian.README, CARD, CONFIG)))  # every known file, once
TIMING_SENTENCES = {"en": "I like apples, and my brother likes bananas.", "ko": "나는 사과를 좋아하고, 남동생은 바나나를 좋아한다.",
                    "de": "Ich mag Äpfel, und mein Bruder mag Bananen."}
TIMING_TOKENS, TIMING_RUNS = 20, 5


def family(source: str) -> str:
    """A readable family name from a repo id or folder name: Helsinki-NLP/opus-mt-tc-big-en-ko -> "OPUS-MT big",
    Helsinki-NLP/opus-mt-ko-en -> "OPUS-MT"; anything else: its last part."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    match = re.match(r"opus-mt-(tc-)?(big-)?", name)
    return ("OPUS-MT big" if match.group(2) else "OPUS-MT") if match else name


def greedy_ms(ckpt: Checkpoint) -> float:
    """The median time of greedy decoding TIMING_TOKENS tokens of a short sentence, on one thread."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        text = TIMING_SENTENCES.get(base_language(ckpt.config.src_lang), TIMING_SENTENCES["en"])
        room = ckpt.config.max_len - len(wrap_source(ckpt.tokenizer, []))
        src = wrap_source(ckpt.tokenizer, ckpt.tokenizer.encode(text)[:room])     # BOS (if any) + pieces + EOS
        times = []
        for _ in range(TIMING_RUNS + 1):                     # the first run warms up
            start = time.perf_counter()
            greedy_decode(ckpt.model, src, max_len=min(TIMING_TOKENS, ckpt.config.max_len - 1))
            times.append(1000 * (time.perf_counter() - start))
        return round(statistics.median(times[1:]), 1)
    finally:
        torch.set_num_threads(threads)


SLOWER_NOTE = ("note: this CPU has no AVX-512 BF16, so bf16 computes slower here than float32; --int8 is the fast "
               "scheme on such a CPU (docs/performance.md)")


def speed_note(scheme: str | None) -> None:
    """Tell, on stderr, when the prepared folder will compute slower than float32 on this CPU."""
    if slower_than_float(scheme):
        print(SLOWER_NOTE, file=sys.stderr)


def prepare(ckpt: Checkpoint, out: str | Path, quantization: str | None = None, source: str | None = None) -> Path:
    """Write ckpt's folder to out (a new or empty folder), its weights quantized when asked, and prepared.json.
    -> out.  ckpt's model is quantized in place (it is not used as a float model afterwards)."""
    out = Path(out)
    if out.resolve() == ckpt.path.resolve():
        raise CheckpointError("the prepared copy must go to another folder than the checkpoint's own")
    if out.exists() and any(out.iterdir()):
        raise CheckpointError(f"{out} is not empty: give a new folder")
    if quantization is not None and scheme_of(ckpt.model) is not None:
        raise CheckpointError(f"{ckpt.name} is quantized already ({scheme_of(ckpt.model)})")
    out.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        if name not in (WEIGHTS, PREPARED) and (ckpt.path / name).is_file():
            shutil.copyfile(ckpt.path / name, out / name)
    if quantization is None:
        shutil.copyfile(ckpt.path / WEIGHTS, out / WEIGHTS)
    else:
        quantize_model(ckpt.model, quantization)
        state = {k: v.detach().contiguous() for k, v in ckpt.model.state_dict().items()}
        save_file(state, str(out / WEIGHTS), metadata={"format": "pt", "quantization": quantization})
    previous = read_prepared(ckpt.path)               # a prepared folder quantized again keeps its origin
    source = source or previous.get("source") or ckpt.name
    info = {"family": previous.get("family") or family(source), "source": source,
            "quantization": quantization or scheme_of(ckpt.model), "greedy_ms": greedy_ms(ckpt),
            "greedy_tokens": TIMING_TOKENS, "measured": date.today().isoformat()}
    (out / PREPARED).write_text(json.dumps({k: v for k, v in info.items() if v is not None}, ensure_ascii=False,
                                           indent=2) + "\n", encoding="utf-8")
    for path in out.iterdir():
        path.chmod(0o644)               # an unprivileged server (Docker) must read them
    load_checkpoint(out)                # what was written loads
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core quantize",
                                     description="Write a quantized copy of a checkpoint folder (this project's or "
                                                 "Hugging Face Marian), which every command and the app load as any other.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("out", type=Path, help="a new folder, e.g. models/ende-int8")
    kind = parser.add_mutually_exclusive_group(required=True)
    for scheme in SCHEMES:
        kind.add_argument(f"--{scheme}", dest="quantization", action="store_const", const=scheme,
                          help=f"store the matrices as {scheme}")
    args = parser.parse_args(argv)
    try:
        ckpt = load_checkpoint(args.folder)
        float_mb = sum(p.stat().st_size for p in args.folder.iterdir() if p.is_file()) / 2**20
        out = prepare(ckpt, args.out, args.quantization)
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    info = json.loads((out / PREPARED).read_text(encoding="utf-8"))
    size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
    print(f"wrote {out}: {args.quantization}, {size:.1f} MB (was {float_mb:.1f} MB); greedy decoding of "
          f"{info['greedy_tokens']} tokens: {info['greedy_ms']} ms on one thread")
    speed_note(args.quantization)
    return 0


if __name__ == "__main__":
    sys.exit(main())
