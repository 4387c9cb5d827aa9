#!/usr/bin/env python3
"""The live testbed's table of docs/post-quantum.md: every experimental post-quantum design
beside IEEE 1609.2 P-256 in real station processes (`v2x testbed`), in one session.

    python3 scripts/post-quantum-testbed.py --v2x target/debug/v2x --reps 5 --duration 5 \
        --out out/post-quantum-testbed [--json docs/data/post-quantum-testbed.json]

Per design, REPS loopback runs (designs interleaved round by round, so that the shared
machine's load falls on all alike): 1 receiver (2 verifier threads), 3 benign senders at
20 Hz, one A-SIG-01 attacker (corrupted signature) at 10 Hz and one downgrade attacker at
10 Hz (`classical-downgrade`: valid 1609.2 ECDSA CAMs; for the P-256 reference, whose policy
has no post-quantum part, A-SIG-03: CAMs without security). Then one run per design through
the channel emulator's 802.11p (2 senders at 100 and 200 m, 10 Hz, 3 s): what is refused as
over one 2,304-octet MSDU, and the PDR.

Per run: benign CAMs sent and accepted, attack CAMs rejected with their reasons, end-to-end
latency (generation to verification end) p50 and p99, SN-DECAP time p50 (verify start to
end), SN-ENCAP time p50 (tx.csv encap_ns), process CPU per message (receiver: CPU s over the
datagrams it decided; senders: CPU s over the CAMs each sent; whole processes, start-up
included), datagram bytes with a digest and with the certificate. Every figure: the mean
over the runs with the half-width of its 95 % Student-t interval.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

DESIGNS = [
    ("ieee1609.2 P-256 (reference)", 'protocol = "ieee1609.2"', "A-SIG-03"),
    ("experimental-pq-only-ml-dsa-44", None, "classical-downgrade"),
    ("experimental-pq-only-fn-dsa-512", None, "classical-downgrade"),
    ("experimental-composite-ml-dsa-44", None, "classical-downgrade"),
    ("experimental-composite-fn-dsa-512", None, "classical-downgrade"),
    ("experimental-partially-hybrid-ndss2024", None, "classical-downgrade"),
]

# Two-sided 95 % Student-t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def mean_ci(xs):
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, T95.get(len(xs) - 1, 1.96) * sd / math.sqrt(len(xs))


def fmt(mh, digits=0):
    m, h = mh
    if m is None:
        return "n/a"
    if h is None:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def protocol_table(name, protocol):
    return protocol or f'protocol = "experimental-pq"\ndesign = "{name}"'


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def run(v2x, scenario, out):
    load = float(open("/proc/loadavg").read().split()[0])
    subprocess.run([v2x, "testbed", "--quiet", "--out", out, scenario], check=True)
    return load


def loopback_metrics(out, downgrade):
    s = json.load(open(os.path.join(out, "summary.json")))
    rx = s["receivers"]["rx0"]
    benign = rx["benign"]
    decided = sum(c["accepted"] + c["rejected"] + c["dropped"] for c in rx.values())
    tx = list(csv.DictReader(open(os.path.join(out, "tx.csv"))))
    benign_tx = [t for t in tx if t["case"] == "benign" and t["kind"]]
    sizes = sorted(int(t["bytes"]) for t in benign_tx)
    # Digest and certificate messages differ by the certificate (hundreds of octets at least).
    split = (sizes[0] + sizes[-1]) / 2
    senders = sorted({t["station"] for t in benign_tx})
    sender_cpu = [s["processes"][n]["cpu_s"] * 1e6 / sum(1 for t in benign_tx if t["station"] == n) for n in senders]
    attack = {c: rx.get(c, {}) for c in ("A-SIG-01", downgrade)}
    return {
        "sent": benign["sent"],
        "accepted": benign["accepted"],
        "e2e_p50_us": benign["e2e"]["p50_us"],
        "e2e_p99_us": benign["e2e"]["p99_us"],
        "decap_p50_us": benign["verify"]["p50_us"],
        "encap_p50_us": median([int(t["encap_ns"]) / 1e3 for t in benign_tx]),
        "rx_cpu_us_per_msg": s["processes"]["rx0"]["cpu_s"] * 1e6 / decided if decided else None,
        "tx_cpu_us_per_msg": sum(sender_cpu) / len(sender_cpu),
        "bytes_digest": median([b for b in sizes if b <= split]) if sizes[-1] - sizes[0] > 100 else None,
        "bytes_certificate": median([b for b in sizes if b > split]) if sizes[-1] - sizes[0] > 100 else sizes[-1],
        "attacks": {c: {"sent": a.get("sent", 0), "accepted": a.get("accepted", 0), "reasons": a.get("reasons", {})}
                    for c, a in attack.items()},
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--v2x", default="target/debug/v2x")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--out", default="out/post-quantum-testbed")
    ap.add_argument("--json")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "scenarios"), exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    runs = {name: [] for name, _, _ in DESIGNS}
    loads = []
    for rep in range(a.reps):
        for i, (name, protocol, downgrade) in enumerate(DESIGNS):
            scenario = os.path.join(a.out, "scenarios", f"loopback-{i}.toml")
            with open(scenario, "w") as f:
                f.write(f"duration_s = {a.duration}\nreceivers = 1\nsenders = 3\nrate_hz = 20.0\n"
                        f"[protocol]\n{protocol_table(name, protocol)}\n[receiver]\nverifier_threads = 2\n"
                        f"[[attackers]]\ncase = \"A-SIG-01\"\nrate_hz = 10.0\n"
                        f"[[attackers]]\ncase = \"{downgrade}\"\nrate_hz = 10.0\n")
            out = os.path.join(a.out, f"loopback-{i}-{rep}")
            print(f"{name} run {rep + 1}/{a.reps}", file=sys.stderr)
            loads.append(run(a.v2x, scenario, out))
            m = loopback_metrics(out, downgrade)
            m["load_average_before"] = loads[-1]
            runs[name].append(m)
    emulated = {}
    for i, (name, protocol, _) in enumerate(DESIGNS):
        scenario = os.path.join(a.out, "scenarios", f"emulator-{i}.toml")
        with open(scenario, "w") as f:
            f.write(f"duration_s = 3.0\nreceivers = 1\nsenders = 2\nrate_hz = 10.0\n[protocol]\n"
                    f"{protocol_table(name, protocol)}\n[medium]\nkind = \"emulator\"\n"
                    f"sender_distances_m = [100.0, 200.0]\nseed = 1\n")
        out = os.path.join(a.out, f"emulator-{i}")
        run(a.v2x, scenario, out)
        s = json.load(open(os.path.join(out, "summary.json")))
        links = s.get("links", [])
        emulated[name] = {
            "sent": sum(l["sent"] for l in links),
            "refused_oversize": sum(l["channel"]["refused_oversize"] for l in links),
            "received": sum(l["received"] for l in links),
            "accepted": sum(l["accepted"] for l in links),
        }
    finished = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    rows = []
    for name, _, downgrade in DESIGNS:
        rs = runs[name]
        col = lambda k: mean_ci([r[k] for r in rs])
        reasons = {}
        for c in ("A-SIG-01", downgrade):
            for r in rs:
                for k, v in r["attacks"][c]["reasons"].items():
                    reasons.setdefault(c, {}).setdefault(k, 0)
                    reasons[c][k] += v
        rows.append({
            "design": name, "downgrade_case": downgrade,
            "sent": sum(r["sent"] for r in rs), "accepted": sum(r["accepted"] for r in rs),
            "attack_sent": {c: sum(r["attacks"][c]["sent"] for r in rs) for c in ("A-SIG-01", downgrade)},
            "attack_accepted": {c: sum(r["attacks"][c]["accepted"] for r in rs) for c in ("A-SIG-01", downgrade)},
            "reasons": reasons,
            **{k: col(k) for k in ("e2e_p50_us", "e2e_p99_us", "decap_p50_us", "encap_p50_us", "rx_cpu_us_per_msg",
                                   "tx_cpu_us_per_msg", "bytes_digest", "bytes_certificate")},
            "emulator": emulated[name],
            "runs": rs,
        })
    print(f"runs {started} – {finished}; load average (1 min) before the runs: "
          f"{min(loads):.1f} … {max(loads):.1f}")
    print("\n| design | bytes digest / certificate | benign sent / verified | A-SIG-01 rejected (reason) "
          "| downgrade rejected (reason) | E2E p50 µs | E2E p99 µs | SN-ENCAP p50 µs | SN-DECAP p50 µs "
          "| receiver CPU µs/msg | sender CPU µs/msg | 802.11p (emulator): refused oversize / sent, verified |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        def rej(c):
            sent, acc = r["attack_sent"][c], r["attack_accepted"][c]
            why = ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].get(c, {}).items()))
            return f"{sent - acc} / {sent} ({c}: {why})"
        e = r["emulator"]
        print(f"| {r['design']} | {fmt(r['bytes_digest'])} / {fmt(r['bytes_certificate'])} "
              f"| {r['sent']} / {r['accepted']} | {rej('A-SIG-01')} | {rej(r['downgrade_case'])} "
              f"| {fmt(r['e2e_p50_us'])} | {fmt(r['e2e_p99_us'])} | {fmt(r['encap_p50_us'])} "
              f"| {fmt(r['decap_p50_us'])} | {fmt(r['rx_cpu_us_per_msg'])} | {fmt(r['tx_cpu_us_per_msg'])} "
              f"| {e['refused_oversize']} / {e['sent']}, {e['accepted']} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"command": " ".join(sys.argv), "started": started, "finished": finished, "reps": a.reps,
                       "duration_s": a.duration, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
