// A program's own flags as one table, from which both what it recognises and its --help come: a flag
// cannot be parsed without being documented, nor documented without being parsed. The benchmark program's
// table is bench_flags.cpp; the correctness program's is in correctness_main.cpp.
//
// A flag is a switch (--name) or takes a value (--name=VALUE; the last given wins; an empty value is as
// none). Arguments the table does not name are left where they are, for the library the program hands
// them to (Google Benchmark, GoogleTest), which refuses the ones it does not know either.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace gpuperf {

// A flag of the table misused: a switch given a value, a value flag given none. Exit 2.
class FlagError : public std::invalid_argument {
 public:
  explicit FlagError(const std::string& message) : std::invalid_argument(message) {}
};

// One flag of `Options`, the struct its value lands in: exactly one of `on` and `set` is given.
template <typename Options>
struct ProgramFlag {
  const char* name;     // "--time-filter"
  const char* value;    // the placeholder of a value flag ("REGEX": --time-filter=REGEX); nullptr for a switch
  const char* meaning;  // sentences, wrapped by the help
  bool Options::*on = nullptr;                                   // a switch: set true when given
  void (*set)(Options& options, std::string value) = nullptr;  // a value flag: stores its value
};

// "--name" or "--name=VALUE", as the help and the messages write a flag.
template <typename Options>
std::string flag_form(const ProgramFlag<Options>& flag) {
  return std::string(flag.name) + (flag.value != nullptr ? std::string("=") + flag.value : "");
}

// The words of `text` after `indent` spaces, in lines of at most `width` columns (a longer word on a line
// of its own), each ending in '\n'.
std::string wrapped(const std::string& text, int indent, int width);

// The help: `before` (as given), then each flag of `flags` in table order, its form on one line and its
// meaning wrapped under it, then `after` (as given).
template <typename Options>
std::string flags_help(const std::string& before, const std::vector<ProgramFlag<Options>>& flags,
                       const std::string& after) {
  constexpr int kIndent = 6, kWidth = 100;  // [columns]
  std::string text = before;
  for (const ProgramFlag<Options>& flag : flags) {
    text += "  " + flag_form(flag) + "\n" + wrapped(flag.meaning, kIndent, kWidth);
  }
  return text + after;
}

// Takes the flags of `flags` out of argv (argc updated; the others kept, in order) into an Options.
// FlagError, naming the flag and its form, when one of them is misused.
template <typename Options>
Options take_flags(const std::vector<ProgramFlag<Options>>& flags, int& argc, char** argv) {
  Options options{};
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const ProgramFlag<Options>* match = nullptr;
    for (const ProgramFlag<Options>& flag : flags) {
      if (name == flag.name) match = &flag;
    }
    if (match == nullptr) {
      argv[kept++] = argv[i];
      continue;
    }
    if (match->on != nullptr) {
      if (equals != std::string::npos) throw FlagError(name + " takes no value: give " + flag_form(*match));
      options.*(match->on) = true;
    } else {
      if (equals == std::string::npos) throw FlagError(name + " needs a value: give " + flag_form(*match));
      match->set(options, arg.substr(equals + 1));
    }
  }
  argc = kept;
  argv[argc] = nullptr;  // as main's argv ends
  return options;
}

}  // namespace gpuperf
