"""What scripts/benchmarks-profiler and scripts/benchmarks-instructions share: building Benchmarks'
`BenchmarkProfiler` and naming the machine they ran on."""

import os
import platform
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build():
    """Builds `BenchmarkProfiler` in release; returns (build folder, path of the binary).

    The build folder is BENCHMARK_SCRATCH_PATH, by default Benchmarks/.build.
    """
    scratch = os.environ.get("BENCHMARK_SCRATCH_PATH", os.path.join(ROOT, "Benchmarks", ".build"))
    subprocess.run(
        ["swift", "build", "-c", "release", "--product", "BenchmarkProfiler", "--scratch-path", scratch],
        cwd=os.path.join(ROOT, "Benchmarks"),
        check=True,
    )
    return scratch, os.path.join(scratch, "release", "BenchmarkProfiler")


def processor():
    """The CPU's model name, as scripts/benchmarks puts it in its stamp."""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def machine():
    """The system, kernel, CPU and core count, for a results file's stamp."""
    kernel = platform.release().split("-")[0]
    return f"{platform.system()} {platform.machine()} {kernel}, {processor()}, {os.cpu_count()} cores"
