"""The model card, README.md, rendered from the training record (training.json) that train.py writes.

It is huggingface_hub's ModelCard, as the Hub shows it: a YAML block of metadata (ModelCardData: both
languages, the licence, the data sets, tags, pipeline_tag and a model-index with the BLEU and chrF measured on
each named test set), then the text, in English and then in Korean (from KO_HEADING on).  A folder written
before the card was renamed has MODEL_CARD.md instead; it is still read (files.read_card).

    python -m transformer_core model_card checkpoints/ende      # rewrite README.md from training.json
"""
from __future__ import annotations

from pathlib import Path

from ..model.config import base_language
from ..model.tokenizer import SAMPLE_NBEST

TAGS = ["translation", "transformer", "education"]
LICENSE = "other"                          # no licence has been chosen for the weights: the card lists the data's
LICENSE_NAME = "training-data-licences"
KO_HEADING = "# 한국어"                    # where the Korean text starts
LANGUAGE_NAMES = {"en": ("English", "영어"), "de": ("German", "독일어"), "ko": ("Korean", "한국어")}


def _table(header: list[str], rows: list[list]) -> str:
    def fmt(v):
        return f"{v:,}" if isinstance(v, int) else str(v)

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
    def records(v):
        return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)

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
    def sig(name):
        return "`" + test[f"{name}_signature"].replace("|", "\\|") + "`"

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


# --- what the metadata and both texts share -----------------------------------------------------------

def language_name(code: str, ko: bool = False) -> str:
    """"German" / "독일어" for "de"; a code without a name stays a code."""
    names = LANGUAGE_NAMES.get(base_language(code))
    return names[1 if ko else 0] if names else code


def _sources(source: dict) -> list[dict]:
    """The data source and every source mixed into it (mixed_with), each a record with a name and a licence."""
    mixed = [m["source"] for m in source.get("mixed_with") or []
             if isinstance(m, dict) and isinstance(m.get("source"), dict)]
    return [source, *mixed] if source else mixed


def data_licences(source: dict) -> list[list[str]]:
    """[source, part, licence] for every source of the training data; a source licensed in parts (the classroom
    generator: its lexicon and the packages it uses) gives one row a part."""
    rows = []
    for s in _sources(source):
        licence = s.get("licence", "")
        if isinstance(licence, dict):
            rows += [[str(s.get("name", "")), str(part), str(text)] for part, text in licence.items()]
        elif licence:
            rows.append([str(s.get("name", "")), "", str(licence)])
    return rows


def dataset_names(source: dict) -> list[str]:
    """The training data's sources by name (the metadata's datasets: this project's own names, not Hub data sets)."""
    return list(dict.fromkeys(str(s["name"]) for s in _sources(source) if s.get("name")))


def scored_sets(t: dict) -> list[dict]:
    """Every named test set the model was scored on: the test split of its training data, then each of
    evaluate --record's sets.  Each: name, type (a short id of the data), split (or None), n, beam, bleu, chrf
    and their sacrebleu signatures, exactly as training.json has them."""
    folder = Path(str(t.get("data", {}).get("folder") or "data")).name
    sets = [{**t["test"], "name": f"{folder} test split", "type": folder, "split": "test"}] if t.get("test") else []
    for e in t.get("evaluations") or []:
        data = str(e.get("data", ""))
        split = data.startswith("test split of ")
        kind = Path(data.removeprefix("test split of ")).name if split else Path(data).stem
        sets.append({**e, "type": kind or e["name"], "split": "test" if split else None})
    return sets


def metadata(src_lang: str, tgt_lang: str, sets: list[dict], datasets: list[str], name: str = "Transformer"):
    """A card's metadata (huggingface_hub.ModelCardData), what the Hub reads from the YAML block: both languages,
    the licence, the data sets, the tags, pipeline_tag and a model-index with chrF and BLEU on each of sets
    (scored_sets' records)."""
    from huggingface_hub import EvalResult, ModelCardData

    src, tgt = base_language(src_lang), base_language(tgt_lang)
    results = [EvalResult(task_type="translation", task_name=f"Translation {src}-{tgt}", dataset_type=s["type"],
                          dataset_name=s["name"], dataset_split=s["split"], metric_type=metric, metric_name=label,
                          metric_value=s[metric], metric_config=s.get(f"{metric}_signature"))
               for s in sets for metric, label in (("chrf", "chrF"), ("bleu", "BLEU"))]
    return ModelCardData(language=list(dict.fromkeys([src, tgt])), license=LICENSE, license_name=LICENSE_NAME,
                         datasets=list(datasets) or None, tags=list(TAGS), pipeline_tag="translation",
                         metrics=["chrf", "bleu"], model_name=f"Attention Atlas {src}-{tgt} {name}",
                         eval_results=results or None)


def card_data(t: dict):
    """The metadata of the card of training.json's content t."""
    cfg = t["config"]
    source = t.get("data", {}).get("manifest", {}).get("source", {})
    return metadata(cfg["src_lang"], cfg["tgt_lang"], scored_sets(t), dataset_names(source))


def with_metadata(data, text: str) -> str:
    """A ModelCard's content: data's YAML block, then the text."""
    from huggingface_hub import ModelCard

    return ModelCard(f"---\n{data.to_yaml()}\n---\n\n{text.lstrip()}").content


def card_body(text: str) -> str:
    """A card without its YAML metadata block, which the Hub shows apart from the text: from a first line "---"
    (blank lines before it aside) to the next line "---".  Line by line, in linear time (a card is untrusted)."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start == len(lines) or lines[start].rstrip("\r\n").strip() != "---":
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None)
    return text if end is None else "".join(lines[end + 1:]).lstrip("\r\n")


def in_language(text: str, lang: str) -> str:
    """A card's text for a reader of lang: its Korean part (from KO_HEADING) first for "ko", its English part
    first otherwise, the other after a rule; a card without a Korean part as it is.  Metadata left out."""
    body = card_body(text)
    at = body.rfind(f"\n{KO_HEADING}\n")          # the last: a soup's card holds its ingredients' cards
    if at < 0:
        return body
    english, korean = body[:at].rstrip(), body[at + 1:].rstrip()
    return f"{korean}\n\n---\n\n{english}\n" if lang == "ko" else f"{english}\n\n---\n\n{korean}\n"


def command_line(args: dict, world_size: int = 1) -> str:
    """The train command of these arguments (training.json's args, train.py's argparse namespace): every
    option with its recorded value, defaults too (a later change of a default does not change the command);
    a flag (store_true) only when set.  tests/test_model_card.py parses it back with train.parse_args."""
    import shlex

    parts = ["python -m transformer_core train" if world_size <= 1 else
             f"torchrun --nproc_per_node={world_size} -m transformer_core train"]
    for name, value in args.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        parts.append(flag if value is True else f"{flag} {shlex.quote(str(value))}")
    return " ".join(parts)


def train_command(t: dict) -> str:
    """The training command, rebuilt from training.json's args (command_line); long ones on lines."""
    words, lines = command_line(t.get("args") or {}, t.get("world_size") or 1).split(" --"), []
    for word in words:
        word = word if not lines else f"--{word}"
        if lines and len(lines[-1]) + len(word) < 100:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return " \\\n  ".join(lines)


def _commands_en(t: dict) -> str:
    m = t["data"]["manifest"]
    init = t.get("init") or {}
    mixed = m.get("source", {}).get("mixed_with")
    start = (f", starting from the weights of `{init['checkpoint']}`, an earlier version of this model (how that "
             "was trained: docs/training.md in the Attention Atlas repository)") if init else ""
    evals = "".join(f"\n   - {e['name']}: `{e['command']}`" for e in t.get("evaluations") or [])
    evaluate = f"python -m transformer_core evaluate --checkpoint <this folder> --split test --beam {t['test']['beam']}"
    return f"""
## How it was made
1. The data: `{m.get('command', 'python -m transformer_core data')}`{
        " (the folders it mixes in with --with were built beforehand by this project's `data` command, from the "
        "sources above)" if mixed else ""}.
2. Training on {t['hardware']}{start}:
   ```
   {train_command(t).replace(chr(10), chr(10) + '   ')}
   ```
3. Scoring: `{evaluate}`{evals}
4. This card: `python -m transformer_core model_card <this folder>`, from the folder's training.json.
"""


def _licence_en(t: dict) -> str:
    rows = data_licences(t["data"]["manifest"].get("source", {}))
    table = _table(["data", "part", "licence"], rows) if rows else "(training.json names no licences)"
    return f"""
## Licence
No licence has been chosen for these weights (hence `license: other` in the metadata). They were learnt
from the data above, whose licences are:

{table}

Check these terms before you reuse or redistribute the weights.
"""


# --- the Korean text -------------------------------------------------------------------------------------

def _weights_ko(selection: dict | None) -> str:
    if not selection:
        return "검증 BLEU가 가장 높았던 체크포인트"
    best = selection["best"]
    text = f"{best['step']} 스텝의 최고 검증 BLEU {best['valid_bleu']:.2f}"
    if "average" in selection:
        avg = selection["average"]
        chosen = "평균을" if selection["chosen"] == "average" else "최고 체크포인트를"
        return (f"{', '.join(map(str, avg['steps']))} 스텝 가중치의 평균(검증 BLEU {avg['valid_bleu']:.2f})과 "
                f"{text} 가운데 {chosen} 내보냈습니다")
    return f"{text}의 가중치"


def _segmentation_ko(alpha: float | None) -> str:
    if alpha is None:
        return "가장 가능성이 높은 분절(검증·테스트와 같음)"
    return f"에폭마다 가능성이 높은 {SAMPLE_NBEST}개 가운데서 새로 샘플링(alpha {alpha}, 서브워드 정규화)"


def _korean(t: dict) -> str:
    cfg, test, m = t["config"], t["test"], t["data"]["manifest"]
    src, tgt = language_name(cfg["src_lang"], ko=True), language_name(cfg["tgt_lang"], ko=True)
    source = m.get("source", {})
    init = t.get("init") or {}
    positional = {"sinusoidal": "사인파(sinusoidal)", "learned": "학습형(learned)"}.get(cfg["positional"],
                                                                                   cfg["positional"])
    mixed = [x for x in source.get("mixed_with") or [] if isinstance(x, dict)]
    mixed_table = ("\n\n" + _table(["섞은 데이터", "학습 쌍", "검증 쌍", "출처"],
                                   [[f"`{x.get('folder', '')}`", x.get("train_pairs", ""), x.get("valid_pairs", ""),
                                     x.get("source", {}).get("name", "")] for x in mixed])) if mixed else ""
    splits = _table(["분할", "문장 쌍"], [[k, v] for k, v in (m.get("splits") or {}).items()])
    init_row = (f"| 시작 가중치 | `{init['checkpoint']}`({init['steps']:,} 스텝, {init['wall_time_s'] / 60:.1f}분 학습)에서 "
                "이어서 학습(파인튜닝)했습니다. 위의 스텝 수와 시간은 이번 파인튜닝만 센 값입니다 |\n"
                if init.get("steps") else f"| 시작 가중치 | `{init['checkpoint']}` |\n" if init else "")
    sets = scored_sets(t)
    scores = _table(["평가 세트", "문장 수", "빔", "BLEU", "chrF", "BLEU 토큰화"],
                    [[s["name"], s["n"], s["beam"], f"{s['bleu']:.2f}", f"{s['chrf']:.2f}",
                      next((p for p in s["bleu_signature"].split("|") if p.startswith("tok:")), "")] for s in sets])
    mecab = ("한국어 BLEU는 mecab-ko로 형태소를 나눈 뒤에 잽니다(`tok:ko-mecab`)."
             if any("tok:ko-mecab" in s["bleu_signature"] for s in sets) else "")
    more = [name for key, name in (("mixes", "학습 데이터 조합 비교(Training mixes compared)"),
                                   ("alignment", "헤드별 정렬 오류율 표(Attention against gold alignments)")) if t.get(key)]
    more_text = f"{'와 '.join(more)}는 영어 부분에 있습니다." if more else ""
    a = t.get("alignment")
    alignment = (f"정답 단어 정렬과 비교한 인코더-디코더 어텐션의 정렬 오류율(AER, 낮을수록 좋음): 모든 헤드 평균 "
                 f"{a['mean']:.3f}, 가장 좋은 헤드는 {a['best'][0] + 1}층 {a['best'][1] + 1}번 헤드"
                 f"(AER {a['heads'][a['best'][0]][a['best'][1]]:.3f})입니다.") if a else ""
    notes = "\n\n".join(note for note in (mecab, alignment, more_text) if note)
    evals = "".join(f"\n   - {e['name']}: `{e['command']}`" for e in t.get("evaluations") or [])
    rows = data_licences(source)
    licences = _table(["데이터", "구성 요소", "라이선스"], rows) if rows else "(training.json에 라이선스 기록이 없습니다)"
    start = (f" `{init['checkpoint']}`(이 모델의 이전 버전)의 가중치에서 시작합니다. 이전 버전의 학습 과정은 Attention "
             "Atlas 저장소의 docs/training.md에 있습니다." if init else "")
    with_note = ("\n   (`--with`로 섞은 폴더들은 이 프로젝트의 `data` 명령으로 위 출처에서 미리 만들어 둔 것입니다.)"
                 if mixed else "")
    mixed_text = f" `{source.get('name', '')}` 데이터에 다음 데이터를 섞었습니다.{mixed_table}" if mixed else ""
    return f"""{KO_HEADING}

## 개요
{src}를 {tgt}로 번역하는 작은 인코더-디코더 Transformer("Attention Is All You Need")입니다. Attention Atlas
프로젝트가 수업에 쓰려고 `python -m transformer_core train`으로 학습했으며, 모델이 계산하는 어텐션 가중치를
앱에서 하나하나 들여다볼 수 있습니다.

## 데이터
학습 데이터는 `{m.get('command', 'python -m transformer_core data')}` 명령으로 내려받아 만들었고, 이 체크포인트와
함께 배포하지 않습니다.{mixed_text}

{splits}

## 모델
| | |
|---|---|
| 매개변수 | {t['parameters']:,}개 |
| d_model / 헤드 수 / d_k | {cfg['d_model']} / {cfg['n_heads']} / {cfg['d_model'] // cfg['n_heads']} |
| 층 수(인코더 + 디코더) | {cfg['n_encoder_layers']} + {cfg['n_decoder_layers']} |
| d_ff | {cfg['d_ff']} |
| 위치 인코딩 | {positional} |
| 공유 SentencePiece 어휘 | {cfg['vocab_size']}개 |
| 최대 길이(토큰) | {cfg['max_len']} |

## 학습
| | |
|---|---|
| 옵티마이저 스텝 | {t['steps']:,} |
| 학습 시간 | {t['wall_time_s'] / 60:.1f}분(프로세스 CPU 시간 {t.get('cpu_time_s', 0) / 60:.1f}분) |
| 하드웨어 | {t['hardware']}, 프로세스 {t['world_size']}개 |
| 배치 | 한쪽당 {t['args']['max_tokens']}토큰 × 그래디언트 누적 {t['args']['accum']} |
| 학습률 스케줄 | lrate = {t['args']['lr_scale']} · d_model^-0.5 · min(step^-0.5, step · {t['args']['warmup']}^-1.5) |
| 레이블 스무딩 / 드롭아웃 | {t['args']['label_smoothing']} / {cfg['dropout']} |
| 학습 문장의 분절 | {_segmentation_ko(t['args'].get('subword_alpha'))} |
| 내보낸 가중치 | {_weights_ko(t.get('selection'))} |
{init_row}| torch | {t['torch']} |

## 평가 결과
학습에 쓰지 않은 문장을 빔 크기 {test['beam']}의 빔 서치로 번역하고 sacrebleu로 잰 점수입니다. 첫 줄은 학습 데이터의
테스트 분할({test['n']:,}문장 쌍)입니다.

{scores}

{notes}

## 재현 방법
1. 데이터: `{m.get('command', 'python -m transformer_core data')}`{with_note}
2. 학습:{start}
   ```
   {train_command(t).replace(chr(10), chr(10) + '   ')}
   ```
3. 평가: `python -m transformer_core evaluate --checkpoint <이 폴더> --split test --beam {test['beam']}`{evals}
4. 이 카드: `python -m transformer_core model_card <이 폴더>`(폴더의 training.json으로 만듭니다)

## 한계
작은 말뭉치로 짧게 학습한 작은 모델이라, 짧고 단순한 문장은 잘 번역하지만 길거나 흔하지 않은 문장에서는 틀리기
쉽습니다. 번역 서비스가 아니라 수업에서 쓰는 교구입니다. 학습 데이터가 다루는 영역(기록된 영어 원문):
{source.get('domain', '위 데이터 참고')}

## 라이선스
이 가중치에는 따로 정한 라이선스가 없습니다(그래서 메타데이터에 `license: other`로 적었습니다). 가중치는 위 데이터로
학습했고, 데이터의 라이선스는 다음과 같습니다.

{licences}

가중치를 다시 쓰거나 배포하기 전에 이 조건들을 확인하세요.
"""


def render_card(t: dict) -> str:
    """README.md: the metadata (card_data), the English text, then the Korean one."""
    return with_metadata(card_data(t), f"{_english(t).rstrip()}\n\n{_korean(t)}")


def _english(t: dict) -> str:
    cfg, data, test = t["config"], t["data"], t["test"]
    m = data["manifest"]
    counts = _table(["stage", "pairs"], [[k, v] for k, v in (m.get("counts") or {}).items()])
    splits = _table(["split", "pairs"], [[k, v] for k, v in (m.get("splits") or {}).items()])
    minutes = t["wall_time_s"] / 60
    return f"""# {cfg['src_lang']}→{cfg['tgt_lang']} Transformer (Attention Atlas)

*한국어 설명은 영어 설명 다음의 **한국어** 부분에 있습니다.*

A small encoder-decoder Transformer ("Attention Is All You Need") that translates {language_name(cfg['src_lang'])}
into {language_name(cfg['tgt_lang'])}, trained by the Attention Atlas project with `python -m transformer_core train`
for teaching: every attention weight it computes can be inspected in the app.

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
{_evaluations(t)}{_mixes(t)}{_alignment(t)}{_commands_en(t)}
## Limitations
Domain: {m.get("source", {}).get("domain", "see the data source above")}

A small model trained briefly on a small corpus: expect short, simple sentences to work and
long or unusual ones to fail. It is a teaching instrument, not a translation service.
{_licence_en(t)}"""


def write(folder, training: dict) -> Path:
    """Render the card of training (training.json's content) into folder's README.md; an older MODEL_CARD.md
    there, which it replaces, is removed."""
    from .folder import write_card

    return write_card(Path(folder), render_card(training))


def record(folder, key: str, value) -> None:
    """Put value under training.json[key] (a list key: replace the entry of the same name, or append)
    and rewrite the card (README.md)."""
    import json

    path = Path(folder) / "training.json"
    training = json.loads(path.read_text(encoding="utf-8"))
    if key == "evaluations":
        kept = [e for e in training.get(key, []) if e["name"] != value["name"]]
        training[key] = kept + [value]
    else:
        training[key] = value
    path.write_text(json.dumps(training, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write(folder, training)


def main(argv: list[str] | None = None) -> int:
    """python -m transformer_core model_card CHECKPOINT: rewrite README.md from training.json."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(description="Rewrite a checkpoint's model card (README.md, with the metadata "
                                                 "the Hugging Face Hub reads) from its training.json.")
    parser.add_argument("checkpoint", type=Path, help="the checkpoint folder")
    folder = parser.parse_args(argv).checkpoint
    try:
        training = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        print(f"error: {folder / 'training.json'}: {err}", file=sys.stderr)
        return 2
    print(write(folder, training))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
