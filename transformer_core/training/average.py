"""Average the weights of checkpoints fine-tuned from one starting point (a "model soup", Wortsman et
al. 2022), and score the average on a data folder's test split:

    python -m transformer_core average --out runs/soup --data data/ende runs/F/avg runs/G/export

The checkpoints must share the architecture (dropout aside) and the tokenizer.  The result is a
checkpoint folder; its MODEL_CARD.md names the ingredients, carries each one's own card (their data
and its licence, their training) and gives the average's test BLEU and chrF.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, replace
from pathlib import Path

from ..checkpoints.files import CARD, TOKENIZER, WEIGHTS, Checkpoint, CheckpointError
from ..checkpoints.folder import average_weights, same_tokenizer, save_checkpoint
from ..checkpoints.load import load_checkpoint
from ..data.sources import DataError
from ..data.sources.files import read_split
from .evaluate import score
from ..model.transformer import Transformer
from ..checkpoints.model_card import scores_table
from ..explainer.translate import translate_lines


def check_compatible(ckpts: list[Checkpoint]) -> None:
    """Weights can only be averaged between models of one architecture and one vocabulary."""
    first = ckpts[0]
    arch = asdict(replace(first.config, dropout=0.0))
    for other in ckpts[1:]:
        if asdict(replace(other.config, dropout=0.0)) != arch:
            raise CheckpointError(f"{other.path} and {first.path} have different architectures (config.json)")
        if not same_tokenizer(other.path, first.path):
            raise CheckpointError(f"{other.path} and {first.path} have different tokenizers ({TOKENIZER})")


def render_soup_card(ckpts: list[Checkpoint], test: dict | None, data: str | None) -> str:
    names = "\n".join(f"- `{c.path}`" for c in ckpts)
    if test is None:
        result = "Not scored: run `python -m transformer_core evaluate --checkpoint <this folder> --split test`."
    else:
        result = f"On the test split of `{data}` ({test['n']:,} sentence pairs), beam {test['beam']}:\n\n{scores_table(test)}"
    ingredients = "\n\n".join(
        f"<details><summary>{c.path}</summary>\n\n{c.card or '(no model card)'}\n\n</details>" for c in ckpts)
    return f"""# Average of {len(ckpts)} checkpoints

The element-wise mean of the weights of (a "model soup", Wortsman et al. 2022):

{names}

made with `python -m transformer_core average`. Their data, its licence and their training are in
their own cards, below.

## Test results
{result}

## Ingredients
{ingredients}
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("checkpoints", nargs="+", help="checkpoint folders (two or more)")
    p.add_argument("--out", required=True, help="folder to write the averaged checkpoint to")
    p.add_argument("--data", help="data folder whose test split scores the average")
    p.add_argument("--beam", type=int, default=4)
    args = p.parse_args(argv)
    if len(args.checkpoints) < 2:
        p.error("give two or more checkpoints")
    try:
        ckpts = [load_checkpoint(folder) for folder in args.checkpoints]
        check_compatible(ckpts)
        cfg = ckpts[0].config
        pairs = read_split(Path(args.data), "test", cfg.src_lang, cfg.tgt_lang) if args.data else None
    except (CheckpointError, DataError) as err:                 # nothing written
        print(f"error: {err}", file=sys.stderr)
        return 2
    model = Transformer(cfg)
    model.load_state_dict(average_weights([c.path / WEIGHTS for c in ckpts]))
    out = save_checkpoint(args.out, model.eval(), ckpts[0].path / TOKENIZER)
    test = None
    if pairs:
        hyps = translate_lines(load_checkpoint(out), [s for s, _ in pairs], beam=args.beam)
        test = {**score(hyps, [t for _, t in pairs], cfg.tgt_lang), "beam": args.beam}
        print(f"test BLEU {test['bleu']}, chrF {test['chrf']}", file=sys.stderr)
    (out / CARD).write_text(render_soup_card(ckpts, test, args.data), encoding="utf-8")
    print(f"average of {len(ckpts)} checkpoints -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
