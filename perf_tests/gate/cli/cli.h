#pragma once
// perf_gate's command line: a thin shell that parses arguments, calls the library and maps the outcome
// to an exit code (formats/exit_codes.h). The commands and their options are one table (cli.cpp), each
// command one function (commands.h), its help written from the table (help.h). main() only calls
// run_cli, so tests run the real CLI in-process.

#include <ostream>
#include <string>
#include <vector>

namespace gpuperf::gate {

int run_cli(int argc, char** argv);
// `args` without the program name; reports go to `out`, errors and usage to `err`.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate
