"""The classroom corpus, generated (transformer_core.data.classroom): everyday sentences, en -> ko or en -> de,
with gold word alignments; --with adds another corpus folder (the mix): its train split to train, its
valid split to valid, and its test split's English to what no training pair may hold."""
from __future__ import annotations

import json
from pathlib import Path

from ..classroom import corpus
from . import Corpus, DataError, Pair
from .files import read_split

LICENCES = {
    "lexicon and grammar": "this project's own (see LICENSE)",
    "kiwipiepy": "Apache-2.0 (Korean morphology)",
    "ablaut": "MIT OR Apache-2.0 (German verb conjugation)",
    "german-nouns": "CC-BY-SA-4.0, Wiktionary (German noun declension)",
    "lemminflect": "MIT (English verb forms)",
    "breame": "Apache-2.0 (British spellings: favourite, colour, practise)",
    "inflect": "MIT (English plurals, a/an)",
}
def add_arguments(parser) -> None:
    parser.add_argument("--pair", choices=["en-ko", "en-de"], required=True, help="language pair")
    parser.add_argument("--size", type=int, default=60000, help="generated training pairs (default: %(default)s)")
    parser.add_argument("--with", dest="mix", type=Path, action="append", default=[],
                        help="a corpus folder (python -m transformer_core data ...) whose train split joins train; "
                             "repeatable")
    parser.set_defaults(test_size=1000, valid_size=1000)


def load(args) -> Corpus:
    src_lang, tgt_lang = args.pair.split("-")
    generated, plan = corpus.splits(args.size, args.valid_size, args.test_size, args.seed)
    pairs = [Pair(ex.text("en"), ex.text(tgt_lang), split=name, align=ex.align(tgt_lang), frame=ex.frame)
             for name, examples in generated.items() for ex in examples]
    mixed, held_out = [], set()
    for folder in args.mix:
        manifest_path = folder / "manifest.json"
        if not manifest_path.is_file():
            raise DataError(f"--with {folder}: no manifest.json there (build it with python -m transformer_core data)")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if (manifest["src_lang"], manifest["tgt_lang"]) != (src_lang, tgt_lang):
            raise DataError(f"--with {folder} is {manifest['src_lang']}-{manifest['tgt_lang']}, not {args.pair}")
        extra = read_split(folder, "train", src_lang, tgt_lang)
        valid = read_split(folder, "valid", src_lang, tgt_lang)
        pairs += [Pair(s, t, split="train") for s, t in extra] + [Pair(s, t, split="valid") for s, t in valid]
        held_out |= {s.lower() for s, _ in read_split(folder, "test", src_lang, tgt_lang)}
        mixed.append({"folder": str(folder), "train_pairs": len(extra), "valid_pairs": len(valid),
                      "source": manifest["source"]})
    meta = {
        "name": "classroom",
        "description": "generated everyday sentences (first-year textbook vocabulary) with gold word alignments",
        "domain": "everyday classroom language: family, school, food, animals, places, time, weather",
        "licence": LICENCES,
        "frames": {"train": len(plan.train_frames), "held_out": list(plan.test_frames)},
        "held_out_words": sorted(plan.held_words),
        "mixed_with": mixed,
    }
    counts = {"generated": {name: len(examples) for name, examples in generated.items()},
              "mixed_train_pairs": sum(m["train_pairs"] for m in mixed)}
    return Corpus(src_lang, tgt_lang, pairs, meta, counts, held_out)
