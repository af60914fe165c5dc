// formats/escape.h: one escaping function per medium, each asserted on the text an attacker would put in
// a results file (a backtick and HTML, a newline and a workflow command, ESC, NUL, non-ASCII), and on
// clean names, which every medium must leave exactly as they are (the golden reports rely on it).
#include <gtest/gtest.h>

#include <string>

#include "formats/escape.h"

namespace gpuperf::formats {
namespace {

using namespace std::string_literals;

constexpr const char* kCleanName = "count_equal/warp_shuffle_vec4/n:268435456,match:0.0001";
constexpr const char* kCleanGpu = "NVIDIA H100 80GB HBM3";

TEST(EscapeConsole, LeavesPrintableTextAsItIs) {
  EXPECT_EQ(escape_console(kCleanName), kCleanName);
  EXPECT_EQ(escape_console(kCleanGpu), kCleanGpu);
  EXPECT_EQ(escape_console("p < 0.01 -> fix it: scripts/update_baseline.sh (see [x])"),
            "p < 0.01 -> fix it: scripts/update_baseline.sh (see [x])");
}

TEST(EscapeConsole, WritesEveryControlAndNonAsciiByteAsHex) {
  EXPECT_EQ(escape_console("a\n::error::pwned"), "a\\x0a::error::pwned");
  EXPECT_EQ(escape_console("a\r\nb"), "a\\x0d\\x0ab");
  EXPECT_EQ(escape_console("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(escape_console("nul\0here"s), "nul\\x00here");
  EXPECT_EQ(escape_console("tab\tdel\x7f"), "tab\\x09del\\x7f");
  EXPECT_EQ(escape_console("\xc2\x9b" "2J \xe2\x80\xae"), "\\xc2\\x9b2J \\xe2\\x80\\xae");  // C1 CSI, RTL override
}

TEST(EscapeConsole, EscapesTheBackslashSoThatEscapesReadBackUnambiguously) {
  EXPECT_EQ(escape_console("a\\x0ab"), "a\\x5cx0ab");
}

TEST(EscapeConsole, NeverStartsAWorkflowCommand) {
  EXPECT_EQ(escape_console("::error::pwned"), "\\x3a:error::pwned");
  EXPECT_EQ(escape_console(":one colon"), ":one colon");
  EXPECT_EQ(escape_console("a::b"), "a::b");
}

TEST(EscapeMarkdownText, LeavesCleanTextAsItIs) {
  EXPECT_EQ(escape_markdown_text(kCleanName), kCleanName);
  EXPECT_EQ(escape_markdown_text(kCleanGpu), kCleanGpu);
  // What the reports' own sentences hold: kernel templates, comparisons, intervals, commands.
  const std::string own = "code: reduce9_kernel<256>: grid 528 -> 128; p < 0.002; +5.2% [+4.9, +5.5] (x); "
                          "scripts/update_baseline.sh **bold** _em_";
  EXPECT_EQ(escape_markdown_text(own), own);
}

TEST(EscapeMarkdownText, WritesNoHtmlLinkImageMentionOrCodeSpan) {
  EXPECT_EQ(escape_markdown_text("fam/`<img src=x onerror=alert(1)>`/n:1"),
            "fam/\\`&lt;img src=x onerror=alert(1)>\\`/n:1");
  EXPECT_EQ(escape_markdown_text("</table><script>"), "&lt;/table>&lt;script>");
  EXPECT_EQ(escape_markdown_text("<!-- hidden -->"), "&lt;!-- hidden -->");
  EXPECT_EQ(escape_markdown_text("<https://evil.example>"), "&lt;https://evil.example>");
  EXPECT_EQ(escape_markdown_text("![x](https://evil.example/p.png) [y](z)"),
            "![x]\\(https://evil.example/p.png) [y]\\(z)");
  EXPECT_EQ(escape_markdown_text("cc @octocat"), "cc @&#8203;octocat");
  EXPECT_EQ(escape_markdown_text("&lt; &#64;"), "&amp;lt; &amp;#64;");
}

TEST(EscapeMarkdownText, KeepsOneTableCellOnOneLine) {
  EXPECT_EQ(escape_markdown_text("a|b"), "a\\|b");
  EXPECT_EQ(escape_markdown_text("a\\|b"), "a\\x5c\\|b");  // no "\\|" that would end the cell after all
  EXPECT_EQ(escape_markdown_text("row\n| x | y |"), "row\\x0a\\| x \\| y \\|");
  EXPECT_EQ(escape_markdown_text("::warning::x\r"), "\\x3a:warning::x\\x0d");
}

TEST(MarkdownCodeSpan, WrapsCleanNamesInOneBacktick) {
  EXPECT_EQ(markdown_code_span(kCleanName), "`"s + kCleanName + "`");
  EXPECT_EQ(markdown_code_span("nvidia-h200"), "`nvidia-h200`");
  EXPECT_EQ(markdown_code_span(""), "``");
}

TEST(MarkdownCodeSpan, NoBacktickRunInTheTextEndsTheSpan) {
  EXPECT_EQ(markdown_code_span("fam/`<img src=x>`/n:1"), "``fam/`<img src=x>`/n:1``");
  EXPECT_EQ(markdown_code_span("a``b`"), "``` a``b` ```");
  EXPECT_EQ(markdown_code_span("`x"), "`` `x ``");
  EXPECT_EQ(markdown_code_span(" x"), "`  x `");
}

TEST(MarkdownCodeSpan, StaysInItsTableCellOnOneLine) {
  EXPECT_EQ(markdown_code_span("a|b"), "`a\\|b`");
  EXPECT_EQ(markdown_code_span("a\\|b"), "`a\\x5c\\|b`");
  EXPECT_EQ(markdown_code_span("a\n::error::b\x1b\0"s), "`a\\x0a::error::b\\x1b\\x00`");
}

TEST(EscapeWorkflow, LeavesAMessageAsItIsAndEscapesOnlyThePropertysSeparators) {
  EXPECT_EQ(escape_workflow_message(kCleanName), kCleanName);
  EXPECT_EQ(escape_workflow_message(kCleanGpu), kCleanGpu);
  EXPECT_EQ(escape_workflow_property(kCleanGpu), kCleanGpu);
  EXPECT_EQ(escape_workflow_property(kCleanName), "count_equal/warp_shuffle_vec4/n%3A268435456%2Cmatch%3A0.0001");
}

TEST(EscapeWorkflow, NothingEndsTheLineOrTheCommand) {
  // GitHub's own escapes for % CR LF (the runner decodes them); the gate's \xNN for every other byte.
  EXPECT_EQ(escape_workflow_message("50%\n::error::x\r"), "50%25%0A::error::x%0D");
  EXPECT_EQ(escape_workflow_message("%0A is not a newline"), "%250A is not a newline");
  EXPECT_EQ(escape_workflow_message("\x1b[31m\0 \x7f\xc2\x85\\"s), "\\x1b[31m\\x00 \\x7f\\xc2\\x85\\x5c");
  EXPECT_EQ(escape_workflow_property("a::b,c\nd%"), "a%3A%3Ab%2Cc%0Ad%25");
}

TEST(EscapeMermaidString, LeavesCleanLabelsAsTheyAre) {
  EXPECT_EQ(escape_mermaid_string("reduce9_shfl_down_last_warp (H200)"), "reduce9_shfl_down_last_warp (H200)");
  EXPECT_EQ(escape_mermaid_string("reduction at n:33554432, GB/s"), "reduction at n:33554432, GB/s");
}

TEST(EscapeMermaidString, EndsNeitherTheStringNorTheBlockAndWritesNoHtml) {
  EXPECT_EQ(escape_mermaid_string("a\"]\n```\n<img src=x>"), "a']\\x0a#96;#96;#96;\\x0a#lt;img src=x#gt;");
  EXPECT_EQ(escape_mermaid_string("`md` #amp; & x"), "#96;md#96; #35;amp; #amp; x");
}

}  // namespace
}  // namespace gpuperf::formats
