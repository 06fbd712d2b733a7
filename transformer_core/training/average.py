"""Average the weights of checkpoints fine-tuned from one starting point (a "model soup", Wortsman et
al. 2022), and score the average on a data folder's test split:

    python -m transformer_core average --out runs/soup --data data/ende runs/F/avg runs/G/export

The checkpoints must share the architecture (dropout aside) and the tokenizer.  The result is a
checkpoint folder; its model card (README.md, with the metadata the Hugging Face Hub reads) names the
ingredients, carries each one's own card (their data and its licence, their training) and gives the
average's test BLEU and chrF.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, replace
from pathlib import Path

from ..checkpoints.files import TOKENIZER, WEIGHTS, Checkpoint, CheckpointError
from ..checkpoints.folder import average_weights, same_tokenizer, save_checkpoint, write_card
from ..checkpoints.load import load_checkpoint
from ..checkpoints.model_card import KO_HEADING, card_body, dataset_names, metadata, scores_table, with_metadata
from ..data.sources import DataError
from ..data.sources.files import read_split
from ..explainer.translate import translate_lines
from ..model.transformer import Transformer
from .evaluate import score


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
    """README.md: the metadata (languages, the ingredients' data sets, the test scores), the text in English,
    the ingredients' own cards (without their metadata), and a Korean summary."""
    names = "\n".join(f"- `{c.path}`" for c in ckpts)
    if test is None:
        result = "Not scored: run `python -m transformer_core evaluate --checkpoint <this folder> --split test`."
        result_ko = ("테스트 점수는 아직 없습니다: "
                     "`python -m transformer_core evaluate --checkpoint <이 폴더> --split test`로 잽니다.")
    else:
        result = (f"On the test split of `{data}` ({test['n']:,} sentence pairs), beam {test['beam']}:\n\n"
                  f"{scores_table(test)}")
        result_ko = (f"`{data}`의 테스트 분할({test['n']:,}문장 쌍), 빔 크기 {test['beam']}: BLEU {test['bleu']:.2f}, "
                     f"chrF {test['chrf']:.2f}")
    ingredients = "\n\n".join(f"<details><summary>{c.path}</summary>\n\n{card_body(c.card) or '(no model card)'}"
                                "\n\n</details>" for c in ckpts)
    cfg = ckpts[0].config
    sets = [] if test is None else [{**test, "name": f"{Path(data).name} test split", "type": Path(data).name,
                                     "split": "test"}]
    sources = [c.training.get("data", {}).get("manifest", {}).get("source", {}) for c in ckpts]
    datasets = dict.fromkeys(name for source in sources if isinstance(source, dict) for name in dataset_names(source))
    meta = metadata(cfg.src_lang, cfg.tgt_lang, sets, list(datasets), "model soup")
    return with_metadata(meta, f"""# Average of {len(ckpts)} checkpoints

The element-wise mean of the weights of (a "model soup", Wortsman et al. 2022):

{names}

made with `python -m transformer_core average`. Their data, its licence and their training are in
their own cards, below.

## Test results
{result}

## Ingredients
{ingredients}

{KO_HEADING}

체크포인트 {len(ckpts)}개의 가중치를 원소별로 평균한 모델("model soup", Wortsman 외 2022)입니다.
`python -m transformer_core average`로 만들었고, 재료가 된 체크포인트는 위 목록에 있습니다. 재료 모델의 데이터와
그 라이선스, 학습 과정은 위에 실린 각 모델의 카드에 있습니다.

{result_ko}
""")


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
    write_card(out, render_soup_card(ckpts, test, args.data))
    print(f"average of {len(ckpts)} checkpoints -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
