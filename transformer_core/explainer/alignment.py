"""Attention against the truth: how well each encoder-decoder head aligns words, scored on gold word
alignments (Pharaoh "i-j" links, source word i to target word j, as the classroom corpus writes them).

A head's alignment: teacher-forced on the reference, each target word links to the source word its
cross-attention weighs most (pieces merged into words: mean over a word's query pieces, sum over its
key pieces; <s> and </s> left out).  The score is the alignment error rate of Och & Ney (2003),
AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|), here with every gold link sure (P = S), over the whole set.

    python -m transformer_core alignment --checkpoint DIR --data DIR [--split test] [--limit N] [--record] [--gold N]
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..model.tokenizer import Tokenizer, merge_to_words, word_ids
from ..model.transformer import Transformer
from .examples import lecture
from .explain import teacher_forced_attention

Links = set[tuple[int, int]]


def parse(text: str) -> Links:
    """'0-0 1-2' -> {(0, 0), (1, 2)}."""
    return {tuple(int(x) for x in link.split("-")) for link in text.split()}


def fmt(links: Links) -> str:
    return " ".join(f"{s}-{t}" for s, t in sorted(links))


@dataclass
class Counts:
    hits: int = 0          # |A ∩ S|
    predicted: int = 0     # |A|
    gold: int = 0          # |S|

    def add(self, predicted: Links, gold: Links) -> None:
        self.hits += len(predicted & gold)
        self.predicted += len(predicted)
        self.gold += len(gold)

    @property
    def aer(self) -> float:
        return 1.0 - 2.0 * self.hits / max(self.predicted + self.gold, 1)


def piece_words(tok: Tokenizer, src: str, tgt: str) -> tuple[list[int], list[int]] | None:
    """The word of each piece of tgt and of src, or None when the pieces do not make the sentence's
    whitespace words."""
    q_words, k_words = word_ids(tok.pieces(tok.encode(tgt))), word_ids(tok.pieces(tok.encode(src)))
    if not q_words or not k_words or q_words[-1] + 1 != len(tgt.split()) or k_words[-1] + 1 != len(src.split()):
        return None
    return q_words, k_words


def to_words(matrix, tok: Tokenizer, src: str, tgt: str) -> np.ndarray | None:
    """A teacher-forced (..., T_out + 1, S + 2) matrix on pieces (rows: the step producing each piece of tgt,
    then </s>; columns: <s>, the pieces of src, </s>) -> (..., W_tgt, W_src) over words (mean over a word's
    rows, sum over its columns; </s> and the ends left out), or None as piece_words."""
    words = piece_words(tok, src, tgt)
    if words is None:
        return None
    q_words, k_words = words
    inner = torch.as_tensor(np.asarray(matrix, dtype=np.float32))[..., :len(q_words), 1:len(k_words) + 1]
    return merge_to_words(inner, q_words, k_words).numpy()


def teacher_forced_ids(tok: Tokenizer, src: str, tgt: str, max_len: int) -> tuple[list[int], list[int]] | None:
    """(<s> + src's pieces + </s>, tgt's pieces) of a sentence pair, or None when tgt is empty or either
    side does not fit max_len."""
    src_ids, out_ids = [tok.bos_id, *tok.encode(src), tok.eos_id], tok.encode(tgt)
    if max(len(src_ids), len(out_ids) + 1) > max_len or not out_ids:
        return None
    return src_ids, out_ids


def word_cross_attention(model: Transformer, tok: Tokenizer, src: str, tgt: str) -> np.ndarray | None:
    """Cross-attention over words, teacher-forced on tgt: (L, h, W_tgt, W_src), or None when the pieces do
    not make the sentence's whitespace words or do not fit the model's max_len."""
    ids = teacher_forced_ids(tok, src, tgt, model.cfg.max_len)
    if ids is None:
        return None
    src_ids, out_ids = ids
    return to_words(teacher_forced_attention(model, src_ids, out_ids)["cross"], tok, src, tgt)  # (L, h, T+1, S+2)


def aer(attention: np.ndarray, gold: Links) -> float:
    """AER of one sentence's (W_tgt, W_src) matrix, each target word linked to its largest column."""
    counts = Counts()
    counts.add(links_of(attention), gold)
    return counts.aer


def links_of(attention: np.ndarray) -> Links:
    """(W_tgt, W_src) -> each target word linked to its most attended source word, as (source, target)."""
    return {(int(np.argmax(row)), t) for t, row in enumerate(attention)}


def score_heads(model: Transformer, tok: Tokenizer, examples) -> dict:
    """examples: (src, tgt, gold links) -> {"heads": (L, h) AER, "mean": AER of the mean of all heads,
    "layers": AER of each layer's mean, "best": (layer, head), "sentences": n scored}."""
    heads = layers = mean = None
    n = 0
    for src, tgt, gold in examples:
        attn = word_cross_attention(model, tok, src, tgt)
        if attn is None:
            continue
        L, H = attn.shape[:2]
        if heads is None:
            heads = [[Counts() for _ in range(H)] for _ in range(L)]
            layers, mean = [Counts() for _ in range(L)], Counts()
        for layer in range(L):
            for head in range(H):
                heads[layer][head].add(links_of(attn[layer, head]), gold)
            layers[layer].add(links_of(attn[layer].mean(0)), gold)
        mean.add(links_of(attn.mean((0, 1))), gold)
        n += 1
    if heads is None:
        raise ValueError("no sentence pair could be scored")
    table = np.array([[c.aer for c in row] for row in heads])
    best = np.unravel_index(int(np.argmin(table)), table.shape)
    return {"heads": table.round(4).tolist(), "layers": [round(c.aer, 4) for c in layers], "mean": round(mean.aer, 4),
            "best": [int(best[0]), int(best[1])], "sentences": n}


def read_aligned(folder: Path, split: str, src_lang: str, tgt_lang: str):
    """(src, tgt, gold links) of a corpus folder's split that has a {split}.align file."""
    lines = [(Path(folder) / f"{split}.{ext}").read_text(encoding="utf-8").splitlines()
             for ext in (src_lang, tgt_lang, "align")]
    return [(s, t, parse(a)) for s, t, a in zip(*lines, strict=False)]


def gold_examples(examples: list, tgt_lang: str, src_lang: str = "en") -> list:
    """The pairs the app offers with their gold alignment: the lecture's sentence first (where both languages
    have it: examples.lecture), then the split's pairs with another source."""
    first = lecture(src_lang, tgt_lang)
    if first is None:
        return examples
    src, tgt, links = first
    return [(src, tgt, parse(links)), *(ex for ex in examples if ex[0] != src)]


def main(argv: list[str] | None = None) -> int:
    from ..checkpoints.files import CheckpointError
    from ..checkpoints.load import load_checkpoint

    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--data", required=True, help="a corpus folder with {split}.align (the classroom source)")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--record", action="store_true", help="also write the scores into the checkpoint's "
                                                                  "training.json and its model card")
    parser.add_argument("--gold", type=int, default=0, metavar="N",
                        help="also write N pairs with their gold links into the checkpoint's gold_alignments.tsv "
                             "(the app overlays them): the lecture's sentence, then the first scored pairs")
    args = parser.parse_args(argv)
    try:
        ckpt = load_checkpoint(args.checkpoint)
        examples = read_aligned(Path(args.data), args.split, ckpt.config.src_lang, ckpt.config.tgt_lang)
    except (CheckpointError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    result = score_heads(ckpt.model, ckpt.tokenizer, examples[:args.limit])
    print(json.dumps(result, indent=2))
    if args.gold:
        from ..checkpoints.files import GOLD
        offered = gold_examples(examples[:args.limit], ckpt.config.tgt_lang, ckpt.config.src_lang)
        lines = [f"{s}\t{t}\t{fmt(links)}\n" for s, t, links in offered
                 if word_cross_attention(ckpt.model, ckpt.tokenizer, s, t) is not None][:args.gold]
        (Path(args.checkpoint) / GOLD).write_text("".join(lines), encoding="utf-8")
    if args.record:
        from ..checkpoints.model_card import record
        command = "python -m transformer_core alignment " + shlex.join(sys.argv[1:] if argv is None else argv)
        record(ckpt.path, "alignment", {**result, "data": str(args.data), "split": args.split, "command": command})
    return 0


if __name__ == "__main__":
    sys.exit(main())
