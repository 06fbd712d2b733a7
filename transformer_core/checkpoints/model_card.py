"""MODEL_CARD.md, rendered from the training record (training.json) that train.py writes."""
from __future__ import annotations

from ..model.tokenizer import SAMPLE_NBEST


def _table(header: list[str], rows: list[list]) -> str:
    fmt = lambda v: f"{v:,}" if isinstance(v, int) else str(v)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows])


def _cell(value) -> str:
    """A table cell; a nested source record shows its name and licence (and a register it was rewritten in)."""
    if isinstance(value, dict):
        licence = value.get("licence", "")
        if isinstance(licence, dict):
            licence = "; ".join(f"{k}: {v}" for k, v in licence.items())
        register = value.get("register")
        rewritten = f"; register {register}" if register and register != "as-written" else ""
        return f"{value.get('name', '')} ({licence}{rewritten})" if value.get("name") else str(value)
    return value


def _source_section(source: dict) -> str:
    """The data source's provenance: scalars as one table, lists of records, name → text maps (licences)
    and nested counts as more."""
    records = lambda v: isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    scalars = [[k, ", ".join(map(str, v)) if isinstance(v, list) else v]     # the page shows no HTML: no <br>
               for k, v in source.items() if not isinstance(v, dict) and not records(v)]
    parts = [_table(["", ""], scalars)]
    for key, value in source.items():
        if records(value):
            cols = list(dict.fromkeys(c for x in value for c in x))
            parts.append(f"**{key}**\n\n" + _table(cols, [[_cell(x.get(c, "")) for c in cols] for x in value]))
        elif isinstance(value, dict) and value and not any(isinstance(x, dict) for x in value.values()):
            parts.append(f"**{key}**\n\n" + _table(["", ""], [[k, v] for k, v in value.items()]))
        elif isinstance(value, dict) and value and all(isinstance(x, dict) for x in value.values()):
            rows = list(dict.fromkeys(r for x in value.values() for r in x))
            parts.append(f"**{key}**\n\n" + _table(["", *value], [[r, *(x.get(r, "") for x in value.values())]
                                                               for r in rows]))
    return "\n\n".join(parts)


def _weights_row(selection: dict | None) -> str:
    """Which weights were exported: the best validation checkpoint, or the average of the last saves."""
    if not selection:
        return "the checkpoint with the best validation BLEU"
    best = selection["best"]
    text = f"best validation BLEU {best['valid_bleu']:.2f} at step {best['step']}"
    if "average" in selection:
        avg = selection["average"]
        text = (f"average of the weights at steps {', '.join(map(str, avg['steps']))}: validation BLEU "
                f"{avg['valid_bleu']:.2f}, against the {text}")
        text += "; the average was exported" if selection["chosen"] == "average" else "; the best was exported"
    return text


def scores_table(test: dict) -> str:
    """BLEU and chrF with their sacrebleu signatures, whose '|' are escaped so the table keeps 3 columns."""
    sig = lambda name: "`" + test[f"{name}_signature"].replace("|", "\\|") + "`"
    return _table(["metric", "score", "sacrebleu signature"],
                  [["BLEU", f"{test['bleu']:.2f}", sig("bleu")], ["chrF", f"{test['chrf']:.2f}", sig("chrf")]])


def _segmentation(alpha: float | None) -> str:
    if alpha is None:
        return "the most likely (as in validation and test)"
    return f"sampled anew each epoch from the {SAMPLE_NBEST} most likely, alpha {alpha} (subword regularization)"


def _init_row(init: dict | None) -> str:
    """A fine-tuned model: what it started from; the rows above count this run only."""
    if not init:
        return ""
    before = f"{init['steps']:,} steps, {init['wall_time_s'] / 60:.1f} min" if init.get("steps") else "its own training"
    return (f"| initialized from | `{init['checkpoint']}` ({before}); the steps and times above are "
            f"this fine-tuning run's only |\n")


def _evaluations(t: dict) -> str:
    """Scores on other sets than the test split (evaluate --record): the classroom set, the old domain."""
    rows = t.get("evaluations") or []
    if not rows:
        return ""
    table = _table(["set", "sentences", "beam", "BLEU", "chrF", "BLEU tokenization"],
                   [[e["name"], e["n"], e["beam"], f"{e['bleu']:.2f}", f"{e['chrf']:.2f}",
                     next((p for p in e["bleu_signature"].split("|") if p.startswith("tok:")), "")] for e in rows])
    commands = "\n".join(f"- {e['name']}: `{e['command']}`" for e in rows)
    return f"\n## More evaluations\n{table}\n\nReproduce:\n{commands}\n"


def _bleu_chrf(score: dict) -> str:
    """'22.65 / 24.46', with ' (p = 0.38)' or ' (p < 0.01)' for a run tested against the first (mixes.py)."""
    p = score.get("chrf_p")
    against_first = "" if p is None else " (p < 0.01)" if p < 0.01 else f" (p = {p:.2f})"
    return f"{score['bleu']:.2f} / {score['chrf']:.2f}{against_first}"


def _mixes(t: dict) -> str:
    """Training mixes compared on the same validation sets (mixes.py --record)."""
    m = t.get("mixes")
    if not m:
        return ""
    sets = [*m["valid_sets"], *m["test_sets"]]
    header = ["training mix", "train pairs", "steps", *(f"{s} ({'test' if s in m['test_sets'] else 'valid'})"
                                                       for s in sets)]
    chosen = f" Chosen: **{m['chosen']['name']}**, by {m['chosen']['by']}." if m.get("chosen") else ""
    rows = [[r["name"], f"{r['train_pairs']:,}" if r.get("train_pairs") else "", r.get("steps") or "",
             *(_bleu_chrf(r["scores"][s]) for s in sets)] for r in m["runs"]]
    return f"""
## Training mixes compared
Training runs that differ only in the corpora mixed into their training data, each scored on the
same sets (BLEU / chrF, beam {m['beam']}): the valid splits, which choose, and the hand-written test
sets, which are only shown. p: how likely a chrF difference this large from the first run is by chance
(paired bootstrap, 1,000 resamples); at p ≥ 0.05 the runs are not told apart.{chosen}

{_table(header, rows)}

Reproduce: `{m['command']}`
"""


def _alignment(t: dict) -> str:
    """Alignment error rate of every cross-attention head on gold word alignments (alignment --record)."""
    a = t.get("alignment")
    if not a:
        return ""
    heads = a["heads"]
    rows = [[f"layer {i + 1}", *(f"{v:.3f}" for v in row), f"{a['layers'][i]:.3f}"] for i, row in enumerate(heads)]
    table = _table(["", *(f"head {h + 1}" for h in range(len(heads[0]))), "mean of the layer's heads"], rows)
    best = a["best"]
    return f"""
## Attention against gold alignments
Alignment error rate (AER, lower is better) of each encoder-decoder attention head: teacher-forced on the
reference, each target word linked to the source word its head attends to most, against the gold word
alignments the classroom generator knows from construction ({a['sentences']:,} sentence pairs of the
{a['split']} split of `{a['data']}`, held-out frames and words).

{table}

Mean of all heads: AER {a['mean']:.3f}. Best head: layer {best[0] + 1}, head {best[1] + 1}
(AER {heads[best[0]][best[1]]:.3f}). Reproduce: `{a['command']}`
"""


def render_card(t: dict) -> str:
    cfg, data, test = t["config"], t["data"], t["test"]
    m = data["manifest"]
    counts = _table(["stage", "pairs"], [[k, v] for k, v in (m.get("counts") or {}).items()])
    splits = _table(["split", "pairs"], [[k, v] for k, v in (m.get("splits") or {}).items()])
    minutes = t["wall_time_s"] / 60
    return f"""# {cfg['src_lang']}→{cfg['tgt_lang']} Transformer (Attention Atlas)

A small encoder-decoder Transformer ("Attention Is All You Need"), trained by the
Attention Atlas project with `python -m transformer_core train` for teaching: every
attention weight it computes can be inspected in the app.

## Data
{_source_section(m.get("source", {}))}

The corpus was fetched and built by `{m.get('command', 'python -m transformer_core data')}`;
it is not redistributed with this checkpoint. Counts after each step of the pipeline:

{counts}

{splits}

## Model
| | |
|---|---|
| parameters | {t['parameters']:,} |
| d_model / heads / d_k | {cfg['d_model']} / {cfg['n_heads']} / {cfg['d_model'] // cfg['n_heads']} |
| layers (encoder + decoder) | {cfg['n_encoder_layers']} + {cfg['n_decoder_layers']} |
| d_ff | {cfg['d_ff']} |
| positional encoding | {cfg['positional']} |
| joint SentencePiece vocabulary | {cfg['vocab_size']} |
| max length (tokens) | {cfg['max_len']} |

## Training
| | |
|---|---|
| optimizer steps | {t['steps']:,} |
| wall time | {minutes:.1f} min (process CPU time {t.get('cpu_time_s', 0) / 60:.1f} min) |
| hardware | {t['hardware']} (world size {t['world_size']}) |
| batch | {t['args']['max_tokens']} tokens per side × {t['args']['accum']} accumulation |
| schedule | lrate = {t['args']['lr_scale']} · d_model^-0.5 · min(step^-0.5, step · {t['args']['warmup']}^-1.5) |
| label smoothing / dropout | {t['args']['label_smoothing']} / {cfg['dropout']} |
| segmentation of the training text | {_segmentation(t['args'].get('subword_alpha'))} |
| exported weights | {_weights_row(t.get('selection'))} |
{_init_row(t.get('init'))}| torch | {t['torch']} |

## Test results
On the held-out test split ({test['n']:,} sentence pairs, never seen in training), beam {test['beam']}:

{scores_table(test)}

Reproduce: `python -m transformer_core evaluate --checkpoint <this folder> --split test --beam {test['beam']}`
(after building the data as above).
{_evaluations(t)}{_mixes(t)}{_alignment(t)}
## Limitations
Domain: {m.get("source", {}).get("domain", "see the data source above")}

A small model trained briefly on a small corpus: expect short, simple sentences to work and
long or unusual ones to fail. It is a teaching instrument, not a translation service.
"""


def record(folder, key: str, value) -> None:
    """Put value under training.json[key] (a list key: replace the entry of the same name, or append)
    and rewrite MODEL_CARD.md."""
    import json
    from pathlib import Path

    path = Path(folder) / "training.json"
    training = json.loads(path.read_text(encoding="utf-8"))
    if key == "evaluations":
        kept = [e for e in training.get(key, []) if e["name"] != value["name"]]
        training[key] = kept + [value]
    else:
        training[key] = value
    path.write_text(json.dumps(training, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (Path(folder) / "MODEL_CARD.md").write_text(render_card(training), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """python -m transformer_core model_card CHECKPOINT: rewrite MODEL_CARD.md from training.json."""
    import argparse
    import json
    import sys
    from pathlib import Path

    parser = argparse.ArgumentParser(description="Rewrite a checkpoint's MODEL_CARD.md from its training.json.")
    parser.add_argument("checkpoint", type=Path, help="the checkpoint folder")
    folder = parser.parse_args(argv).checkpoint
    try:
        training = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        print(f"error: {folder / 'training.json'}: {err}", file=sys.stderr)
        return 2
    (folder / "MODEL_CARD.md").write_text(render_card(training), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
