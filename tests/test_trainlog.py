import json

import pytest

from transformer_core.training.trainlog import (
    LogPathError,
    continued_text,
    find_logs,
    parse_log,
    read_log,
    resolve_log_path,
    round_starts_of,
)


def _write(path, rows, tail=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + tail, encoding="utf-8")


def test_parse_train_and_valid_lines(tmp_path):
    rows = [{"step": 1, "lr": 1e-4, "loss": 9.0, "tokens_per_s": 1000, "elapsed": 1.0},
            {"step": 2, "lr": 2e-4, "loss": 8.0, "tokens_per_s": 1100, "elapsed": 2.0},
            {"step": 2, "valid_loss": 7.5, "bleu": 1.2, "elapsed": 3.0},
            {"step": 3, "lr": 3e-4, "loss": 7.0, "tokens_per_s": 900, "valid_loss": 7.1, "bleu": 2.0, "elapsed": 4.0}]
    log_path = tmp_path / "checkpoints" / "m" / "train_log.jsonl"
    _write(log_path, rows, tail='{"step": 3, "lo')       # half-written last line
    log = read_log(log_path)
    assert log.train["step"] == [1, 2, 3] and log.train["lr"] == [1e-4, 2e-4, 3e-4]
    assert log.valid["bleu"] == [1.2, 2.0] and log.skipped == 1 and log.last_step == 3
    assert find_logs(tmp_path) == [log_path]


def test_a_fine_tunes_log_goes_on_from_its_bases(tmp_path):
    base = '{"step": 50, "loss": 3.0, "elapsed": 10.0}\n{"step": 100, "valid_loss": 2.0, "bleu": 9.0, "elapsed": 20.5}\n'
    run = 'not json\n{"step": 25, "lr": 0.001, "loss": 1.5, "elapsed": 4.0}\n{"step": 30, "bleu": 11.0}\n'
    log = parse_log(continued_text(base, run))
    assert log.train["step"] == [50, 125] and log.train["elapsed"] == [10.0, 24.5]
    assert log.valid["step"] == [100, 130] and log.valid["bleu"] == [9.0, 11.0] and log.skipped == 0


@pytest.mark.parametrize("training, starts", [
    ({"init": {"round_starts": [7543, 9000]}}, [7543, 9000]),
    ({"init": None}, []), ({"init": {"round_starts": "7543"}}, []), ({"init": {"round_starts": [True, 5]}}, [5]),
    ([1, 2], []), (None, [])])
def test_round_starts_read_from_training_json_and_forgiving(tmp_path, training, starts):
    if training is not None:
        (tmp_path / "training.json").write_text(json.dumps(training), encoding="utf-8")
    assert round_starts_of(tmp_path) == starts


def test_parse_garbage():
    log = parse_log('not json\n[1, 2]\n{"loss": 1}\n{"step": "x"}\n{"step": 5, "loss": NaN}\n{"step": 6}\n')
    assert log.train["step"] == [5] and log.train["loss"] == [None] and log.skipped == 5


def test_resolve_log_path(tmp_path):
    ok = tmp_path / "runs" / "a" / "train_log.jsonl"
    _write(ok, [{"step": 1}])
    assert resolve_log_path("runs/a/train_log.jsonl", tmp_path) == ok.resolve()
    (tmp_path / "secret.jsonl").write_text("{}")
    for text, reason in [("", "empty"), ("/etc/passwd", "outside"), ("runs/../secret.jsonl", "outside"),
                         ("runs/a/missing.jsonl", "not_found"), ("runs/a", "not_jsonl"),
                         (str(tmp_path / "secret.jsonl"), "outside")]:
        with pytest.raises(LogPathError) as err:
            resolve_log_path(text, tmp_path)
        assert err.value.reason == reason
    link = tmp_path / "runs" / "link.jsonl"
    link.symlink_to(tmp_path / "secret.jsonl")
    with pytest.raises(LogPathError):
        resolve_log_path("runs/link.jsonl", tmp_path)
