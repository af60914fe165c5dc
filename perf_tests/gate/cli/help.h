#pragma once
// perf_gate's help, written from the command table (command.h): `perf_gate --help` lists the commands, one
// line each; `perf_gate COMMAND --help` (or `perf_gate help COMMAND`) shows one command whole. Pure
// functions of the table, so a test can hold them to it.

#include <string>
#include <vector>

#include "gate/cli/command.h"

namespace gpuperf::gate::cli {

// The commands, each with its purpose, then the forms that are not commands (`--version`, `help`), the
// exit codes and the rules for files.
std::string command_list_text(const std::vector<Command>& commands);

// One command: its purpose, its paragraph of the usage, then each option with its argument and meaning,
// and the exit codes.
std::string command_help_text(const Command& command);

// The line after an argument error: where the help is ("" command: the list of commands).
std::string help_pointer_line(const std::string& command);

}  // namespace gpuperf::gate::cli
