#include "gate/driver/process_progress.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "formats/escape.h"
#include "gate/driver/console.h"

namespace gpuperf::gate::driver {
namespace {

// The whole lines of `text` (a last line without its newline is still being written), colour codes
// (ESC [ ... m, where a team forces colour) removed.
std::vector<std::string> progress_whole_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
      line.clear();
    } else if (c == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      while (i < text.size() && text[i] != 'm') ++i;
    } else {
      line += c;
    }
  }
  return lines;
}

std::vector<std::string> progress_words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// A run's name without the suffix of Google Benchmark's built-in aggregates.
std::string gbench_progress_base(const std::string& name) {
  for (const std::string suffix : {"_mean", "_median", "_stddev", "_cv"}) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return name.substr(0, name.size() - suffix.size());
    }
  }
  return name;
}

// Whether the words are a console result row: a name, then a time ("12.3 us"), or the words Google
// Benchmark writes for a benchmark that failed or skipped itself. Anything else the suite prints is not.
bool gbench_progress_row(const std::vector<std::string>& words) {
  if (words.size() < 2) return false;
  const std::string& second = words[1];
  return std::isdigit(static_cast<unsigned char>(second[0])) != 0 || second == "ERROR" || second == "SKIPPED" ||
         second.rfind("SKIPPED:", 0) == 0 || second == "-nan" || second == "nan" || second == "inf";
}

std::string progress_seconds_text(double seconds) { return std::to_string(static_cast<long long>(seconds + 0.5)) + " s"; }

}  // namespace

LogProgress gbench_log_progress(const std::string& log_text) {
  LogProgress progress;
  bool in_results = false;
  for (const std::string& line : progress_whole_lines(log_text)) {
    const std::vector<std::string> words = progress_words(line);
    if (!in_results) {
      in_results = words.size() >= 3 && words[0] == "Benchmark" && words[1] == "Time" && words[2] == "CPU";
      continue;
    }
    // Rows start at the line's first column; the header's rule and a suite's indented output do not count.
    if (line.empty() || std::isspace(static_cast<unsigned char>(line[0])) != 0 || line[0] == '-') continue;
    if (!gbench_progress_row(words)) continue;
    // A benchmark's rows come together: its repetitions, then its aggregates ("<name>_mean", and a custom
    // statistic's "<name>_<statistic>"). A benchmark named like another's aggregate, right after it, would
    // be counted with it.
    const std::string base = gbench_progress_base(words[0]);
    const std::string& current = progress.last_finished;
    const bool same = progress.finished > 0 && (base == current || base.rfind(current + "_", 0) == 0);
    if (!same) {
      ++progress.finished;
      progress.last_finished = base;
    }
  }
  return progress;
}

LogProgress nvbench_log_progress(const std::string& log_text) {
  LogProgress progress;
  int runs = 0;  // "Run:" lines, for a version that does not count them itself
  for (const std::string& line : progress_whole_lines(log_text)) {
    if (line.rfind("Run:", 0) != 0) continue;
    ++runs;
    std::string state = line.substr(4);
    state.erase(0, state.find_first_not_of(' '));
    int index = 0;
    int total = 0;
    char close = 0;
    int consumed = 0;
    if (std::sscanf(state.c_str(), "[%d/%d%c %n", &index, &total, &close, &consumed) == 3 && close == ']' &&
        consumed > 0 && index >= 1 && total >= index) {
      progress.finished = index - 1;
      progress.total = total;
      state.erase(0, static_cast<std::size_t>(consumed));
    } else {
      progress.finished = runs - 1;
    }
    if (!progress.running.empty()) progress.last_finished = progress.running;
    progress.running = state;
  }
  return progress;
}

std::optional<double> expected_process_s(const LogProgress& progress, std::optional<int> total, double elapsed_s,
                                         std::optional<double> previous_s) {
  if (previous_s) return previous_s;
  if (total && *total > 0 && progress.finished > 0) return elapsed_s * *total / progress.finished;
  return std::nullopt;
}

std::string progress_line(const LogProgress& progress, std::optional<int> total, double elapsed_s,
                          std::optional<double> expected_s) {
  const std::string unit = progress.total ? "states" : "benchmarks";
  std::string what;
  // The names come from the suite's own output: escaped for the console and a CI log.
  if (!progress.running.empty()) {
    what = "running " + formats::escape_console(progress.running) + ": ";
  } else if (progress.finished > 0) {
    what = formats::escape_console(progress.last_finished) + " finished: ";
  }
  if (progress.finished == 0) {
    what += "none of the " + unit + " finished yet";
  } else {
    what += std::to_string(progress.finished) + (total ? " of " + std::to_string(*total) : "") + " " + unit + " done";
  }
  if (total) {
    what += ", " + std::to_string(*total > progress.finished ? *total - progress.finished : 0) + " left";
  } else {
    what += " (how many are left is not known yet)";
  }
  std::string line = "progress: " + what + "; " + progress_seconds_text(elapsed_s) + " so far";
  line += expected_s ? ", about " + progress_seconds_text(*expected_s) + " expected"
                     : " (first process, no estimate yet)";
  return line;
}

ProcessOutcome ProcessProgress::run(const ProcessSpec& spec, const std::string& selection,
                                    std::optional<int> known_total, std::ostream& err) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const auto past = past_.find(selection);
  const std::optional<double> previous_s =
      past == past_.end() ? std::nullopt : std::optional<double>(past->second.seconds);
  if (!known_total && past != past_.end()) known_total = past->second.finished;
  Clock::time_point last_read = start;
  Clock::time_point last_line = start;
  std::string text;  // the log so far
  std::streamoff read_to = 0;
  LogProgress progress;
  const auto read_log = [&] {
    std::ifstream in(spec.log_path, std::ios::binary);
    if (!in.seekg(read_to)) return;
    text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    read_to = static_cast<std::streamoff>(text.size());
    progress = reader_(text);
  };
  const auto watch = [&]() noexcept {
    try {
      const Clock::time_point now = Clock::now();
      if (now - last_read < std::chrono::milliseconds(kProgressReadMs)) return;
      last_read = now;
      const int finished_before = progress.finished;
      read_log();
      const bool one_finished = progress.finished > finished_before;
      const auto since_line = now - last_line;
      if (!(one_finished && since_line >= std::chrono::seconds(kProgressMinGapS)) &&
          since_line < std::chrono::seconds(kProgressEveryS)) {
        return;
      }
      last_line = now;
      const double elapsed_s = std::chrono::duration<double>(now - start).count();
      const std::optional<int> total = progress.total ? progress.total : known_total;
      note(err, progress_line(progress, total, elapsed_s, expected_process_s(progress, total, elapsed_s, previous_s)));
      err.flush();
    } catch (...) {
      // Progress is a courtesy: a log that cannot be read leaves the process to run unwatched.
    }
  };
  const ProcessOutcome outcome = spec.log_path.empty() ? run_process(spec) : run_process(spec, watch);
  if (outcome.succeeded() && !spec.log_path.empty()) {
    read_log();
    past_[selection] = {std::chrono::duration<double>(Clock::now() - start).count(),
                        progress.total ? *progress.total : progress.finished};
  }
  return outcome;
}

}  // namespace gpuperf::gate::driver
