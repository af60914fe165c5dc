#pragma once
// The pull-request comment of a run, in Markdown (perf_gate pr-comment; scripts/ci/pr_comment_body.sh
// prints it, pr-comment-call.yml and perf-call.yml's dispatch-report post it):
//
//   <!-- gpuperf-verdicts -->                          the marker post_pr_comment.sh finds its comment by
//   ### GPU perf verdicts
//   | GPU | family | mode | outcome | counts |          one row per report
//   | verdict | benchmark | GPU | change [interval] | tolerance |   every benchmark not SAME
//   Full reports: [the run](URL) (...)
//
// The reports come from a run of the branch's code, and the job that posts this holds a token that may
// write comments: every field is the reader's (judging/verdict_report.h, which refuses a report with a
// name outside the rule, an unknown verdict or outcome), written through formats/escape.h's Markdown
// helpers, numbers only as numbers. A report the reader refused is one row saying so, never its fields.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gate/judging/verdict_report.h"

namespace gpuperf::gate {

// One report of the run, as given: its file name (shown only for a refused report) and what the reader
// made of it; nullopt where the reader refused it.
struct PrCommentInput {
  std::string file_name;
  std::optional<VerdictReport> report;
};

// "" when `url` may be the comment's link to the run: https://, then only letters, digits and . / _ -
// (what a GitHub run's address holds; nothing that could end the Markdown link), at most kMaxRunUrlLength
// characters. Else why not, in one line, the address escaped for a console.
inline constexpr std::size_t kMaxRunUrlLength = 2000;  // [characters]
std::string run_url_error(const std::string& url);

// The comment, every line ending in "\n". No reports: the marker, the heading and "No gate report in this
// run: nothing was judged." with the link. `run_url` must pass run_url_error().
std::string pr_comment_markdown(const std::vector<PrCommentInput>& reports, const std::string& run_url);

}  // namespace gpuperf::gate
