// perf_gate: judges Google Benchmark results against a GPU's baseline. Its commands: cli.cpp; `perf_gate --help`.
#include "gate/cli/cli.h"

int main(int argc, char** argv) { return gpuperf::gate::run_cli(argc, argv); }
