// perf_gate: judges Google Benchmark results against a GPU's baseline. See cli.cpp (kUsage).
#include "gate/cli/cli.h"

int main(int argc, char** argv) { return gpuperf::gate::run_cli(argc, argv); }
