"""The misbehaviour-detection hook (v2xsec.mbd): features, learned detectors scored like
ours, built-in detectors, typed errors."""

import subprocess
import sys

import numpy as np
import pytest

import v2xsec
from v2xsec import mbd


@pytest.fixture
def honest(repo):
    return mbd.Trace.nextgen(repo / "crates" / "v2x-mbd" / "tests" / "fixtures" / "nextgen" / "input")


@pytest.fixture
def replayed(honest):
    return honest.attack("dataReplay", ratio=0.2, seed=1)


def test_features_have_the_documented_names_and_shape(honest):
    f = honest.features()
    assert f.names == mbd.FEATURE_NAMES
    assert f.X.shape == (len(honest), len(mbd.FEATURE_NAMES)) and f.X.dtype == np.float64
    assert len(honest) == len(honest.meta) > 100
    names = list(f.names)
    # Every check's score, the evidence flags last among them, then the confidences.
    assert names[:3] == ["range", "position-plausibility", "speed-plausibility"]
    assert "acceleration-consistency" in names
    assert names[names.index("content-replay") : names.index("content-replay") + 3] == [
        "content-replay",
        "duplicate-content",
        "co-located-pseudonyms",
    ]
    assert names[-4:] == [
        "position-confidence-m",
        "speed-confidence-mps",
        "heading-confidence-deg",
        "acceleration-confidence-mps2",
    ]
    scores = f.X[:, : len(names) - 4]
    assert ((scores >= 0) & (scores <= 1)).all()
    assert (f.X[:, -4:] >= 0).all() and (f.X[:, -4] > 0).all()
    assert list(f.frame().columns) == names
    assert set(honest.meta.columns) == {"log", "message_id", "sender_id", "sender_alias", "rcv_time_s", "attacker"}
    assert not honest.meta["attacker"].any()


def test_evidence_features_mark_the_replayed_messages(replayed):
    f = replayed.features()
    y = replayed.meta["attacker"].to_numpy()
    replay = f.X[:, f.names.index("content-replay")]
    assert y.sum() > 0
    # Replayed content is content heard before: most labelled messages carry the flag, and
    # no honest one does.
    assert (replay[y] == 0).mean() > 0.5
    assert (replay[~y] == 1).all()


def test_a_detector_that_flags_everything_has_recall_one(replayed):
    s = replayed.evaluate(lambda X: np.ones(len(X), dtype=bool), half="all", reps=200)
    # (An interval's lower end can be 0: a resample without attacking vehicles has no
    # positives, and its recall and F1 count as 0, NextGen's convention.)
    assert s.recall.value == s.recall.hi == 1.0
    assert s.fn == s.tn == 0 and s.tp > 0
    assert s.precision.value == pytest.approx(replayed.meta["attacker"].mean())


def test_a_perfect_oracle_scores_f1_one_with_an_object_with_predict(replayed):
    truth = replayed.meta["attacker"].to_numpy()

    class Oracle:
        def predict(self, X):
            assert X.shape[0] == len(truth)
            return truth.astype(int)

    for half in ("test", "tune", "all"):
        s = replayed.evaluate(Oracle(), half=half, reps=200)
        assert s.f1.value == s.f1.hi == 1.0 and s.accuracy.lo == 1.0, half
        assert s.fp == s.fn == 0 and s.tp > 0


def test_halves_split_by_vehicle(replayed):
    tune, test = replayed.in_half("tune"), replayed.in_half("test")
    assert (tune ^ test).all()
    ids = replayed.meta["sender_id"]
    assert not set(ids[tune]) & set(ids[test])
    # The test half is what score() counts by default.
    s = replayed.evaluate(lambda X: np.zeros(len(X), dtype=bool), reps=50)
    assert s.tp + s.tn + s.fp + s.fn == test.sum()


def test_builtin_detectors_run_and_match_their_predictions(replayed):
    for name in mbd.DETECTORS:
        p = replayed.predict(name)
        assert p.dtype == bool and len(p) == len(replayed)
        assert replayed.evaluate(name, reps=100) == replayed.score(p, reps=100)
    # The full detector holds replay state: it catches most replays, flags few honest ones.
    s = replayed.evaluate("full", half="all", reps=100)
    assert s.recall.value > 0.5 and s.precision.value > 0.8, s


def test_a_python_exception_in_the_detector_surfaces_as_itself(replayed):
    class Broken(Exception):
        pass

    def detector(X):
        raise Broken("model not fitted")

    with pytest.raises(Broken, match="model not fitted"):
        replayed.evaluate(detector)


def test_bad_predictions_and_names_are_typed_errors(replayed, tmp_path):
    n = len(replayed)
    with pytest.raises(ValueError, match="predictions for"):
        replayed.score(np.zeros(n - 1, dtype=bool))
    with pytest.raises(ValueError, match="NaN"):
        replayed.score(np.full(n, np.nan))
    with pytest.raises(ValueError, match="one value per row"):
        replayed.score(np.zeros((n, 2)))
    with pytest.raises(ValueError, match="catch-reference, plausibility, full"):
        replayed.evaluate("oracle")
    with pytest.raises(ValueError, match="unknown half"):
        replayed.evaluate("full", half="middle")
    with pytest.raises(ValueError, match="feignedBraking"):
        replayed.attack("noSuchAttack")
    with pytest.raises(TypeError):
        replayed.evaluate(42)
    with pytest.raises(v2xsec.DatasetError):
        mbd.Trace.nextgen(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text('[{"rcvTime": "soon"}]')
    with pytest.raises(v2xsec.DatasetError, match="bad.json"):
        mbd.Trace.nextgen(tmp_path / "bad.json")


def test_the_learned_detector_example_runs(repo):
    out = subprocess.run(
        [sys.executable, str(repo / "scenarios" / "mbd-learned-detector.py"), "--attack", "dataReplay", "--reps", "100"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "learned (logistic)" in out.stdout and "F1" in out.stdout
