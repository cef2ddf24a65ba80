#!/usr/bin/env python3
"""Turns the benchmark tool's Influx CSV export into Benchmarks/Results/results.md and ratios.png.

Benchmark names are `group:variant`. In each group, `limit` is the raw floor (POSIX calls with the same codec and
durability) and every other variant is shown as a ratio of it; a group without a limit is measured against its
first peer. The cross-process latency (KVStreamLatency's samples, kv-stream-latency.csv in a run's folder) gets a
section of its own. Usage: benchmarks-report.py RAW_CSV_FOLDER RESULTS_FOLDER MACHINE_DESCRIPTION [DATE]
"""

import csv
import datetime
import glob
import os
import statistics
import sys

# The inner loop of these groups runs 1,000 operations per sample (scalingFactor .kilo in the benchmarks): every
# group under these prefixes, and these groups exactly. A fan-out to 1,000 observers runs one set per sample.
SCALED_PREFIXES = ("kv.memory.",)
SCALED_GROUPS = {"file.load.1KiB", "file.load.1KiB.depth1", "file.load.1KiB.depth4", "file.load.1KiB.top.mainActor",
                 "file.load.1KiB.depth4.mainActor", "file.sqlite.load.1KiB", "vault.get", "kv.reactive.fanout100",
                 "kv.reactive.otherkey1000"}
# Groups whose sample runs a fixed number of operations of their own (not the harness's scaling factor).
OPERATIONS_PER_SAMPLE = {"kv.reactive.disk.fanout100": 10}
# The targets: ours divided by the limit must stay within these.
TARGETS = {
    "kv.memory.get": 3.0,
    "kv.disk.get": 1.3,
    "kv.disk.set": 1.3,
    "kv.disk.set.flushed": 1.3,
    "file.save.1KiB": 1.25,
    "file.save.1KiB.flushed": 1.25,
    "file.save.64MiB": 1.25,
    "file.load.1KiB": 1.25,
    "file.load.64MiB": 1.25,
    "file.save.1KiB.depth1": 1.25,
    "file.save.1KiB.depth4": 1.25,
    "file.load.1KiB.depth1": 1.25,
    "file.load.1KiB.depth4": 1.25,
    "kv.disk.open.100000": 2.0,
    "vault.open.100000": 2.0,
    "file.list.10000": 1.5,
    "file.totalSize.10000": 1.5,
    "vault.get": 1.3,
    "vault.set": 1.3,
    "kv.reactive.fanout1000": 1.5,
    "kv.reactive.disk.fanout1000": 1.5,
    "postgres.kv.get": 1.3,
    "postgres.kv.set": 1.3,
    "postgres.kv.stream": 1.3,
}
ORDER = ["kv.memory", "kv.defaults", "kv.disk", "kv.reactive", "file.save", "file.load", "file.list", "file.totalSize",
         "vault", "postgres"]
# KVStreamLatency's samples in a run's folder: a line per turn, `sample` then a column per `group:variant` (ns).
LATENCY_FILE = "kv-stream-latency.csv"


def read_results(folder):
    """({(group, variant): {"best": ns, "median": ns, "runs": {run: ns}, "allocations": count}}, runs) from every
    CSV the tool wrote, each run in its own subfolder of `folder`.

    "median" is the median of the runs' medians (p50) and "runs" each run's median; "best" is the fastest sample of
    any run (p0); allocations are the median of the runs' medians.
    """
    samples = {}
    per_run = {}
    for path in glob.glob(os.path.join(folder, "**", "*.csv"), recursive=True):
        if os.path.basename(path) == LATENCY_FILE:
            continue
        run = os.path.relpath(path, folder).split(os.sep)[0]
        with open(path, newline="") as handle:
            lines = [line for line in handle if not line.startswith("#")]
        for row in csv.DictReader(lines):
            percentile = row.get("percentile")
            test = row.get("test", "").strip('"')
            if percentile not in ("0.0", "0", "50.0", "50") or ":" not in test:
                continue
            group, variant = test.rsplit(":", 1)
            scale = 1000 if group in SCALED_GROUPS or group.startswith(SCALED_PREFIXES) else 1
            scale *= OPERATIONS_PER_SAMPLE.get(group, 1)
            value = float(row["value"]) / scale
            metric = row["metric"].lower()
            if "wall" in metric:
                name = "best" if float(percentile) == 0 else "median"
            elif "malloc" in metric and float(percentile) == 50:
                name = "allocations"
            else:
                continue
            samples.setdefault((group, variant), {}).setdefault(name, []).append(value)
            if name == "median":
                per_run.setdefault((group, variant), {})[run] = value
    runs = max((len(values) for metrics in samples.values() for values in metrics.values()), default=0)
    results = {
        key: {name: min(values) if name == "best" else statistics.median(values) for name, values in metrics.items()}
        for key, metrics in samples.items()
    }
    for key, values in per_run.items():
        results[key]["runs"] = values
    return results, runs


def read_latency(folder):
    """{run: {(group, variant): [nanoseconds, ...]}} from each run's LATENCY_FILE."""
    runs = {}
    for path in glob.glob(os.path.join(folder, "**", LATENCY_FILE), recursive=True):
        run = os.path.relpath(path, folder).split(os.sep)[0]
        with open(path, newline="") as handle:
            for row in csv.DictReader(handle):
                for test, nanoseconds in row.items():
                    if test == "sample" or ":" not in test:
                        continue
                    group, variant = test.rsplit(":", 1)
                    runs.setdefault(run, {}).setdefault((group, variant), []).append(int(nanoseconds))
    return runs


def nearest_rank(values, percent):
    """The `percent` percentile of `values` by nearest rank, as KVStreamLatency prints it."""
    ordered = sorted(values)
    rank = -(-len(ordered) * percent // 100)
    return ordered[max(1, min(len(ordered), rank)) - 1]


def latency_rows(runs):
    """One row per (group, variant): the median over the runs of each run's median and 99th percentile, the fastest
    and slowest sample of all runs, and the median over the runs of each run's ratios to the limit's median and
    99th percentile (the variants took turns within a run)."""
    per_run = {}
    for run, tests in runs.items():
        for key, samples in tests.items():
            per_run.setdefault(key, {})[run] = {
                "median": nearest_rank(samples, 50),
                "p99": nearest_rank(samples, 99),
                "min": min(samples),
                "max": max(samples),
                "count": len(samples),
            }
    order = {"ours": 0, "limit": 1}
    rows = []
    for group, variant in sorted(per_run, key=lambda key: (key[0], order.get(key[1], 2), key[1])):
        figures = per_run[(group, variant)]
        base = per_run.get((group, "limit"), {})

        def ratio(name):
            ratios = [figures[run][name] / base[run][name] for run in figures if run in base]
            return statistics.median(ratios) if ratios else None

        rows.append({
            "group": group,
            "variant": variant,
            "median": statistics.median(f["median"] for f in figures.values()),
            "p99": statistics.median(f["p99"] for f in figures.values()),
            "min": min(f["min"] for f in figures.values()),
            "max": max(f["max"] for f in figures.values()),
            "count": min(f["count"] for f in figures.values()),
            "ratio": ratio("median"),
            "p99 ratio": ratio("p99"),
        })
    return rows


def paired_ratio(metrics, base):
    """The median over the runs of each run's median over the baseline's median in the same run."""
    ours, theirs = metrics.get("runs", {}), base.get("runs", {})
    ratios = [ours[run] / theirs[run] for run in ours if theirs.get(run)]
    return statistics.median(ratios) if ratios else None


def sort_key(group):
    for index, prefix in enumerate(ORDER):
        if group.startswith(prefix):
            return (index, group)
    return (len(ORDER), group)


def format_time(nanoseconds):
    if nanoseconds >= 1_000_000:
        return f"{nanoseconds / 1_000_000:.2f} ms"
    if nanoseconds >= 1_000:
        return f"{nanoseconds / 1_000:.2f} µs"
    return f"{nanoseconds:.0f} ns"


def main():
    raw, out, machine = sys.argv[1], sys.argv[2], sys.argv[3]
    results, runs = read_results(raw)
    latency_runs = read_latency(raw)
    latency = latency_rows(latency_runs)
    if not results and not latency:
        sys.exit("no benchmark results found in " + raw)
    runs = max(runs, len(latency_runs))
    groups = sorted({group for group, _ in results}, key=sort_key)
    date = sys.argv[4] if len(sys.argv) > 4 else datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")

    rows = []
    for group in groups:
        variants = [variant for g, variant in results if g == group]
        if "ours" not in variants:
            print(f"warning: {group} has no result for ours", file=sys.stderr)
            continue
        limits = [v for v in ("limit", "limit awaited") if v in variants]
        baseline = "limit" if "limit" in variants else next((v for v in variants if v != "ours"), "ours")
        base = results[(group, baseline)]
        ordered = ["ours"] + limits + sorted(v for v in variants if v not in ["ours"] + limits)
        for variant in ordered:
            metrics = results[(group, variant)]
            best, median = metrics.get("best"), metrics.get("median")
            rows.append({
                "group": group,
                "variant": variant,
                "baseline": baseline,
                "best": best,
                "best ratio": best / base["best"] if best is not None and base.get("best") else None,
                "median": median,
                "ratio": paired_ratio(metrics, base),
                "allocations": metrics.get("allocations"),
            })

    def ratio_text(value):
        return f"{value:.2f}x" if value is not None else "–"

    lines = [
        "# ForgeStorage benchmarks",
        "",
        f"Taken {date} on {machine}, by `scripts/benchmarks` (ordo-one/benchmark, release build)"
        + (f", {runs} runs of the whole suite." if runs > 1 else ", one run of the whole suite."),
        "",
        "Each operation of ours beside its **limit** (the fewest POSIX calls with the same JSON codec and the same",
        "durability, or a locked dictionary in memory) and beside the **peer** a team would use instead. *Median*",
        "is the median of the runs' median times. *Ratio* is taken within each run (the variant's median over the",
        "limit's median in the same run) and is the median of those; the targets are checked on it. A shared",
        "machine runs whole runs faster or slower, so only figures from one run are compared with each other.",
        "*Best* is the fastest sample of all runs, with its ratio: noise only adds time, so for work that does not",
        "wait on a device it shows the operation's own cost. Ratios are over the group's limit (or, where there is",
        "no limit, over the first peer). Allocations are mallocs per operation (median). *Limit awaited* is the",
        "limit called with `await` in an async benchmark, as an async store is called: the harness runs async",
        "benchmarks in a task and sync ones on its own thread, and on a shared machine that alone can differ.",
        "",
        "Operations that take a few microseconds or less (in-memory access, reactive fan-out to 100 observers,",
        "1 KiB loads, vault reads) run 1,000 times per sample, for every variant alike, and their figures are",
        "divided by 1,000: the harness's own cost per sample would otherwise be measured with them. The disk",
        "fan-out to 100 observers runs 10 sets per sample (figures divided by 10), so that the folder watch's",
        "work after each set overlaps the next set measured.",
        "",
        "| operation | variant | median / op | ratio | best / op | best ratio | allocations / op | target | met |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: |",
    ]
    for row in rows:
        group, variant, baseline, ratio = row["group"], row["variant"], row["baseline"], row["ratio"]
        target = TARGETS.get(group) if variant == "ours" else None
        met = "" if target is None or ratio is None else ("yes" if ratio <= target else "**no**")
        allocations = row["allocations"]
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                group,
                variant if variant != baseline or variant == "limit" else f"{variant} (baseline)",
                format_time(row["median"]) if row["median"] is not None else "–",
                ratio_text(ratio),
                format_time(row["best"]) if row["best"] is not None else "–",
                ratio_text(row["best ratio"]),
                f"{allocations:.1f}".rstrip("0").rstrip(".") if allocations is not None else "–",
                f"≤ {target}x" if target else "",
                met,
            )
        )
    lines += [
        "",
        "Peers: `UserDefaults` directly; `Data.write(options: .atomic)` and `Data(contentsOf:)`; a SQLite key-value",
        "table through GRDB.swift (WAL, `synchronous = NORMAL`, so no flush per commit, like the other stores);",
        "`FileManager`. Vault limit: `AES.GCM` from swift-crypto plus the same write (temporary file, `fsync`,",
        "`rename`, `fsync` of the folder). Reactive limit: a locked value (on disk, a plain `DiskKVStore` set and",
        "a locked value) and 100 or 1,000 `AsyncStream` continuations, each value awaited by every observer.",
        "`kv.reactive.otherkey1000` sets a key nobody observes while 1,000 streams observe another: *ours* beside",
        "*none* (the wrapper with no stream) is what those streams cost; the limit is the wrapped store's own set.",
        "In the `fanout100` groups *none* is the same set through the wrapper with no stream: *ours* beside it is",
        "what 100 observers cost. Over a `DiskKVStore` (`kv.reactive.disk.*`) a live stream also keeps the",
        "folder's inotify watch (for other processes' writes), so each set of *ours* is read back once more when",
        "its notification arrives, on the watch's queue; *none* has no stream and so no watch.",
        "The `depth1` and `depth4` groups save and load `avatars/current.bin` and `nested/a/b/c/f.bin`; the limit",
        "opens the same path. The `open.100000` groups open a store of 100,000 items and read one: *ours* is",
        "the first open of that folder in the process (through a fresh link to it, so each sample is a first open,",
        "which starts the sweep of crashed writers' leftovers); the limit is a later open of the same store.",
        "",
        "The `.flushed` groups compare at equal durability: a write that has returned survives a power loss. Ours is",
        "the store with `durability: .flushed`; the limit writes a temporary file, `fsync`s it, renames it and",
        "`fsync`s the folder (`F_FULLFSYNC` on Apple platforms). Peers: the same SQLite table with",
        "`synchronous = FULL`, in a `DatabaseQueue` (*GRDB*: SQLite's rollback journal, `DELETE`, as GRDB leaves a",
        "queue; four `fdatasync`s per commit, and the journal's removal is not flushed, which only `EXTRA` does) and",
        "in a `DatabasePool` (*GRDB.WAL*: one `fdatasync` of the log per commit); `UserDefaults` `set` with a",
        "changed value followed by `synchronize()`, all it offers for durability (on Linux it truncates and rewrites",
        "the plist in place, then `fsync`s it: flushed, but a crash mid-write can leave the plist torn).",
        "`Data.write(options: .atomic)` does not flush, so the flushed file group has no peer.",
        "",
        "The `postgres.kv.*` groups run against a local PostgreSQL server on the loopback, which",
        "scripts/postgres-for-tests starts. *Ours* is `PostgresKVStore`; the limit sends the store's own SQL through",
        "postgres-nio on a connection leased from the same `PostgresClient`, with the library's JSON settings;",
        "*DiskKVStore* is the disk store's same operation, for scale. `postgres.kv.stream` is the time from a set",
        "to its value out of a stream of the key: the store's `stream(key)` beside a raw `LISTEN` that, notified by",
        "the same trigger, sends the same read. *limit.leaseWait* is the limit leased as the store leases (the",
        "statement in a child task, raced against a sleep of the connection wait): what that alone costs.",
    ]
    if latency:
        count = min(row["count"] for row in latency)
        lines += [
            "",
            "## Cross-process latency",
            "",
            "The time from just before a write in one process to its value in another process, measured by",
            "`KVStreamLatency` outside the harness (the time is made in another process), "
            + f"{count:,} writes per variant in each",
            "run, the variants taking turns, each write asked for once the last was seen. The writing child stamps",
            "each value with `CLOCK_MONOTONIC` (one clock for every process) just before writing it; the observer",
            "subtracts the stamp from its own reading once it holds the decoded value. *Ours*: the child `set`s a",
            "`DiskKVStore` key, the observer awaits it in a `ReactiveKVStore` stream over the same folder. *Limit*:",
            "the child writes a temporary file and renames it over the value's file, the observer waits in a",
            "blocking `read` of an inotify descriptor on the folder (the same events the library asks for), then",
            "reads and decodes the file. *Limit awaited*: the same, the descriptor read by a dispatch source that",
            "hands each rename to the waiting task through an `AsyncStream`: the two thread hops any async",
            "observer makes, so *limit awaited* beside *limit* is what those hops cost and *ours* beside *limit",
            "awaited* what the library adds to them. *Median* and *p99* are the median over the runs of each run's",
            "figure; *min* and *max* are over all runs; the ratios are taken within each run over the limit's",
            "figure, then their median.",
            "",
            "| operation | variant | median | p99 | min | max | ratio | p99 ratio |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in latency:
            lines.append(
                "| {} | {} | {} | {} | {} | {} | {} | {} |".format(
                    row["group"],
                    row["variant"],
                    format_time(row["median"]),
                    format_time(row["p99"]),
                    format_time(row["min"]),
                    format_time(row["max"]),
                    ratio_text(row["ratio"]),
                    ratio_text(row["p99 ratio"]),
                )
            )
    lines += [
        "",
        "![Ratios to the limit](ratios.png)",
        "",
    ]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.md"), "w") as handle:
        handle.write("\n".join(lines))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels, values, colors, targets = [], [], [], []
    palette = {"ours": "#2b6cb0"}
    for row in rows:
        group, variant, baseline, ratio = row["group"], row["variant"], row["baseline"], row["ratio"]
        if ratio is None or variant in ("limit", baseline):
            continue
        labels.append(f"{group} · {variant}")
        values.append(ratio)
        colors.append(palette.get(variant, "#a0aec0"))
        targets.append(TARGETS.get(group) if variant == "ours" else None)
    # The latency's median ratios too, after the harness's.
    for row in latency:
        if row["variant"] != "limit" and row["ratio"] is not None:
            labels.append(f"{row['group']} · {row['variant']} (latency)")
            values.append(row["ratio"])
            colors.append(palette.get(row["variant"], "#a0aec0"))
            targets.append(None)
    height = max(4, 0.32 * len(labels) + 1.5)
    figure, axis = plt.subplots(figsize=(10, height))
    positions = list(range(len(labels)))[::-1]
    axis.barh(positions, values, color=colors)
    for position, target in zip(positions, targets):
        if target:
            axis.plot([target, target], [position - 0.4, position + 0.4], color="#c53030", linewidth=2)
    for position, value in zip(positions, values):
        axis.text(value * 1.03, position, f"{value:.2f}x", va="center", fontsize=7)
    axis.axvline(1.0, color="black", linewidth=0.8)
    axis.set_xscale("log")
    axis.set_yticks(positions)
    axis.set_yticklabels(labels, fontsize=8)
    axis.set_xlabel(
        "median time / limit's in the same run (log scale; 1 = the limit; red tick = target; blue = ForgeStorage,"
        " grey = peer)")
    axis.set_title(f"ForgeStorage beside the limit and its peers, {date}\n{machine}", fontsize=9)
    figure.tight_layout()
    figure.savefig(os.path.join(out, "ratios.png"), dpi=110)


if __name__ == "__main__":
    main()
