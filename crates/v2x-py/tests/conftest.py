import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def repo():
    return REPO


@pytest.fixture
def small_spec(repo):
    return repo / "scenarios" / "sweeps" / "small-ecdsa-cores.toml"


# A scenario small enough for a round trip in well under a second.
TINY = {
    "name": "tiny",
    "duration_s": 1.0,
    "warmup_s": 0.2,
    "seed": 3,
    "replications": 2,
    "mobility": {"kind": "highway", "length_m": 400.0, "lanes_per_direction": 1, "density_veh_per_km_lane": 30.0},
    "variant": [
        {"name": "plain", "protocol": "none"},
        {"name": "ecdsa", "protocol": "ieee1609.2", "verify_cost_us": 2000.0, "sign_cost_us": 500.0},
    ],
}


@pytest.fixture
def tiny():
    import copy

    return copy.deepcopy(TINY)
